// HTTP/2 requests whose body the server gives up on: a 413 at the limit, bodyTimeout's 408 (read
// by the framework or left to a stream parser), a 415 to a body with no length. Over HTTP/1.1 the
// connection is closed after these answers; over HTTP/2 only the stream ends, reset with NO_ERROR
// once the answer is out (RFC 9113 §8.1). Node resets a stream by itself only when nothing read
// its body: after a body read in part, the stream stayed open for as long as the client kept
// sending, each one holding a slot of the session's 100 concurrent streams.
import { connect, type ClientHttp2Session, type ClientHttp2Stream, type ServerHttp2Stream } from 'node:http2'
import { expect } from 'chai'
import type { IncomingMessage } from 'node:http'
import type { Request, Scope } from '../../src/runtime'
import { server } from '../support/servers'
import { within } from '../support/raw-http'

type Done = (error: Error | null, value?: unknown) => void

interface Outcome { status: number; body: string; serverRstCode: number | undefined }

/**
 * Opens a POST, sends `first` without ending the body, and keeps sending a byte every 50 ms until
 * the server's side of the stream has closed; resolves once the answer has arrived whole too. The
 * server's side is what is watched: Node's client emits 'close' for a stream reset with NO_ERROR
 * only once its own body has ended, which this client, still sending, never does.
 */
async function abandonedPost(h2: H2App, path: string, type: string, first: string): Promise<Outcome> {
  const serverStream = new Promise<ServerHttp2Stream>((resolve) => h2.app.server.once('stream', (stream: ServerHttp2Stream) => resolve(stream)))
  const stream: ClientHttp2Stream = h2.session.request({ ':method': 'POST', ':path': path, 'content-type': type })
  stream.on('error', () => undefined)
  let status = 0
  let body = ''
  stream.on('response', (headers) => { status = Number(headers[':status']) })
  stream.setEncoding('utf8')
  stream.on('data', (chunk: string) => { body += chunk })
  const answered = new Promise<void>((resolve) => stream.once('end', () => resolve()))
  stream.write(first)
  const trickle = setInterval(() => { if (!stream.destroyed && stream.writable) stream.write('x') }, 50)
  try {
    const onServer = await within(serverStream, 5_000, `the server to get the stream of ${path}`)
    const serverClosed = onServer.closed ? Promise.resolve() : new Promise<void>((resolve) => onServer.once('close', () => resolve()))
    await within(Promise.all([answered, serverClosed]), 5_000, `the answer to ${path} and the server's side of its stream to be closed`)
    return { status, body, serverRstCode: onServer.rstCode }
  } finally {
    clearInterval(trickle)
    stream.destroy()
  }
}

/** Client sessions of the current test, destroyed after it (before its server is closed). */
const sessions: ClientHttp2Session[] = []

interface H2App { app: Scope; session: ClientHttp2Session }

async function h2App(declare: (app: Scope) => void): Promise<H2App> {
  const app = server({ http2: true, bodyTimeout: 300, bodyLimit: 100 })
  declare(app)
  app.get('/ok', async () => ({ ok: true }))
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  const session = connect(address)
  session.on('error', () => undefined)
  sessions.push(session)
  return { app, session }
}

async function getOk(session: ClientHttp2Session): Promise<number> {
  const stream = session.request({ ':path': '/ok' })
  stream.resume()
  return within(new Promise<number>((resolve, reject) => {
    stream.on('response', (headers) => resolve(Number(headers[':status'])))
    stream.on('error', reject)
  }), 5_000, 'GET /ok on the same session')
}

describe('hardening: HTTP/2 bodies the server gives up on end their stream (RST_STREAM NO_ERROR after the answer)', () => {
  afterEach(() => { while (sessions.length > 0) (sessions.pop() as ClientHttp2Session).destroy() })

  const cases: ReadonlyArray<readonly [string, string, string, string, number, string]> = [
    ['a body over bodyLimit, read up to the limit', '/json', 'application/json', 'x'.repeat(200), 413, 'ENC_ERR_CTP_BODY_TOO_LARGE'],
    ['a body slower than bodyTimeout, read in part', '/json', 'application/json', '"x', 408, 'ENC_ERR_CTP_BODY_TIMEOUT'],
    ['a body a stream parser reads, slower than bodyTimeout', '/csv', 'text/csv', 'a,b', 408, 'ENC_ERR_CTP_BODY_TIMEOUT'],
  ]
  for (const [label, path, type, first, status, code] of cases) {
    it(`${label}: ${status} ${code} arrives whole, then the stream is reset with NO_ERROR, and the session serves on`, async () => {
      const h2 = await h2App((app) => {
        app.post('/json', async (request) => ({ got: request.body }))
        app.addContentTypeParser('text/csv', (_request: Request, payload: IncomingMessage, done: Done) => {
          let text = ''
          payload.on('data', (chunk: Buffer) => { text += chunk.toString() })
          payload.on('end', () => done(null, text.split(',')))
        })
        app.post('/csv', async (request) => ({ got: request.body }))
      })
      const outcome = await abandonedPost(h2, path, type, first)
      expect(outcome.status).to.equal(status)
      expect(JSON.parse(outcome.body).code).to.equal(code)
      expect(outcome.serverRstCode).to.equal(0)
      expect(await getOk(h2.session)).to.equal(200)
    })
  }

  it('an error handler\'s large answer (3 MB) to such a request arrives whole before the reset', async () => {
    const big = 'z'.repeat(3 * 1024 * 1024)
    const h2 = await h2App((app) => {
      app.setErrorHandler((error: Error & { statusCode?: number }, _request, reply) => { reply.code(error.statusCode ?? 500).type('text/plain').send(big) })
      app.post('/json', async (request) => ({ got: request.body }))
    })
    const outcome = await abandonedPost(h2, '/json', 'application/json', 'x'.repeat(200))
    expect(outcome.status).to.equal(413)
    expect(outcome.body.length).to.equal(big.length)
    expect(outcome.serverRstCode).to.equal(0)
  })

  it('a handler that answers while still reading the body itself keeps its stream (its choice, as in Node): the rest of the body reaches it', async () => {
    let received = ''
    let readAll: () => void = () => undefined
    const bodyRead = new Promise<void>((resolve) => { readAll = resolve })
    const h2 = await h2App((app) => {
      app.addContentTypeParser('application/octet-stream', (_request: Request, _payload: IncomingMessage, done: Done) => done(null, undefined))
      app.post('/ack', async (request, reply) => {
        request.raw.setEncoding('utf8')
        request.raw.on('data', (chunk: string) => { received += chunk })
        request.raw.on('end', () => readAll())
        reply.code(202).send({ accepted: true })
      })
    })
    const serverStream = new Promise<ServerHttp2Stream>((resolve) => h2.app.server.once('stream', (stream: ServerHttp2Stream) => resolve(stream)))
    const stream = h2.session.request({ ':method': 'POST', ':path': '/ack', 'content-type': 'application/octet-stream' })
    stream.on('error', () => undefined)
    stream.resume()
    const response = new Promise<number>((resolve) => stream.once('response', (headers) => resolve(Number(headers[':status']))))
    stream.write('part one, ')
    expect(await within(response, 5_000, 'the 202')).to.equal(202)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect((await serverStream).closed, 'the server kept the stream open').to.equal(false)
    stream.end('part two')
    await within(bodyRead, 5_000, 'the handler to read the whole body')
    expect(received).to.equal('part one, part two')
  })
})
