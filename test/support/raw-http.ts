// Raw HTTP/1.1 over a TCP socket, for framing that supertest cannot produce or would hide
// (chunked bodies, lying content-length, smuggling shapes, pipelining, half-sent requests).
import { connect, type Socket } from 'node:net'

/** Rejects when `promise` has not settled after `ms`: a hang guard, never a timing assertion. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout
  const guard = new Promise<never>((_resolve, reject) => { timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms) })
  return Promise.race([promise, guard]).finally(() => clearTimeout(timer))
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

export interface RawResponse { status: number; headers: Record<string, string>; body: string }

/**
 * One TCP connection driven by hand: write bytes exactly as given, read the responses as they
 * come (framed by content-length or chunked encoding), and see whether the server closed it.
 */
export class RawClient {
  readonly socket: Socket
  readonly closed: Promise<void>
  #buffer = ''
  #waiters: Array<() => void> = []
  #isClosed = false

  constructor(address: string) {
    const { hostname, port } = new URL(address)
    this.socket = connect({ host: hostname, port: Number(port) })
    this.socket.setEncoding('latin1')
    this.socket.on('data', (chunk: string) => { this.#buffer += chunk; this.#wake() })
    // A reset after the server answered (it closes while we still write) is not a failure.
    this.socket.on('error', () => undefined)
    this.closed = new Promise((resolve) => this.socket.once('close', () => { this.#isClosed = true; this.#wake(); resolve() }))
  }

  get isClosed(): boolean { return this.#isClosed }

  /** Everything received and not yet taken by next(). */
  get pending(): string { return this.#buffer }

  write(text: string | Buffer): void {
    if (!this.socket.destroyed) this.socket.write(text)
  }

  /** The next complete response; rejects when the connection closes first or after `ms`. */
  async next(ms = 5_000): Promise<RawResponse> {
    const deadline = Date.now() + ms
    for (let round = 0; round < 10_000; round++) {
      const parsed = takeResponse(this.#buffer)
      if (parsed !== null) { this.#buffer = parsed.rest; return parsed.response }
      if (this.#isClosed) throw new Error(`the connection closed without a complete response; received: ${JSON.stringify(this.#buffer.slice(0, 300))}`)
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`no complete response within ${ms} ms; received: ${JSON.stringify(this.#buffer.slice(0, 300))}`)
      await within(new Promise<void>((resolve) => this.#waiters.push(resolve)), left, 'waiting for a response').catch(() => undefined)
    }
    throw new Error('too many reads')
  }

  /** Resolves once the server has closed the connection; rejects after `ms`. */
  waitClosed(ms = 5_000): Promise<void> {
    return within(this.closed, ms, 'waiting for the server to close the connection')
  }

  destroy(): void { this.socket.destroy() }

  #wake(): void {
    const waiters = this.#waiters
    this.#waiters = []
    for (const wake of waiters) wake()
  }
}

/** Opens a connection and waits until it is established. */
export async function rawClient(address: string): Promise<RawClient> {
  const client = new RawClient(address)
  await within(new Promise<void>((resolve, reject) => {
    client.socket.once('connect', () => resolve())
    client.socket.once('error', reject)
  }), 5_000, 'connecting')
  return client
}

/** Parses one response off the front of `text`, or null when it is not complete yet. */
function takeResponse(text: string): { response: RawResponse; rest: string } | null {
  const end = text.indexOf('\r\n\r\n')
  if (end === -1) return null
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  const status = Number(statusLine.split(' ')[1])
  let rest = text.slice(end + 4)
  let body = ''
  if (headers['transfer-encoding'] === 'chunked') {
    for (let guard = 0; ; guard++) {
      if (guard > 100_000) throw new Error('chunked body too long for a test')
      const lineEnd = rest.indexOf('\r\n')
      if (lineEnd === -1) return null
      const size = parseInt(rest.slice(0, lineEnd), 16)
      if (rest.length < lineEnd + 2 + size + 2) return null
      body += rest.slice(lineEnd + 2, lineEnd + 2 + size)
      rest = rest.slice(lineEnd + 2 + size + 2)
      if (size === 0) break
    }
  } else {
    const length = Number(headers['content-length'] ?? 0)
    if (rest.length < length) return null
    body = rest.slice(0, length)
    rest = rest.slice(length)
  }
  return { response: { status, headers, body: Buffer.from(body, 'latin1').toString('utf8') }, rest }
}

/** Serialises `chunks` as a chunked HTTP/1.1 body (with the terminating zero chunk). */
export function chunked(chunks: string[]): string {
  return chunks.map((c) => `${Buffer.byteLength(c).toString(16)}\r\n${c}\r\n`).join('') + '0\r\n\r\n'
}

/**
 * Writes `text` as is on a fresh connection and reads until the server closes it, then parses
 * the first response. The request should carry `Connection: close`.
 */
export async function rawRequest(address: string, text: string | Buffer): Promise<RawResponse> {
  const client = new RawClient(address)
  client.write(text)
  await client.waitClosed()
  const parsed = takeResponse(client.pending)
  if (parsed === null) throw new Error(`no complete HTTP response was received: ${JSON.stringify(client.pending.slice(0, 300))}`)
  return parsed.response
}
