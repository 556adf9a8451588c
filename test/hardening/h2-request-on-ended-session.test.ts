// A request whose HTTP/2 session nghttp2 ended on a protocol error while a hook still ran: the
// stream can no longer send, so it is an aborted request (as an HTTP/1.1 client that left), not
// a request handlerTimeout answers 503 to and logs at error level.
import { expect } from 'chai'
import { recordingLogger, server } from '../support/servers'
import { sleep } from '../support/raw-http'
import { FLAG, FRAME, frame, rawH2, requestBlock } from '../support/raw-h2'

describe('hardening: HTTP/2 request in a session nghttp2 ended', () => {
  it('a request whose session nghttp2 ended (HEADERS on an even stream id) while its async preHandler ran is aborted: no ENC_ERR_HANDLER_TIMEOUT logged, onRequestAbort runs', async () => {
    const logger = recordingLogger()
    const app = server({ http2: true, handlerTimeout: 300, logger })
    const aborted: string[] = []
    app.addHook('preHandler', async () => { await new Promise((resolve) => setImmediate(resolve)) })
    app.addHook('onRequestAbort', async (request) => { aborted.push(request.url) })
    app.get('/me', async () => ({ me: true }))
    const client = rawH2(await app.listen({ port: 0, host: '127.0.0.1' }))
    // One write: nghttp2 has stream 1's request before the even stream id ends the session.
    client.socket.write(Buffer.concat([
      frame(FRAME.HEADERS, FLAG.END_HEADERS | FLAG.END_STREAM, 1, requestBlock('/me')),
      frame(FRAME.HEADERS, FLAG.END_HEADERS | FLAG.END_STREAM, 2, requestBlock('/me'))
    ]))
    for (let i = 0; i < 100 && client.seen.goaway === null; i++) await sleep(20)
    expect(client.seen.goaway, 'GOAWAY').to.not.equal(null)
    await sleep(1_000)
    client.socket.destroy()
    const errors = logger.entries.filter((e) => e.level === 'error')
    expect(errors.map((e) => e.msg)).to.deep.equal([])
    expect(aborted).to.deep.equal(['/me'])
  })
})
