import { connect, type Socket } from 'node:net'
import { expect } from 'chai'
import type { Scope, ServerOptions } from '../../src/runtime'
import { server } from '../support/servers'
export { server, recordingLogger, type LogEntry } from '../support/servers'

/** A server with `declare`'s routes, listening on 127.0.0.1; resolves to the app and its address. */
export async function listening(declare: (root: Scope) => void, options?: ServerOptions): Promise<{ app: Scope; address: string }> {
  const app = server(options)
  declare(app)
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  return { app, address }
}


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

/** Asserts the framework's error shape: `{ statusCode, code?, error, message }` and nothing else. */
export function expectErrorShape(body: string, status: number): Record<string, unknown> {
  const parsed = JSON.parse(body) as Record<string, unknown>
  expect(parsed.statusCode, body).to.equal(status)
  expect(parsed.error, body).to.be.a('string')
  expect(parsed.message, body).to.be.a('string')
  expect(Object.keys(parsed).filter((k) => !['statusCode', 'code', 'error', 'message'].includes(k)), body).to.deep.equal([])
  return parsed
}

/** Serialises `chunks` as a chunked HTTP/1.1 body (with the terminating zero chunk). */
export function chunked(chunks: string[]): string {
  return chunks.map((c) => `${Buffer.byteLength(c).toString(16)}\r\n${c}\r\n`).join('') + '0\r\n\r\n'
}

/** The generic 500 body: nothing from the error itself. */
export const GENERIC_500 = { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' }
