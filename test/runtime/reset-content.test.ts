// RFC 9110 §15.3.6: a server MUST NOT generate content in a 205 (Reset Content) response. A
// payload sent with one is dropped and `Content-Length: 0` announced (README's differences, beside
// the 204/304 line): over HTTP/2 a 205 with a body made the client's nghttp2 reset the stream
// (PROTOCOL_ERROR: no answer at all), and over HTTP/1 a client that knows the rule reads the body
// as the next response.
import { expect } from 'chai'
import { connect as http2Connect } from 'node:http2'
import { Readable } from 'node:stream'
import { server } from '../support/servers'
import { within } from '../support/raw-http'

function declare(app: ReturnType<typeof server>): void {
  app.post('/text', (_request, reply) => { reply.code(205).send('form cleared') })
  app.post('/json', async (_request, reply) => { reply.code(205); return { cleared: true } })
  app.post('/stream', (_request, reply) => { reply.code(205).type('text/plain').send(Readable.from(['a', 'b'])) })
  app.post('/empty', (_request, reply) => { reply.code(205).send() })
}

describe('runtime: a 205 Reset Content goes out without content, announcing a zero length', () => {
  for (const path of ['/text', '/json', '/stream', '/empty']) {
    it(`${path} (inject): 205, content-length 0, no body`, async () => {
      const app = server()
      declare(app)
      const res = await app.inject({ method: 'POST', url: path })
      expect(res.statusCode).to.equal(205)
      expect(res.headers['content-length']).to.equal('0')
      expect(res.payload).to.equal('')
    })
  }

  it('over HTTP/2 the client gets the 205 (its nghttp2 reset the stream of a 205 with a body), and the session goes on', async () => {
    const app = server({ http2: true })
    declare(app)
    const session = http2Connect(await app.listen({ port: 0, host: '127.0.0.1' }))
    session.on('error', () => undefined)
    try {
      for (const path of ['/text', '/json', '/stream']) {
        const answer = await within(new Promise<{ status: number; length: unknown; body: string }>((resolve, reject) => {
          const stream = session.request({ ':method': 'POST', ':path': path })
          let status = 0
          let length: unknown
          let body = ''
          stream.on('response', (h) => { status = Number(h[':status']); length = h['content-length'] })
          stream.setEncoding('utf8')
          stream.on('data', (chunk: string) => { body += chunk })
          stream.on('end', () => resolve({ status, length, body }))
          stream.on('error', reject)
          stream.end()
        }), 5_000, `HTTP/2 ${path}`)
        expect(answer, path).to.deep.equal({ status: 205, length: '0', body: '' })
      }
    } finally {
      session.destroy()
    }
  })
})
