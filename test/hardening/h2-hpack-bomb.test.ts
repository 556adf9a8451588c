// An HPACK bomb over HTTP/2: a client enters one 4,000-byte header value in the connection's
// dynamic table (RFC 7541 §6.2.1) and names it again at one byte each (§6.1), so a 110-byte
// request carries 400 KB of decoded headers. Node announces no SETTINGS_MAX_HEADER_LIST_SIZE and hands
// such a request to the handler whole (one `x-a` of 404,200 characters); Enclave bounds the header
// list as an HTTP/1.1 head is bounded (node-server.ts, defaultMaxHeaderListSize: Node's
// maxHeaderSize plus 32 octets per field, as RFC 7541 counts them, for 128 fields).
import { expect } from 'chai'
import { maxHeaderSize } from 'node:http'
import { connect as h2Connect } from 'node:http2'
import { server } from '../support/servers'
import { until } from '../support/until'
import { FLAG, FRAME, frame, hpackBombRequest, rawH2, requestBlock } from '../support/raw-h2'
import { defaultMaxHeaderListSize } from '../../src/runtime/server/node-server'

describe('hardening: HTTP/2 HPACK bombs (header lists decoded past the HTTP/1.1 head bound)', function () {
  this.timeout(15_000)

  it('the bound is the HTTP/1.1 head\'s (Node maxHeaderSize) plus 32 octets per field for 128 fields', () => {
    expect(defaultMaxHeaderListSize).to.equal(maxHeaderSize + 32 * 128)
  })

  it('a 110-byte request naming a 4 KB table entry 100 times (400 KB decoded) is reset without running a handler; 3 times (with the entered field, 16 KB: within an HTTP/1.1 head) is served; a client going on is cut and others are served', async () => {
    const app = server({ http2: true })
    const seen: number[] = []
    app.get('/h', async (request) => { seen.push(String(request.headers['x-a'] ?? '').length); return { ok: true } })
    try {
      const address = await app.listen({ port: 0, host: '127.0.0.1' })
      const attacker = rawH2(address)
      // A request naming no table entry (no x-a: the handler records 0), answered on this session.
      const plain = (id: number) => frame(FRAME.HEADERS, FLAG.END_HEADERS | FLAG.END_STREAM, id, requestBlock('/h'))
      const cut = () => attacker.seen.closed || attacker.seen.goaway !== null
      try {
        attacker.socket.write(hpackBombRequest(1, '/h', 3, true))
        await until(() => attacker.seen.headers === 1, 'the 16 KB request answered')
        expect(seen, 'the 16 KB request (the entered field and 3 names of it)').to.deep.equal([4 * 4_000 + 3 * 2])
        attacker.socket.write(hpackBombRequest(3, '/h', 100, false))
        await until(() => attacker.seen.rstStreams > 0 || cut(), 'the 400 KB request refused')
        // "No handler ran for it" is only a finding once a later request on the same session has been
        // served: streams are handled in order, so by then a handler for stream 3 would have run.
        if (!cut()) {
          attacker.socket.write(plain(5))
          await until(() => attacker.seen.headers === 2 || cut(), 'the plain request after the refused one answered (or the session cut)')
        }
        expect(seen, 'no handler ran for the 400 KB request').to.deep.equal(attacker.seen.headers === 2 ? [4 * 4_000 + 3 * 2, 0] : [4 * 4_000 + 3 * 2])
        // Going on: 50 such requests (under the 100 concurrent streams), then a plain one; none of the
        // 50 reaches a handler. Wait until the plain one is answered or the session is cut and gone.
        const answered = attacker.seen.headers
        if (!cut()) attacker.socket.write(Buffer.concat([...Array.from({ length: 50 }, (_, i) => hpackBombRequest(7 + 2 * i, '/h', 100, false)), plain(107)]))
        await until(() => attacker.seen.headers > answered || attacker.seen.closed, 'the plain request after 50 bombs answered, or the attacker cut')
        expect(seen.slice(1).every((length) => length === 0), `handlers ran only for plain requests: ${seen.join(', ')}`).to.equal(true)
        expect(seen.length, 'handlers run').to.be.at.most(3)
      } finally {
        attacker.socket.destroy()
      }
      const client = h2Connect(address)
      try {
        const status = await new Promise<number>((resolve, reject) => {
          const stream = client.request({ ':path': '/h' })
          stream.on('response', (headers) => resolve(Number(headers[':status'])))
          stream.on('error', reject)
          stream.resume()
        })
        expect(status).to.equal(200)
      } finally {
        client.close()
      }
    } finally {
      await app.close()
    }
  })
})
