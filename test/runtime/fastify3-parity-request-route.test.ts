// Request, route and inject behaviours where Enclave had drifted from Fastify 3.27.4. Each
// expectation is the answer Fastify 3.27.4 gave to the same app and request (side-by-side
// scenario runs, session 9; issue 12: where the spec is silent Enclave behaves as Fastify 3.27.4).
import { expect } from 'chai'
import type { Request, Scope } from '../../src/runtime'
import { build, recordingLogger } from './helpers'

type Seen = { path: unknown; method: unknown; config: unknown }

/** What Fastify 3 code reads about the route: request.routerPath, routerMethod and context.config. */
function seen(request: Request): Seen {
  const req = request as unknown as { routerPath: unknown; routerMethod: unknown; context: { config: unknown } }
  return { path: req.routerPath, method: req.routerMethod, config: req.context.config }
}

async function seenAt(app: Scope, method: string, url: string): Promise<Seen> {
  const res = await app.inject({ method: method as 'GET', url })
  return JSON.parse(res.headers['x-seen'] as string) as Seen
}

const recordSeen = async (request: Request, reply: { header(name: string, value: string): unknown }): Promise<string> => {
  reply.header('x-seen', JSON.stringify(seen(request)))
  return 'ok'
}

describe('Fastify 3.27.4 parity: request.routerMethod and the route config', () => {
  it('request.routerMethod is the method option as declared: a string, or the list of a method array', async () => {
    const app = await build((root) => {
      root.get('/one', recordSeen)
      root.route({ method: ['GET', 'POST'], url: '/two', handler: recordSeen })
    })
    expect(await seenAt(app, 'GET', '/one')).to.deep.equal({ path: '/one', method: 'GET', config: { url: '/one', method: 'GET' } })
    expect(await seenAt(app, 'POST', '/two')).to.deep.equal({ path: '/two', method: ['GET', 'POST'], config: { url: '/two', method: ['GET', 'POST'] } })
  })

  it("all() declares Fastify 3's methods in its order, which routerMethod and context.config.method show", async () => {
    const app = await build((root) => { root.all('/all', recordSeen) })
    const all = ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'OPTIONS']
    expect(await seenAt(app, 'PATCH', '/all')).to.deep.equal({ path: '/all', method: all, config: { url: '/all', method: all } })
  })

  it('in the not-found handler request.routerMethod and routerPath are undefined and the config is {}', async () => {
    const app = await build((root) => {
      root.setNotFoundHandler(async (request, reply) => { await recordSeen(request, reply); reply.code(404).send('nf') })
      root.get('/gone', (_request, reply) => { reply.callNotFound() })
    })
    expect(await seenAt(app, 'GET', '/nope')).to.deep.equal({ config: {} })
    expect(await seenAt(app, 'GET', '/gone')).to.deep.equal({ config: {} })
  })

  it('the HEAD route a GET route answers by itself is a route of its own: routerMethod and config.method are HEAD', async () => {
    const app = await build((root) => { root.get('/g', { config: { k: 1 } }, recordSeen) })
    expect(await seenAt(app, 'HEAD', '/g')).to.deep.equal({ path: '/g', method: 'HEAD', config: { k: 1, url: '/g', method: 'HEAD' } })
    expect(await seenAt(app, 'GET', '/g')).to.deep.equal({ path: '/g', method: 'GET', config: { k: 1, url: '/g', method: 'GET' } })
  })

  it("a prefixed route '/' with prefixTrailingSlash 'both' names /prefix/ as its routerPath and config.url when reached there", async () => {
    const app = await build((root) => {
      root.register(async (child) => { child.get('/', { config: { k: 1 } }, recordSeen) }, { prefix: '/p' })
    })
    expect(await seenAt(app, 'GET', '/p')).to.deep.equal({ path: '/p', method: 'GET', config: { k: 1, url: '/p', method: 'GET' } })
    expect(await seenAt(app, 'GET', '/p/')).to.deep.equal({ path: '/p/', method: 'GET', config: { k: 1, url: '/p/', method: 'GET' } })
    expect(await seenAt(app, 'HEAD', '/p/')).to.deep.equal({ path: '/p/', method: 'HEAD', config: { k: 1, url: '/p/', method: 'HEAD' } })
  })
})

describe('Fastify 3.27.4 parity: version constraints', () => {
  it("Accept-Version '1.2' is read as 1.2.x and a bare 'x' matches no version, as Fastify 3's router reads them", async () => {
    const app = await build((root) => {
      root.get('/v', { constraints: { version: '1.0.0' } }, async () => 'v100')
      root.get('/v', { constraints: { version: '1.2.3' } }, async () => 'v123')
    })
    const answer = async (version: string): Promise<string> => {
      const res = await app.inject({ url: '/v', headers: { 'accept-version': version } })
      return `${res.statusCode} ${res.statusCode === 200 ? res.body : ''}`.trim()
    }
    expect(await answer('1.0')).to.equal('200 v100')
    expect(await answer('1.2')).to.equal('200 v123')
    expect(await answer('1.x')).to.equal('200 v123')
    expect(await answer('1.0.0')).to.equal('200 v100')
    expect(await answer('*')).to.equal('200 v123')
    expect(await answer('x')).to.equal('404')
    expect(await answer('1.3')).to.equal('404')
  })

  it('a pre-release route version (1.3.0-rc.1) answers no range: 1.x, 1.3.x, * and 1.3.0 are 404 as in Fastify 3, or go to the release beside it', async () => {
    const app = await build((root) => {
      root.get('/rc', { constraints: { version: '1.3.0-rc.1' } }, async () => 'rc')
      root.get('/both', { constraints: { version: '1.2.0' } }, async () => 'v120')
      root.get('/both', { constraints: { version: '1.3.0-rc.1' } }, async () => 'rc')
    })
    const answer = async (url: string, version: string): Promise<string> => {
      const res = await app.inject({ url, headers: { 'accept-version': version } })
      return `${res.statusCode} ${res.statusCode === 200 ? res.body : ''}`.trim()
    }
    for (const range of ['1.x', '1.3.x', '*', '1.3.0', '1.3']) expect(await answer('/rc', range), range).to.equal('404')
    expect(await answer('/both', '1.x')).to.equal('200 v120')
    expect(await answer('/both', '*')).to.equal('200 v120')
    expect(await answer('/both', '1.3.x')).to.equal('404')
    // Named exactly, it is served (Fastify 3's router cannot reach a version with a dotted tag at all).
    expect(await answer('/rc', '1.3.0-rc.1')).to.equal('200 rc')
    expect(await answer('/rc', '1.3.0-rc.2')).to.equal('404')
  })
})

describe('Fastify 3.27.4 parity: request and inject', () => {
  it("request.connection is Fastify 3's deprecated name for request.socket", async () => {
    const app = await build((root) => {
      root.get('/', async (request) => {
        const req = request as unknown as { connection: unknown; socket: unknown }
        return { same: req.connection === req.socket && req.socket !== undefined }
      })
    })
    expect((await app.inject('/')).json()).to.deep.equal({ same: true })
  })

  it("inject's simulate: { error: true } answers 400 with the stream's message instead of leaving the request unanswered", async () => {
    const app = await build((root) => { root.post('/', async (request) => request.body) })
    const res = await app.inject({ method: 'POST', url: '/', payload: { a: 1 }, simulate: { error: true } } as never)
    expect(res.statusCode).to.equal(400)
    expect(res.json()).to.deep.equal({ statusCode: 400, error: 'Bad Request', message: 'Simulated' })
  })
})

describe('Fastify 3.27.4 difference: a payload JSON cannot write', () => {
  it('a returned function or Symbol answers the generic 500 and the log names the payload, not a serializer', async () => {
    const logger = recordingLogger()
    const app = await build((root) => {
      root.get('/f', async () => () => 1)
      root.get('/s', async () => Symbol('s'))
    }, { logger })
    for (const [url, kind] of [['/f', 'function'], ['/s', 'symbol']]) {
      const res = await app.inject(url)
      expect([res.statusCode, res.json()]).to.deep.equal([500, { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' }])
      const line = logger.entries.find((entry) => entry.level === 'error' && String(entry.msg).startsWith(`GET ${url}:`))
      expect(line?.msg).to.equal(`GET ${url}: the 200 payload is a ${kind}, which has no JSON form. Send (or return) a value JSON can write.`)
      expect((line?.obj.err as { code?: string }).code).to.equal('ENC_ERR_REPLY_INVALID_PAYLOAD_TYPE')
    }
  })
})

describe('Fastify 3.27.4 parity: send() after the handler answered on reply.raw', () => {
  it('is logged at warn as a second answer and ignored, over HTTP as under inject: the client gets what reply.raw wrote', async () => {
    const logger = recordingLogger()
    const app = await build((root) => { root.get('/', (_request, reply) => { reply.raw.end('raw'); reply.send('x') }) }, { logger })
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const overHttp = await fetch(`${address}/`)
    expect([overHttp.status, await overHttp.text()]).to.deep.equal([200, 'raw'])
    const injected = await app.inject('/')
    expect([injected.statusCode, injected.body]).to.deep.equal([200, 'raw'])
    const lines = logger.entries.filter((entry) => entry.level === 'warn' || entry.level === 'error')
    expect(lines.map((entry) => [entry.level, entry.obj.code])).to.deep.equal([['warn', 'ENC_ERR_REPLY_ALREADY_SENT'], ['warn', 'ENC_ERR_REPLY_ALREADY_SENT']])
  })
})
