// request.aborted on HTTP/2: node:http2's compatibility response has no `destroyed`, so the
// getter reads the stream too (response-gone.ts), as `destroyed` says it over HTTP/1.1.
import { connect, constants } from 'node:http2'
import { expect } from 'chai'
import { server } from '../support/servers'
import { within } from '../support/raw-http'

describe('hardening: HTTP/2 aborted requests', () => {
  it('request.aborted reads true on HTTP/2 once the client reset the stream while the handler ran (no onRequestAbort hook)', async () => {
    const app = server({ http2: true })
    let release: () => void = () => undefined
    const released = new Promise<void>((resolve) => { release = resolve })
    let entered: () => void = () => undefined
    const inHandler = new Promise<void>((resolve) => { entered = resolve })
    const seen: boolean[] = []
    app.get('/slow', async (request) => {
      seen.push(request.aborted)
      entered()
      await released
      seen.push(request.aborted)
      return { ok: true }
    })
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const session = connect(address)
    session.on('error', () => undefined)
    try {
      const stream = session.request({ ':path': '/slow' })
      stream.on('error', () => undefined)
      await within(inHandler, 5_000, 'the handler to start')
      const closed = new Promise<void>((resolve) => stream.once('close', () => resolve()))
      stream.close(constants.NGHTTP2_CANCEL)
      await closed
      // The server sees the RST_STREAM a moment after the client sent it.
      await new Promise((resolve) => setTimeout(resolve, 100))
      release()
      for (let i = 0; i < 100 && seen.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10))
      expect(seen).to.deep.equal([false, true])
    } finally {
      session.destroy()
    }
  })

  it('request.aborted stays false on HTTP/2 after the reply was written', async () => {
    const app = server({ http2: true })
    let after: boolean | undefined
    app.get('/done', async (request, reply) => {
      reply.raw.on('finish', () => { setImmediate(() => { after = request.aborted }) })
      return { ok: true }
    })
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const session = connect(address)
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const stream = session.request({ ':path': '/done' })
        stream.on('response', (h) => resolve(Number(h[':status'])))
        stream.on('error', reject)
        stream.resume()
      })
      expect(status).to.equal(200)
      for (let i = 0; i < 100 && after === undefined; i++) await new Promise((resolve) => setTimeout(resolve, 10))
      expect(after).to.equal(false)
    } finally {
      session.destroy()
    }
  })
})
