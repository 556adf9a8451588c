/**
 * Sending one generated HTTP/2 connection (h2-fuzz-frames.ts) over loopback (h2c, or TLS with
 * ALPN h2) and judging it. Two views: the wire (the server's frames: which streams got HEADERS,
 * DATA, RST_STREAM, GOAWAY; no internal text in any DATA), and the server's side of each stream
 * (`captureStreams`: the status and body Enclave handed to node:http2), since the wire's header
 * blocks are Huffman/dynamic-table encoded and this client keeps no HPACK decoder.
 */
import { connect as netConnect, type Socket } from 'node:net'
import { connect as tlsConnect } from 'node:tls'
import type { Server } from 'node:http'
import type { IncomingHttpHeaders, ServerHttp2Stream } from 'node:http2'
import { tlsCert } from '../support/tls'
import { onFrames } from '../support/raw-h2'
import { T, type H2FuzzSession } from './h2-fuzz-frames'
import { errorShape, LEAK } from './fuzz-run'

export interface H2Wire {
  goaway: number | null
  closed: boolean
  timedOut: boolean
  /** Per stream id: HEADERS seen, RST_STREAM code, DATA bytes, END_STREAM seen. */
  streams: Map<number, { headers: boolean; rst: number | null; data: Buffer[]; ended: boolean }>
}

/** One stream as Enclave answered it, seen from the server side. */
export interface ServedStream { seed: number; id: number; method: string; path: string; status?: number; body: Buffer[]; ended: boolean; at: number }

/** Records every stream's status and body at node:http2's stream API; `seedOf` maps a client port to its seed. */
export function captureStreams(server: Server): { served: ServedStream[]; seedOf: Map<number, number>; stop(): void } {
  const served: ServedStream[] = []
  const seedOf = new Map<number, number>()
  const onStream = (stream: ServerHttp2Stream, headers: IncomingHttpHeaders): void => {
    const seed = seedOf.get(stream.session?.socket?.remotePort ?? -1) ?? -1
    const record: ServedStream = { seed, id: stream.id ?? -1, method: String(headers[':method']), path: String(headers[':path']), body: [], ended: false, at: Date.now() }
    served.push(record)
    const respond = stream.respond.bind(stream)
    stream.respond = (h, options) => {
      record.status = Number(h?.[':status'] ?? 200)
      if (options?.endStream === true) record.ended = true
      respond(h, options)
    }
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (chunk !== undefined && chunk !== null) record.body.push(Buffer.from(chunk as Buffer))
      return write(chunk, ...rest)
    }) as typeof stream.write
    const end = stream.end.bind(stream) as (...args: unknown[]) => ServerHttp2Stream
    stream.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') record.body.push(Buffer.from(chunk as Buffer))
      record.ended = true
      return end(chunk, ...rest)
    }) as typeof stream.end
  }
  server.prependListener('stream' as never, onStream as never)
  return { served, seedOf, stop: () => { server.off('stream' as never, onStream as never) } }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** Writes the connection's frames and reads the server's until it is answered, closed, or 6 s passed. */
export function h2Exchange(port: number, session: H2FuzzSession, secure: boolean, seedOf: Map<number, number>): Promise<H2Wire> {
  return new Promise((resolve) => {
    const socket: Socket = secure
      ? tlsConnect({ host: '127.0.0.1', port, ca: tlsCert, servername: 'localhost', ALPNProtocols: ['h2'] })
      : netConnect({ host: '127.0.0.1', port })
    socket.setNoDelay(true)
    const wire: H2Wire = { goaway: null, closed: false, timedOut: false, streams: new Map() }
    const stream = (id: number) => {
      let s = wire.streams.get(id)
      if (s === undefined) wire.streams.set(id, s = { headers: false, rst: null, data: [], ended: false })
      return s
    }
    onFrames(socket, (type, flags, id, payload) => {
      if (type === T.GOAWAY && payload.length >= 8) wire.goaway = payload.readUInt32BE(4)
      if (type === T.RST_STREAM && payload.length >= 4) stream(id).rst = payload.readUInt32BE(0)
      if (type === T.HEADERS) { stream(id).headers = true; if (flags & 1) stream(id).ended = true }
      if (type === T.DATA) {
        const padded = (flags & 0x8) !== 0
        stream(id).data.push(padded ? payload.subarray(1, payload.length - payload[0]) : payload)
        if (flags & 1) stream(id).ended = true
      }
    })
    socket.on('error', () => undefined)
    socket.on('close', () => { wire.closed = true })
    const ready = secure ? 'secureConnect' : 'connect'
    socket.once(ready, () => {
      seedOf.set(socket.localPort ?? -1, session.seed)
      void run()
    })
    const done = (s: { headers: boolean; rst: number | null; ended: boolean } | undefined): boolean => s !== undefined && (s.rst !== null || s.ended)
    const answered = (): boolean => session.streams.every((q) => !(q.intact || session.linger) || done(wire.streams.get(q.id)))
    async function run(): Promise<void> {
      let written = 0
      for (const step of session.steps) {
        if (socket.destroyed) break
        if (typeof step === 'number') { await sleep(step); continue }
        if (session.cutAt !== undefined && written + step.length >= session.cutAt) {
          socket.write(step.subarray(0, session.cutAt - written))
          await sleep(10)
          socket.destroy()
          break
        }
        socket.write(step)
        written += step.length
      }
      const started = Date.now()
      // Bounded: 6 s covers the fuzz app's bodyTimeout (1 s) and handlerTimeout (3 s).
      while (!wire.closed && !socket.destroyed) {
        if (wire.goaway !== null) { await sleep(50); break }
        if (answered()) break
        if (Date.now() - started > 6_000) { wire.timedOut = true; break }
        await sleep(10)
      }
      finish(false)
    }
    // A connection that never becomes ready (a refused handshake) still ends the exchange.
    const guard = setTimeout(() => finish(true), 10_000)
    socket.once('close', () => { if (socket.bytesWritten === 0) finish(false) })
    let settled = false
    function finish(timedOut: boolean): void {
      if (settled) return
      settled = true
      clearTimeout(guard)
      if (timedOut) wire.timedOut = true
      socket.destroy()
      resolve(wire)
    }
  })
}

/** What is wrong on the wire: internal text in a DATA frame, an intact stream left unanswered on a live connection. */
export function judgeWire(session: H2FuzzSession, wire: H2Wire): string[] {
  const violations: string[] = []
  for (const [id, s] of wire.streams) {
    const text = Buffer.concat(s.data).toString('utf8')
    if (LEAK.test(text)) violations.push(`stream ${id}: internals in DATA: ${text.slice(0, 200)}`)
  }
  if (session.cutAt !== undefined || wire.goaway !== null) return violations
  for (const q of session.streams) {
    if (!q.intact) continue
    const s = wire.streams.get(q.id)
    if (s?.headers === true || s?.rst != null) continue
    if (wire.timedOut) violations.push(`stream ${q.id} (${q.method} ${q.path}): intact, no answer within 6 s, the connection still open`)
    // A connection the server ended on a protocol error may lose its GOAWAY: closing a socket with
    // unread bytes (the rest of a flood) sends a TCP reset, and the client drops what it had not read.
    else if (wire.closed && session.mutations.length === 0) violations.push(`stream ${q.id} (${q.method} ${q.path}): intact, on a connection with no mutation, closed without an answer or GOAWAY`)
  }
  return violations
}

/** 5xx a route answers on purpose, beyond fuzz-run.ts's documented ones. */
const ON_PURPOSE_500 = ['/fz/rethrow/boom']

/** What is wrong with a stream Enclave answered: the error contract, as over HTTP/1.1 (fuzz-run.ts). */
export function judgeServed(s: ServedStream): string | null {
  if (s.status === undefined || !s.ended) return null
  const body = Buffer.concat(s.body)
  const text = body.toString('utf8')
  if (LEAK.test(text)) return `internals in the body: ${text.slice(0, 200)}`
  if (s.status < 400 || s.method === 'HEAD') return null
  if (s.status === 500 && ON_PURPOSE_500.includes(s.path) && /"message":"Internal Server Error"/.test(text)) return null
  return errorShape({ status: s.status, body }, s.path)
}
