// Issue 12 §2-3: not-found handling (Fastify 3's 404s.test.js), the frameworkErrors and
// clientErrorHandler server options, the logLevel route option.
import { Writable } from 'node:stream'
import { expect } from 'chai'
import { createServer, type Reply, type Request, type Scope } from '../../src'
import { build, recordingLogger, server, thrown } from '../runtime/helpers'
import { rawRequest } from '../support/raw-http'

/** A pino destination that keeps each JSON line. */
function lines(): Writable & { records: Array<Record<string, unknown>> } {
  const records: Array<Record<string, unknown>> = []
  const stream = new Writable({ write(chunk: Buffer, _encoding, callback) { records.push(JSON.parse(chunk.toString()) as Record<string, unknown>); callback() } })
  return Object.assign(stream, { records })
}

describe('semantics: not-found handling and framework errors (issue 12 §2-3)', () => {
  it('the built-in 404 logs the unmatched route at info level, as Fastify 3 does', async () => {
    const stream = lines()
    const app = await build((root) => { root.get('/', async () => 'ok') }, { logger: { level: 'trace', stream } })
    expect((await app.inject('/not-found')).statusCode).to.equal(404)
    expect(stream.records.map((r) => r.msg)).to.deep.equal(['incoming request', 'Route GET:/not-found not found', 'request completed'])
    expect(stream.records[1].level).to.equal(30)
  })

  it("the built-in 404's info line is Fastify 3's: the same fields, and a pino logMethod hook sees the message alone, as Fastify 3 calls it", async () => {
    // Fastify 3's basic404 calls request.log.info(message): no fields object for pino to merge.
    const lineOf = async (make: (stream: Writable, logMethod: (this: unknown, args: unknown[], method: Function) => void) => Promise<{ inject(url: string): Promise<{ statusCode: number }>; close(): Promise<unknown> }>) => {
      const stream = lines()
      const calls: unknown[][] = []
      const app = await make(stream, function (this: unknown, args: unknown[], method: Function) { calls.push(args); method.apply(this, args) })
      expect((await app.inject('/missing')).statusCode).to.equal(404)
      await app.close()
      const at = stream.records.findIndex((r) => r.msg === 'Route GET:/missing not found')
      const { time: _time, pid: _pid, hostname: _hostname, ...fields } = stream.records[at]
      return { fields, args: calls.find((args) => args.includes('Route GET:/missing not found')) }
    }
    const enclave = await lineOf(async (stream, logMethod) => {
      const app = createServer({ logger: { level: 'info', stream, hooks: { logMethod } } as never })
      app.get('/', async () => 'ok')
      await app.ready()
      return app
    })
    const fastify3 = await lineOf(async (stream, logMethod) => {
      const app = require('fastify3')({ logger: { level: 'info', stream, hooks: { logMethod } } })
      app.get('/', async () => 'ok')
      await app.ready()
      return app
    })
    expect(enclave.args).to.deep.equal(['Route GET:/missing not found'])
    expect(enclave.args).to.deep.equal(fastify3.args)
    expect(Object.keys(enclave.fields).sort()).to.deep.equal(Object.keys(fastify3.fields).sort())
    expect({ ...enclave.fields, reqId: 'id' }).to.deep.equal({ ...fastify3.fields, reqId: 'id' })
  })

  it("reply.callNotFound() runs the not-found route's onResponse hooks once, not the calling route's too (Fastify 3 swaps the context), then 'request completed'", async () => {
    const out = lines()
    const app = createServer({ logger: { level: 'info', stream: out } })
    app.addHook('onResponse', async (request) => { request.log.info('global onResponse') })
    app.get('/x', { onResponse: async (request: Request) => { request.log.info('route onResponse') } }, async (_request: Request, reply: Reply) => reply.callNotFound())
    app.setNotFoundHandler(async (_request: Request, reply: Reply) => reply.code(404).send({ nf: true }))
    const res = await app.inject('/x')
    await new Promise((resolve) => setImmediate(resolve))
    expect(res.statusCode).to.equal(404)
    expect(out.records.map((r) => r.msg)).to.deep.equal(['incoming request', 'global onResponse', 'request completed'])
    await app.close()
  })

  it('reply.callNotFound() from a route with onResponse hooks to a not-found route without any still writes request completed, once', async () => {
    const out = lines()
    const app = createServer({ logger: { level: 'info', stream: out } })
    app.register(async (child: Scope) => {
      child.addHook('onResponse', async (request) => { request.log.info('child onResponse') })
      child.get('/x', async (_request: Request, reply: Reply) => reply.callNotFound())
    })
    const res = await app.inject('/x')
    await new Promise((resolve) => setImmediate(resolve))
    expect(res.statusCode).to.equal(404)
    expect(out.records.map((r) => r.msg)).to.deep.equal(['incoming request', 'Route GET:/x not found', 'request completed'])
    await app.close()
  })

  it('reply.callNotFound() inside a not-found handler answers a plain 404 and logs a warning', async () => {
    const logger = recordingLogger()
    const app = await build((root) => {
      root.setNotFoundHandler((_request: Request, reply: Reply) => { reply.callNotFound() })
      root.get('/', (_request: Request, reply: Reply) => { reply.callNotFound() })
    }, { logger })
    const res = await app.inject('/')
    expect(res.statusCode).to.equal(404)
    expect(res.body).to.equal('404 Not Found')
    expect(logger.entries.filter((e) => e.level === 'warn').map((e) => e.msg)).to.deep.equal(['Trying to send a NotFound error inside a 404 handler. Sending basic 404 response.'])
  })

  it("a plugin registered with the prefix '/v1/' has not-found handling for /v1/ and /v1/..., not for /v1 (the parent's), as in Fastify 3", async () => {
    for (const ignoreTrailingSlash of [false, true]) {
      const app = createServer({ ignoreTrailingSlash })
      app.register(async (child: Scope) => {
        child.setNotFoundHandler(async (request: Request) => ({ nf: 'child', url: request.url }))
        child.get('/x', async () => 'x')
        child.get('/nf', (_request: Request, reply: Reply) => { reply.callNotFound() })
      }, { prefix: '/v1/' })
      app.setNotFoundHandler(async (request: Request) => ({ nf: 'root', url: request.url }))
      const nf = async (url: string): Promise<unknown> => (await app.inject(url)).json<{ nf: string }>().nf
      expect([await nf('/v1'), await nf('/v1?q=1'), await nf('/v1/'), await nf('/v1/y'), await nf('/v1x'), await nf('/v1/nf')]).to.deep.equal(['root', 'root', 'child', 'child', 'root', 'child'])
      await app.close()
    }
    // Without the trailing slash the prefix itself is the plugin's too.
    const bare = createServer()
    bare.register(async (child: Scope) => { child.setNotFoundHandler(async () => ({ nf: 'child' })); child.get('/x', async () => 'x') }, { prefix: '/v1' })
    expect((await bare.inject('/v1')).json()).to.deep.equal({ nf: 'child' })
    await bare.close()
  })

  it('setNotFoundHandler() after listen() throws ENC_ERR_SCOPE_BOOTED synchronously', async () => {
    const app = server()
    await app.listen({ port: 0, host: '127.0.0.1' })
    expect(thrown(() => app.setNotFoundHandler(() => undefined)).code).to.equal('ENC_ERR_SCOPE_BOOTED')
  })

  it('frameworkErrors answers an undecodable URL, with the coded error; reply.callNotFound() there is a plain 404', async () => {
    const seen: Array<{ code?: string; self: unknown }> = []
    let root: Scope | null = null
    const app = await build((scope) => {
      root = scope
      scope.get('/hello/:id', async () => 'not reached')
      scope.get('/custom/:id', async () => 'not reached')
    }, {
      frameworkErrors(this: Scope, error, request, reply) {
        seen.push({ code: error.code, self: this })
        if (request.url.startsWith('/custom')) return reply.code(400).send({ custom: error.code })
        return reply.callNotFound()
      },
    })
    const notFound = await app.inject('/hello/%world')
    expect(notFound.statusCode).to.equal(404)
    expect(notFound.body).to.equal('404 Not Found')
    const custom = await app.inject('/custom/%world')
    expect(custom.statusCode).to.equal(400)
    expect(custom.json()).to.deep.equal({ custom: 'ENC_ERR_BAD_URL' })
    expect(seen.map((s) => s.code)).to.deep.equal(['ENC_ERR_BAD_URL', 'ENC_ERR_BAD_URL'])
    expect(seen[0].self).to.equal(root)
  })

  it('without frameworkErrors an undecodable URL is the coded 400', async () => {
    const app = await build((root) => { root.get('/hello/:id', async () => 'not reached') })
    const res = await app.inject('/hello/%world')
    expect(res.statusCode).to.equal(400)
    expect(res.json()).to.include({ code: 'ENC_ERR_BAD_URL' })
  })

  it('clientErrorHandler answers what Node could not parse, with the root scope as this', async () => {
    const seen: unknown[] = []
    const app = server({
      clientErrorHandler(this: Scope, error, socket) {
        seen.push(this, error.code)
        socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 6\r\nConnection: close\r\n\r\ncustom')
      },
    })
    app.get('/', async () => 'ok')
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const res = await rawRequest(address, 'NOT A REQUEST\r\n\r\n')
    expect(res.status).to.equal(400)
    expect(res.body).to.equal('custom')
    expect(seen[0]).to.equal(app)
    expect(seen[1]).to.be.a('string')
  })

  it('frameworkErrors and clientErrorHandler must be functions (ENC_ERR_SERVER_INVALID_OPTION)', () => {
    for (const name of ['frameworkErrors', 'clientErrorHandler']) {
      const error = thrown(() => createServer({ [name]: 'yes' } as never))
      expect(error.code, name).to.equal('ENC_ERR_SERVER_INVALID_OPTION')
      expect(error.message).to.contain(name)
    }
  })

  it("a route's logLevel sets the level its requests log at (pino)", async () => {
    const stream = lines()
    const app = await build((root) => {
      root.get('/quiet', { logLevel: 'error' }, async (request: Request) => { request.log.info('from quiet'); return 'ok' })
      root.get('/loud', { logLevel: 'debug' }, async (request: Request) => { request.log.debug('from loud'); return 'ok' })
    }, { logger: { level: 'info', stream } })
    await app.inject('/quiet')
    expect(stream.records).to.deep.equal([])
    await app.inject('/loud')
    expect(stream.records.map((r) => r.msg)).to.deep.equal(['incoming request', 'from loud', 'request completed'])
  })

  it('an unknown logLevel is refused at declaration (ENC_ERR_ROUTE_INVALID)', () => {
    const app = server()
    const error = thrown(() => app.get('/', { logLevel: 'loud' as never }, async () => 'ok'))
    expect(error.code).to.equal('ENC_ERR_ROUTE_INVALID')
    expect(error.message).to.contain('logLevel')
  })
})
