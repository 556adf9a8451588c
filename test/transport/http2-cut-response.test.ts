// A response that fails after its head went out cannot become an error reply: over HTTP/1 the
// connection is closed. Over HTTP/2 the stream must be reset with an error code: a reset with
// NO_ERROR (what a plain destroy() of node:http2's response sends) ends the client's stream as
// if the body were complete (a truncated body taken for the whole). SPEC: README's differences
// (a `send()` after a raw write closes the connection; a stream failing mid-body).
import { expect } from 'chai'
import { connect as http2Connect, constants, type ClientHttp2Session } from 'node:http2'
import { Readable } from 'node:stream'
import { server } from '../support/servers'
import { within } from '../support/raw-http'

interface Outcome { status: number; body: string; ended: boolean; rstCode: number }

/** One stream, observed to its close: did it end (a complete body) or was it reset, and with what code. */
function observe(session: ClientHttp2Session, path: string): Promise<Outcome> {
  return within(new Promise<Outcome>((resolve) => {
    const stream = session.request({ ':path': path })
    let status = 0
    let body = ''
    let ended = false
    stream.on('response', (h) => { status = Number(h[':status']) })
    stream.setEncoding('utf8')
    stream.on('data', (chunk: string) => { body += chunk })
    stream.on('end', () => { ended = true })
    stream.on('error', () => undefined)
    stream.on('close', () => resolve({ status, body, ended, rstCode: stream.rstCode ?? -1 }))
  }), 5_000, `HTTP/2 ${path}`)
}

const sessions: ClientHttp2Session[] = []
afterEach(() => { for (const session of sessions.splice(0)) session.destroy() })

async function served(declare: (app: ReturnType<typeof server>) => void): Promise<ClientHttp2Session> {
  const app = server({ http2: true })
  declare(app)
  app.get('/ok', async () => ({ ok: true }))
  const session = http2Connect(await app.listen({ port: 0, host: '127.0.0.1' }))
  session.on('error', () => undefined)
  sessions.push(session)
  return session
}

/** A readable that gives `first`, then fails. */
function failingAfter(first: string): Readable {
  let given = false
  return new Readable({
    read() {
      if (!given) { given = true; this.push(first); return }
      setTimeout(() => this.destroy(new Error('source failed mid-body')), 10)
    },
  })
}

describe('transport: an HTTP/2 response cut after its head is a stream reset with INTERNAL_ERROR, never a complete-looking end', () => {
  const cases: Array<[string, (app: ReturnType<typeof server>) => void, number, string]> = [
    ['send() after reply.raw.writeHead()', (app) => { app.get('/cut', (_request, reply) => { reply.raw.writeHead(207, { 'x-raw-head': '1' }); reply.send('after the raw head') }) }, 207, ''],
    ['send() after reply.raw.write()', (app) => { app.get('/cut', (_request, reply) => { reply.raw.write('pre-'); reply.send('post') }) }, 200, 'pre-'],
    ['a stream payload that fails after its first chunk', (app) => { app.get('/cut', (_request, reply) => { reply.type('text/plain').send(failingAfter('first')) }) }, 200, 'first'],
    ['a stream payload shorter than the Content-Length it declared', (app) => { app.get('/cut', (_request, reply) => { reply.type('text/plain').header('content-length', '50').send(Readable.from(['short'])) }) }, 200, ''],
  ]
  for (const [name, declare, status, body] of cases) {
    it(`${name}: the client sees its stream reset (INTERNAL_ERROR), and the session goes on serving`, async () => {
      const session = await served(declare)
      const cut = await observe(session, '/cut')
      expect(cut.status).to.equal(status)
      expect(cut.body.startsWith(body)).to.equal(true)
      expect(cut.ended, 'the stream ended as a complete response').to.equal(false)
      expect(cut.rstCode).to.equal(constants.NGHTTP2_INTERNAL_ERROR)
      const next = await observe(session, '/ok')
      expect(next).to.deep.include({ status: 200, body: '{"ok":true}', ended: true, rstCode: constants.NGHTTP2_NO_ERROR })
    })
  }
})
