import { connect } from 'node:net'
import { createServer, type Logger, type Scope, type ServerOptions } from '../../src/runtime'

/** Every server a test creates; closed after each test, so a failing test leaks no socket. */
const open: Scope[] = []

afterEach(async () => {
  while (open.length > 0) await (open.pop() as Scope).close()
})

/** A server closed after the current test. */
export function server(options?: ServerOptions): Scope {
  const app = createServer(options)
  open.push(app)
  return app
}

/** Creates a server, lets `declare` register on its root scope, and boots it. */
export async function build(declare: (root: Scope) => void | Promise<void>, options?: ServerOptions): Promise<Scope> {
  const app = server(options)
  await declare(app)
  await app.ready()
  return app
}

/** What `ready()` rejected with; fails the test when it resolves. */
export async function bootError(app: Scope): Promise<Error & { code?: string }> {
  try {
    await app.ready()
  } catch (error) {
    return error as Error & { code?: string }
  }
  throw new Error('ready() was expected to reject')
}

/** What `fn` threw synchronously; fails the test when it does not throw. */
export function thrown(fn: () => unknown): Error & { code?: string } {
  try {
    fn()
  } catch (error) {
    return error as Error & { code?: string }
  }
  throw new Error('the call was expected to throw')
}

export interface LogEntry { level: 'info' | 'warn' | 'error' | 'debug'; obj: unknown; msg: string | undefined }

/** A logger that keeps every call, for asserting on what the framework logs. */
export function recordingLogger(): Logger & { entries: LogEntry[] } {
  const entries: LogEntry[] = []
  const at = (level: LogEntry['level']) => (obj: unknown, msg?: string): void => { entries.push({ level, obj, msg }) }
  return { entries, info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') }
}

/** A promise with its resolve function outside: lets a test release a handler it holds. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => { resolve = r })
  return { promise, resolve }
}

export interface RawResponse { status: number; headers: Record<string, string>; body: string }

/**
 * Writes `text` as is on a fresh TCP connection and reads until the server closes it: for
 * framing supertest cannot produce (chunked bodies, lying content-length). The request should
 * carry `Connection: close`.
 */
export function rawRequest(address: string, text: string | Buffer): Promise<RawResponse> {
  const { hostname, port } = new URL(address)
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) })
    const received: Buffer[] = []
    let settled = false
    const finish = (): void => {
      if (settled) return
      settled = true
      const response = parseRawResponse(Buffer.concat(received).toString('latin1'))
      if (response === null) reject(new Error('no complete HTTP response was received'))
      else resolve(response)
    }
    socket.on('data', (chunk: Buffer) => received.push(chunk))
    socket.on('end', finish)
    socket.on('close', finish)
    // A reset after the server answered (it closes while we still write) is not a failure.
    socket.on('error', () => undefined)
    socket.write(text)
  })
}

function parseRawResponse(text: string): RawResponse | null {
  const end = text.indexOf('\r\n\r\n')
  if (end === -1) return null
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  let body = text.slice(end + 4)
  if (headers['transfer-encoding'] === 'chunked') body = dechunk(body)
  return { status: Number(statusLine.split(' ')[1]), headers, body }
}

function dechunk(text: string): string {
  let out = ''
  let rest = text
  for (let guard = 0; guard < 10_000 && rest.length > 0; guard++) {
    const lineEnd = rest.indexOf('\r\n')
    const size = parseInt(rest.slice(0, lineEnd), 16)
    if (!(size > 0)) break
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size)
    rest = rest.slice(lineEnd + 2 + size + 2)
  }
  return out
}

/** Serialises `chunks` as a chunked HTTP/1.1 body (with the terminating zero chunk). */
export function chunked(chunks: string[]): string {
  return chunks.map((c) => `${Buffer.byteLength(c).toString(16)}\r\n${c}\r\n`).join('') + '0\r\n\r\n'
}
