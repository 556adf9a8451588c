// A TLS HTTP/2 session nghttp2 destroyed on a protocol error keeps its socket open in Node
// (http2-destroyed-session.ts): the server closes it. Replays the TLS frame fuzz's seed 335,
// which left its session open in 2 of 3 runs before the fix.
import { expect } from 'chai'
import type { AddressInfo } from 'node:net'
import { connect as http2Connect, type Http2Session } from 'node:http2'
import { server } from '../support/servers'
import { h2FuzzRun } from './h2-fuzz-drive'

describe('hardening: HTTP/2 session destroyed with its socket open', () => {
  it('a TLS HTTP/2 session nghttp2 destroyed on a bad SETTINGS value, its client then cutting the connection, has its socket closed (TLS fuzz seed 335, replayed 3 times)', async function () {
    this.timeout(30_000)
    const quiet = { info() {}, debug() {}, warn() {}, error() {} }
    for (let round = 0; round < 3; round++) {
      const r = await h2FuzzRun({ from: 335, seeds: 1, parallel: 1, secure: true, logger: quiet })
      expect(r.after, `round ${round}: seeds left open ${r.left.join(',')}`).to.deep.equal({ status: 200, sessions: 0, sockets: 0 })
    }
  })
})

describe('hardening: HTTP/2 destroyed-session read-again timer', () => {
  // A distinctive http2SessionTimeout picks the timers http2-destroyed-session.ts starts (its grace period).
  const GRACE_MS = 43_210

  it('an HTTP/2 session its client closes leaves no read-again timer holding its socket (at most one per session, cleared when the socket closes)', async function () {
    this.timeout(10_000)
    const started = new Set<NodeJS.Timeout>()
    const cleared = new Set<unknown>()
    const realSet = globalThis.setTimeout
    const realClear = globalThis.clearTimeout
    globalThis.setTimeout = ((fn: () => void, ms?: number) => {
      const timer = realSet(fn, ms)
      if (ms === GRACE_MS) started.add(timer)
      return timer
    }) as typeof setTimeout
    globalThis.clearTimeout = ((timer: Parameters<typeof clearTimeout>[0]) => { cleared.add(timer); realClear(timer) }) as typeof clearTimeout
    try {
      const app = server({ http2: true, http2SessionTimeout: GRACE_MS })
      app.get('/', async () => ({ ok: true }))
      await app.listen(0, '127.0.0.1')
      const port = (app.server.address() as AddressInfo).port
      const closed = new Promise<void>((resolve) => {
        app.server.on('session' as never, ((session: Http2Session) => { session.once('close', () => { resolve() }) }) as never)
      })
      const client = http2Connect(`http://127.0.0.1:${port}`)
      client.on('error', () => undefined)
      await new Promise<void>((resolve, reject) => {
        const stream = client.request({ ':path': '/' })
        stream.resume()
        stream.on('end', resolve)
        stream.on('error', reject)
        stream.end()
      })
      client.close()
      await closed
      await new Promise((resolve) => setImmediate(resolve))
      expect(started.size, 'timers started for one session').to.be.at.most(1)
      for (const timer of started) expect(cleared.has(timer), 'timer cleared once the socket closed').to.equal(true)
    } finally {
      globalThis.setTimeout = realSet
      globalThis.clearTimeout = realClear
    }
  })
})
