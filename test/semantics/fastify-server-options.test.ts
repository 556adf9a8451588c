// Issue 12 §2: Fastify 3 server options a migrating user passes (caseSensitive,
// querystringParser, rewriteUrl, maxRequestsPerSocket, forceCloseConnections,
// return503OnClosing), with Fastify's
// meaning; a wrong type is refused at createServer() like every other option.
import { expect } from 'chai'
import type { IncomingMessage } from 'node:http'
import { createServer, type Request, type ServerOptions } from '../../src'
import { build, recordingLogger, thrown } from '../runtime/helpers'
import { listening, rawClient, sleep, within } from '../hardening/helpers'

describe('semantics: Fastify 3 server options (issue 12 §2)', () => {
  it('caseSensitive: false matches a path whatever its case; the default (true) does not', async () => {
    const declare = (root: Parameters<Parameters<typeof build>[0]>[0]): void => { root.get('/abc/:id', async (req: Request) => ({ params: req.params })) }
    const insensitive = await build(declare, { caseSensitive: false })
    const res = await insensitive.inject('/ABC/Xy')
    expect([res.statusCode, res.json()]).to.deep.equal([200, { params: { id: 'Xy' } }])
    const sensitive = await build(declare)
    expect((await sensitive.inject('/ABC/Xy')).statusCode).to.equal(404)
  })

  it('querystringParser replaces the built-in query parser', async () => {
    const app = await build((root) => { root.get('/q', async (req: Request) => ({ query: req.query })) },
      { querystringParser: (text) => ({ raw: text }) })
    expect((await app.inject('/q?a=1&b=2')).json()).to.deep.equal({ query: { raw: 'a=1&b=2' } })
  })

  it('querystringParser is called with an empty text for a URL without a query, in a not-found handler too (as Fastify 3 does)', async () => {
    const app = await build((root) => {
      root.get('/q', async (req: Request) => ({ query: req.query }))
      root.setNotFoundHandler(async (req: Request) => ({ nf: req.query }))
    }, { querystringParser: (text) => ({ raw: text }) })
    expect((await app.inject('/q')).json()).to.deep.equal({ query: { raw: '' } })
    expect((await app.inject('/nope')).json()).to.deep.equal({ nf: { raw: '' } })
    expect((await app.inject('/nope?a=1')).json()).to.deep.equal({ nf: { raw: 'a=1' } })
  })

  describe('rewriteUrl', () => {
    it('routes the url it returns, which is then request.url', async () => {
      const seen: string[] = []
      const app = await build((root) => { root.get('/new', async (req: Request) => ({ url: req.url })) },
        { rewriteUrl: (raw: IncomingMessage) => { seen.push(raw.url as string); return raw.url === '/old' ? '/new' : raw.url as string } })
      expect((await app.inject('/old')).json()).to.deep.equal({ url: '/new' })
      expect((await app.inject('/new')).statusCode).to.equal(200)
      expect(seen).to.deep.equal(['/old', '/new'])
    })

    it('a rewrite that returns something other than a string answers 500 and logs ENC_ERR_REWRITE_URL_INVALID', async () => {
      const logger = recordingLogger()
      const app = await build((root) => { root.get('/', async () => 'root') }, { logger, rewriteUrl: (() => undefined) as never })
      const res = await app.inject('/')
      expect([res.statusCode, res.json()]).to.deep.equal([500, { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' }])
      const logged = logger.entries.find((e) => e.level === 'error')
      expect((logged?.obj.err as { code?: string }).code).to.equal('ENC_ERR_REWRITE_URL_INVALID')
    })
  })

  it('maxRequestsPerSocket: the last request a connection may serve is answered with Connection: close, one more gets 503 (Node)', async () => {
    const { address } = await listening((root) => { root.get('/x', async () => 'x') }, { maxRequestsPerSocket: 2 })
    const client = await rawClient(address)
    client.write('GET /x HTTP/1.1\r\nHost: x\r\n\r\n')
    const first = await client.next()
    expect([first.headers.connection, first.headers['keep-alive']]).to.deep.equal(['keep-alive', 'timeout=5, max=2'])
    client.write('GET /x HTTP/1.1\r\nHost: x\r\n\r\n')
    const last = await client.next()
    expect([last.status, last.headers.connection]).to.deep.equal([200, 'close'])
    client.write('GET /x HTTP/1.1\r\nHost: x\r\n\r\n')
    expect((await client.next()).status).to.equal(503)
  })

  it('forceCloseConnections: true cuts a busy connection when close() starts instead of after closeTimeout', async () => {
    let started = false
    const { app, address } = await listening((root) => {
      root.get('/hang', () => { started = true; return new Promise(() => undefined) })
    }, { forceCloseConnections: true, handlerTimeout: 0 })
    const client = await rawClient(address)
    client.write('GET /hang HTTP/1.1\r\nHost: x\r\n\r\n')
    for (let i = 0; i < 500 && !started; i++) await sleep(5)
    // closeTimeout's default is 10 s: only the forced close lets close() settle within the guard.
    await within(app.close(), 5_000, 'close() with forceCloseConnections')
    await client.waitClosed()
  })

  it('return503OnClosing: true answers 503 ENC_ERR_SERVER_CLOSING to a request arriving once close() started; by default it is served', async () => {
    for (const return503OnClosing of [true, false]) {
      const app = await build((root) => { root.get('/x', async () => 'x') }, { return503OnClosing })
      const closing = app.close()
      const res = await app.inject('/x')
      await closing
      if (return503OnClosing) {
        expect([res.statusCode, res.json(), res.headers.connection]).to.deep.equal([503,
          { statusCode: 503, code: 'ENC_ERR_SERVER_CLOSING', error: 'Service Unavailable', message: 'The server is closing' }, 'close'])
      } else {
        expect([res.statusCode, res.body, res.headers.connection]).to.deep.equal([200, 'x', 'close'])
      }
    }
  })

  it('a wrong type, or forceCloseConnections with closeTimeout, is refused with ENC_ERR_SERVER_INVALID_OPTION', () => {
    const wrong: ServerOptions[] = [
      { caseSensitive: 'no' as never }, { querystringParser: 'qs' as never }, { rewriteUrl: {} as never },
      { forceCloseConnections: 1 as never }, { return503OnClosing: 'yes' as never }, { maxRequestsPerSocket: -1 }, { forceCloseConnections: true, closeTimeout: 100 },
    ]
    for (const options of wrong) expect(thrown(() => createServer(options)).code, JSON.stringify(options)).to.equal('ENC_ERR_SERVER_INVALID_OPTION')
  })
})
