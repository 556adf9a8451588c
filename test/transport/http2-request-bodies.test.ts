// Request and response bodies over HTTP/2 that span many DATA frames, under flow control (a
// 65,535-byte initial window, so the server must keep opening it): a large upload read whole, a
// refused one (bodyLimit) that leaves its session able to take the next upload, and a client
// that stops reading one large reply while its other streams are served. Real node:http2 clients
// on loopback; every wait bounded. README differences (HTTP/2 refusals reset with NO_ERROR).
import { expect } from 'chai'
import type { ClientHttp2Session, ClientHttp2Stream } from 'node:http2'
import { connectH2 as connect } from '../support/h2-client'
import { server } from '../support/servers'
import { within } from '../support/raw-http'
import { tlsCert, tlsKey } from '../support/tls'

interface Upload { status: number; body: string; sentAtAnswer: number }

/**
 * POSTs `body` in 16 KiB writes, each waiting for 'drain' when the window is full (as a client
 * streaming a file does). Resolves at the answer's end ('close' may never come to a Node client
 * whose writes are still queued when the server resets a refused upload with NO_ERROR).
 */
function upload(session: ClientHttp2Session, path: string, body: string): Promise<Upload> {
  return within(new Promise<Upload>((resolve, reject) => {
    const stream = session.request({ ':method': 'POST', ':path': path, 'content-type': 'application/json' })
    let status = 0
    let answer = ''
    let sent = 0
    let sentAtAnswer = -1
    stream.on('response', (h) => { status = Number(h[':status']); sentAtAnswer = sent })
    stream.setEncoding('utf8')
    stream.on('data', (chunk: string) => { answer += chunk })
    stream.on('end', () => resolve({ status, body: answer, sentAtAnswer }))
    stream.on('error', reject)
    const write = (): void => {
      while (sent < body.length) {
        if (stream.destroyed || stream.closed) return
        const chunk = body.slice(sent, sent + 16_384)
        sent += chunk.length
        if (!stream.write(chunk)) { stream.once('drain', write); return }
      }
      stream.end()
    }
    write()
  }), 20_000, `the upload to ${path}`)
}

const json = (size: number, fill: string): string => JSON.stringify({ text: fill.repeat(size) })

describe('transport: HTTP/2 bodies across many DATA frames, under flow control', function () {
  this.timeout(30_000)

  for (const secure of [false, true]) {
    it(`over ${secure ? 'TLS' : 'h2c'}: a 5 MB JSON body sent in 16 KiB frames within bodyLimit is read whole`, async () => {
      const app = server({ http2: true, https: secure ? { key: tlsKey, cert: tlsCert } : undefined, bodyLimit: 10_000_000 })
      app.post('/upload', async (request) => ({ length: (request.body as { text: string }).text.length }))
      const session = connect(await app.listen({ port: 0, host: '127.0.0.1' }))
      const answer = await upload(session, '/upload', json(5_000_000, 'a'))
      expect(answer.status).to.equal(200)
      expect(JSON.parse(answer.body)).to.deep.equal({ length: 5_000_000 })
    })
  }

  it('a 5 MB upload over a 1 MB bodyLimit gets its whole 413 while the client is still sending, and the same session takes the next upload', async () => {
    const app = server({ http2: true, bodyLimit: 1_000_000 })
    app.post('/upload', async (request) => ({ length: (request.body as { text: string }).text.length }))
    const session = connect(await app.listen({ port: 0, host: '127.0.0.1' }))
    const refused = await upload(session, '/upload', json(5_000_000, 'a'))
    expect(refused.status).to.equal(413)
    expect(JSON.parse(refused.body)).to.include({ statusCode: 413, code: 'ENC_ERR_CTP_BODY_TOO_LARGE' })
    // Answered at the limit, not after the whole body: the server stopped the upload (RST_STREAM NO_ERROR).
    expect(refused.sentAtAnswer).to.be.below(2_500_000)
    // The refused stream's unread DATA does not keep the session's window: a 900 KB upload still fits.
    const next = await upload(session, '/upload', json(900_000, 'b'))
    expect(next.status).to.equal(200)
    expect(JSON.parse(next.body)).to.deep.equal({ length: 900_000 })
  })

  it("docs/deploy.md's advice for a Node client refused midway: its 'end' comes with the whole 413, and stream.destroy() after it frees the stream ('close' fires)", async () => {
    const app = server({ http2: true, bodyLimit: 1_000_000 })
    app.post('/upload', async () => ({ ok: true }))
    const session = connect(await app.listen({ port: 0, host: '127.0.0.1' }))
    const body = json(5_000_000, 'a')
    const stream = session.request({ ':method': 'POST', ':path': '/upload', 'content-type': 'application/json' })
    const closed = new Promise<void>((resolve) => stream.once('close', () => resolve()))
    let status = 0
    let answer = ''
    stream.on('response', (h) => { status = Number(h[':status']) })
    stream.setEncoding('utf8')
    stream.on('data', (chunk: string) => { answer += chunk })
    // A reset other than NO_ERROR (the refusal Node's client takes quietly) is an 'error': it fails
    // the test at once, with its code, instead of leaving 'end' to time out. Kept on, so an error
    // after 'end' settles nothing and is not thrown as unhandled.
    const ended = new Promise<void>((resolve, reject) => {
      stream.once('end', () => resolve())
      stream.on('error', reject)
    })
    let sent = 0
    const write = (): void => {
      // The advice: stop writing once the answer is a 4xx.
      while (sent < body.length && status < 400 && !stream.destroyed) {
        const chunk = body.slice(sent, sent + 16_384)
        sent += chunk.length
        if (!stream.write(chunk)) { stream.once('drain', write); return }
      }
      if (status < 400) stream.end()
    }
    write()
    await within(ended, 10_000, "the refused upload's end")
    expect(status).to.equal(413)
    expect(JSON.parse(answer)).to.include({ code: 'ENC_ERR_CTP_BODY_TOO_LARGE' })
    stream.destroy()
    await within(closed, 5_000, "'close' after stream.destroy()")
    expect(stream.closed).to.equal(true)
  })

  it('a client that stops reading one 8 MB reply: its other streams on the session are answered, and the reply arrives whole once it reads again', async () => {
    const big = 'x'.repeat(8 * 1024 * 1024)
    const app = server({ http2: true })
    app.get('/big', async () => big)
    app.get('/small', async () => ({ ok: true }))
    const session = connect(await app.listen({ port: 0, host: '127.0.0.1' }))
    const stalled: ClientHttp2Stream = session.request({ ':path': '/big' })
    stalled.on('error', () => undefined)
    let received = 0
    const firstBytes = new Promise<void>((resolve) => {
      const onData = (chunk: Buffer): void => { received += chunk.length; stalled.pause(); stalled.off('data', onData); resolve() }
      stalled.on('data', onData)
    })
    await within(firstBytes, 5_000, 'the first bytes of the large reply')
    const small = await within(new Promise<string>((resolve, reject) => {
      const stream = session.request({ ':path': '/small' })
      let body = ''
      stream.setEncoding('utf8')
      stream.on('data', (chunk: string) => { body += chunk })
      stream.on('end', () => resolve(body))
      stream.on('error', reject)
    }), 5_000, 'another stream while the large reply waits')
    expect(JSON.parse(small)).to.deep.equal({ ok: true })
    // Held back by flow control, not buffered whole by the client while it paused.
    expect(received, 'bytes received while paused').to.be.below(big.length)
    const rest = new Promise<void>((resolve) => { stalled.on('end', () => resolve()) })
    stalled.on('data', (chunk: Buffer) => { received += chunk.length })
    stalled.resume()
    await within(rest, 10_000, 'the rest of the large reply')
    expect(received).to.equal(big.length)
  })
})
