// close() on an HTTP/2 server: open sessions get GOAWAY, an idle one (served, or connected and
// silent) closes at once, a stream in flight finishes, and a stream the server had not received
// when close() began is refused (REFUSED_STREAM: the client may retry it elsewhere), its handler
// not run. Bounded: closeTimeout is 60 s here, so a close() that waited for an idle client would
// fail the 2 s bound. README differences (close() sends GOAWAY; REFUSED_STREAM where Fastify 3
// answers; Fastify 3.27.4's close() waits for its idle sessions' http2SessionTimeout, 5 s).
import { expect } from 'chai'
import { Agent, get as httpsGet } from 'node:https'
import { constants, type ClientHttp2Session } from 'node:http2'
import { connectH2 as connect } from '../support/h2-client'
import { server } from '../support/servers'
import { within } from '../support/raw-http'
import { tlsCert, tlsKey } from '../support/tls'

interface Outcome { status: number; body: string; rstCode: number }

/** One GET, observed to its stream's close (an answer, or a reset and its code). */
function get(session: ClientHttp2Session, path: string): Promise<Outcome> {
  return within(new Promise<Outcome>((resolve) => {
    const stream = session.request({ ':path': path })
    let status = 0
    let body = ''
    stream.on('response', (h) => { status = Number(h[':status']) })
    stream.setEncoding('utf8')
    stream.on('data', (chunk: string) => { body += chunk })
    stream.on('error', () => undefined)
    stream.on('close', () => resolve({ status, body, rstCode: stream.rstCode ?? -1 }))
  }), 5_000, `HTTP/2 ${path}`)
}

const closedOrGone = (session: ClientHttp2Session): Promise<void> => new Promise((resolve) => {
  if (session.closed || session.destroyed) resolve()
  else session.once('close', () => resolve())
})

/** How long `app.close()` takes, failing past `bound` ms. */
async function timedClose(app: ReturnType<typeof server>, bound: number): Promise<number> {
  const started = Date.now()
  await within(app.close(), bound, `close() within ${bound} ms`)
  return Date.now() - started
}

describe('transport: close() on an HTTP/2 server (GOAWAY, idle sessions, refused new streams)', function () {
  this.timeout(45_000)

  for (const secure of [false, true]) {
    const transport = secure ? 'TLS' : 'h2c'
    it(`over ${transport}: idle sessions (one served, one connected that never sent a request) get GOAWAY and close() resolves at once, not at closeTimeout`, async () => {
      const app = server({ http2: true, https: secure ? { key: tlsKey, cert: tlsCert } : undefined, closeTimeout: 60_000 })
      app.get('/x', async () => ({ ok: true }))
      const url = await app.listen({ port: 0, host: '127.0.0.1' })
      const served = connect(url)
      const goaway = new Promise<number>((resolve) => served.once('goaway', (code: number) => resolve(code)))
      expect(await get(served, '/x')).to.include({ status: 200 })
      const silent = connect(url)
      await within(new Promise((resolve) => silent.once('connect', resolve)), 5_000, 'the silent session to connect')
      await timedClose(app, 20_000)   // a lingering session would hold it to closeTimeout (60 s); 20 s is loose for a loaded machine
      expect(await within(goaway, 2_000, 'GOAWAY to the served session')).to.equal(constants.NGHTTP2_NO_ERROR)
      await within(Promise.all([closedOrGone(served), closedOrGone(silent)]), 2_000, 'both client sessions closed')
    })
  }

  it('a stream opened after close() began is refused with REFUSED_STREAM and runs no handler; the stream in flight is answered, then close() resolves', async () => {
    let release: () => void = () => undefined
    const held = new Promise<void>((resolve) => { release = resolve })
    let arrived: () => void = () => undefined
    const inHandler = new Promise<void>((resolve) => { arrived = resolve })
    const app = server({ http2: true, closeTimeout: 60_000 })
    const handled: string[] = []
    app.get('/slow', async () => { handled.push('slow'); arrived(); await held; return 'done' })
    app.get('/late', async () => { handled.push('late'); return 'late' })
    const session = connect(await app.listen({ port: 0, host: '127.0.0.1' }))
    const inFlight = get(session, '/slow')
    await within(inHandler, 5_000, 'the stream to reach its handler')
    const closing = app.close()
    // Sent after close() began: the server's GOAWAY names the last stream it took, before this one.
    const late = await get(session, '/late')
    expect(late).to.include({ status: 0, rstCode: constants.NGHTTP2_REFUSED_STREAM })
    release()
    expect(await inFlight).to.include({ status: 200, body: 'done', rstCode: constants.NGHTTP2_NO_ERROR })
    await within(closing, 2_000, 'close() once the stream in flight ended')
    expect(handled).to.deep.equal(['slow'])
  })

  it('with allowHTTP1 over TLS: an idle HTTP/1.1 keep-alive connection and an idle HTTP/2 session on the same port do not hold close()', async () => {
    const app = server({ http2: true, https: { key: tlsKey, cert: tlsCert, allowHTTP1: true }, closeTimeout: 60_000 })
    app.get('/x', async () => ({ ok: true }))
    const url = await app.listen({ port: 0, host: '127.0.0.1' })
    const agent = new Agent({ keepAlive: true, ca: tlsCert })
    try {
      const status = await within(new Promise<number>((resolve, reject) => {
        httpsGet(`${url}/x`, { agent }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode ?? 0)) }).on('error', reject)
      }), 5_000, 'the HTTP/1.1 request')
      expect(status).to.equal(200)
      expect(await get(connect(url), '/x')).to.include({ status: 200 })
      await timedClose(app, 20_000)   // a lingering session would hold it to closeTimeout (60 s); 20 s is loose for a loaded machine
    } finally {
      agent.destroy()
    }
  })
})
