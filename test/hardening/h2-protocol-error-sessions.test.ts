// A session nghttp2 ends on a protocol error: it sends GOAWAY, node:http2 stops reading the socket
// (the client's close is never seen) and Node's session timer does not fire again once the session
// is closed, so before hostile14 the socket stayed open until the server closed. Enclave's
// http2SessionTimeout watch (http2-session-timeout.ts) now destroys it.
import { expect } from 'chai'
import { server } from '../support/servers'
import { sleep, within } from '../support/raw-http'
import { poll } from '../support/until'
import { FLAG, FRAME, frame, rawH2, requestBlock } from '../support/raw-h2'
import type { Scope } from '../../src/runtime'
import { fuzzApp } from './fuzz-app'
import { h2FuzzSession } from './h2-fuzz-frames'
import { h2Exchange } from './h2-fuzz-run'

async function openConnections(app: Scope): Promise<number> {
  return new Promise<number>((resolve) => app.server.getConnections((_e, n) => resolve(n)))
}

async function connectionsAfter(app: Scope, ms: number): Promise<number> {
  await poll(async () => (await openConnections(app)) === 0, { ms, every: 20 })
  return openConnections(app)
}

describe('hardening: HTTP/2 sessions ended on a protocol error', () => {
  for (const [name, withRequest] of [['with no stream', false], ['with replies nghttp2 will never send', true]] as const) {
    it(`a session ended by nghttp2 (a 7-byte PING: GOAWAY FRAME_SIZE_ERROR) whose client left, ${name}, is destroyed after http2SessionTimeout/drainTimeout, not held until close()`, async () => {
      const app = server({ http2: true, http2SessionTimeout: 150, drainTimeout: 150 })
      app.get('/ok', async () => ({ ok: true }))
      const client = rawH2(await app.listen({ port: 0, host: '127.0.0.1' }))
      // In one write: nghttp2 has the request before the PING ends the session, so the reply is written to a dead session.
      const request = withRequest ? frame(FRAME.HEADERS, FLAG.END_HEADERS | FLAG.END_STREAM, 1, requestBlock('/ok')) : Buffer.alloc(0)
      client.socket.write(Buffer.concat([request, frame(FRAME.PING, 0, 0, Buffer.alloc(7))]))
      for (let i = 0; i < 100 && client.seen.goaway === null; i++) await sleep(20)
      expect(client.seen.goaway, 'GOAWAY FRAME_SIZE_ERROR').to.equal(6)
      client.socket.destroy()
      await within(client.closed, 2_000, 'the client socket to close')
      expect(await connectionsAfter(app, 3_000), 'server connections 3 s after the client left').to.equal(0)
    })
  }

  // The frame fuzz's connections that Enclave held open before (h2-fuzz-frames.ts; each a stream
  // error, then a session nghttp2 ended with streams left in it): the same frames, replayed.
  it('the frame fuzz connections once held open (seeds 83, 109, 116) are closed within http2SessionTimeout + drainTimeout after their client left', async () => {
    const { app, port } = await fuzzApp({ http2: true, http2SessionTimeout: 150, drainTimeout: 150, logger: { info() {}, debug() {}, warn() {}, error() {} } })
    try {
      for (const seed of [83, 109, 116]) await h2Exchange(port, h2FuzzSession(seed), false, new Map())
      expect(await connectionsAfter(app, 3_000), 'server connections 3 s after the clients left').to.equal(0)
    } finally {
      await app.close()
    }
  })
})
