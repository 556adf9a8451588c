/**
 * One HTTP/2 frame-fuzz run: the fuzz app (fuzz-app.ts) over h2c or TLS, `seeds` generated
 * connections (h2-fuzz-frames.ts) with bounded parallelism, each judged on the wire and at the
 * server (h2-fuzz-run.ts); then the server must answer a normal request and hold no session or
 * socket. Shared by the test (a fixed seed set) and `npm run fuzz -- --h2=1` (bench/fuzz.ts).
 */
import { connect as http2Connect, type Http2Session } from 'node:http2'
import type { App } from '../../src/modules'
import type { Logger } from '../../src/runtime'
import { tlsCert, tlsKey } from '../support/tls'
import { FUZZ_SERVER_OPTIONS, fuzzApp } from './fuzz-app'
import { h2FuzzSession } from './h2-fuzz-frames'
import { captureStreams, h2Exchange, judgeServed, judgeWire, type ServedStream } from './h2-fuzz-run'

export interface H2FuzzReport {
  app: App
  violations: string[]
  statuses: Map<number, number>
  goaways: Map<number, number>
  resets: number
  served: number
  /** Every stream as the server saw it (seed, path, status, when it started). */
  streams: ServedStream[]
  timedOut: number
  /** After the run: a normal GET's status, the sessions and sockets still open. */
  after: { status: number; sessions: number; sockets: number }
  /** The seeds of the sessions still open after the run. */
  left: number[]
}

export async function h2FuzzRun(o: { from: number; seeds: number; parallel: number; secure: boolean; logger: Logger; keepOpen?: boolean; warm?: () => void }): Promise<H2FuzzReport> {
  // Short http2SessionTimeout and drainTimeout: the sessions nghttp2 ended on a protocol error go within the after-run wait.
  const { app, port } = await fuzzApp({ ...FUZZ_SERVER_OPTIONS, http2: true, http2SessionTimeout: 500, drainTimeout: 500, logger: o.logger, ...(o.secure ? { https: { key: tlsKey, cert: tlsCert } } : {}) })
  const sessions = new Set<Http2Session>()
  app.server.on('session' as never, ((session: Http2Session) => { sessions.add(session); session.once('close', () => sessions.delete(session)) }) as never)
  const capture = captureStreams(app.server)
  const violations: string[] = []
  const goaways = new Map<number, number>()
  let resets = 0
  let timedOut = 0
  let next = o.from
  o.warm?.()
  await Promise.all(Array.from({ length: o.parallel }, async () => {
    while (next < o.from + o.seeds) {
      const session = h2FuzzSession(next++, o.secure)
      const wire = await h2Exchange(port, session, o.secure, capture.seedOf)
      if (wire.goaway !== null) goaways.set(wire.goaway, (goaways.get(wire.goaway) ?? 0) + 1)
      for (const s of wire.streams.values()) if (s.rst !== null) resets++
      if (wire.timedOut) timedOut++
      for (const v of judgeWire(session, wire)) violations.push(`seed ${session.seed} [${session.mutations.join(', ')}]: ${v}`)
    }
  }))
  const after = { status: await normalGet(port, o.secure), sessions: 0, sockets: 0 }
  // Up to 5 s for the server to see the clients' closes.
  for (let i = 0; i < 250; i++) {
    after.sessions = sessions.size
    after.sockets = await new Promise<number>((resolve) => app.server.getConnections((_e, n) => resolve(n)))
    if (after.sessions === 0 && after.sockets === 0) break
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  const left = [...sessions].map((session) => capture.seedOf.get(session.socket?.remotePort ?? -1) ?? -1)
  capture.stop()
  const statuses = new Map<number, number>()
  for (const s of capture.served) {
    if (s.status !== undefined) statuses.set(s.status, (statuses.get(s.status) ?? 0) + 1)
    const wrong = judgeServed(s)
    if (wrong !== null) violations.push(`seed ${s.seed} stream ${s.id} (${s.method} ${s.path.slice(0, 80)}): ${wrong}`)
  }
  if (o.keepOpen !== true) await app.close()
  return { app, violations, statuses, goaways, resets, served: capture.served.length, streams: capture.served, timedOut, after, left }
}

async function normalGet(port: number, secure: boolean): Promise<number> {
  const session = http2Connect(`${secure ? 'https' : 'http'}://127.0.0.1:${port}`, { ca: tlsCert })
  session.on('error', () => undefined)
  try {
    return await new Promise<number>((resolve) => {
      const timer = setTimeout(() => resolve(0), 5_000)
      const stream = session.request({ ':path': '/fz/seq/1' })
      stream.on('response', (h) => { clearTimeout(timer); resolve(Number(h[':status'])) })
      stream.on('error', () => resolve(-1))
      stream.resume()
      stream.end()
    })
  } finally {
    session.destroy()
  }
}
