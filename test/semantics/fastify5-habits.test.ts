// A Fastify 5 team's port onto createServer() (session 17, newcomer17b): the Fastify 4/5 spellings
// that have no Fastify 3 meaning to conflict with are taken as they are written, and the ones
// Enclave does not take say what to write instead (docs/fastify-compat.md, "Coming from Fastify 4 or 5").
import { expect } from 'chai'
import { Writable } from 'node:stream'
import pino from 'pino'
import { Type } from '@sinclair/typebox'
import { createServer, type AsyncPlugin, type ServerOptions } from '../../src'
import { build, deferred, recordingLogger, thrown } from '../support/servers'
import { rawClient, within } from '../support/raw-http'
import { listening } from '../hardening/helpers'

describe('semantics: Fastify 5 habits of a ported service', () => {
  it('withTypeProvider<Provider>() is the same scope: routes declared through it are the scope\'s, typed by their schemas', async () => {
    // Fastify 5: `const app = Fastify().withTypeProvider<TypeBoxTypeProvider>()`, and inside plugins.
    const users: AsyncPlugin = async (fastify) => {
      const typed = fastify.withTypeProvider<{ name: 'typebox' }>()
      expect(typed).to.equal(fastify)
      typed.get('/:id', { schema: { params: Type.Object({ id: Type.Integer() }) } }, async (request) => ({ id: request.params.id + 1 }))
    }
    const app = createServer()
    expect(app.withTypeProvider()).to.equal(app)
    app.withTypeProvider<{ name: 'typebox' }>().register(users, { prefix: '/users' })
    expect((await app.inject('/users/41')).json()).to.deep.equal({ id: 42 })
    expect((await app.inject('/users/x')).statusCode).to.equal(400)
    await app.close()
  })

  it('loggerInstance (Fastify 5\'s option for a pino you built) logs as logger: instance does, request ids and access lines included', async () => {
    const lines: Array<Record<string, unknown>> = []
    const stream = new Writable({ write(chunk: Buffer, _enc, done) { lines.push(JSON.parse(chunk.toString())); done() } })
    const app = await build((root) => { root.get('/x', async (request) => { request.log.info('in handler'); return 'x' }) },
      { loggerInstance: pino({ level: 'info' }, stream), genReqId: () => 'fixed-id' })
    expect(app.log.info).to.be.a('function')
    await app.inject('/x')
    await app.close()
    expect(lines.map((line) => [line.reqId, line.msg])).to.deep.include.members([['fixed-id', 'incoming request'], ['fixed-id', 'in handler'], ['fixed-id', 'request completed']])
  })

  it('loggerInstance with logger, or that is not a logger, is refused naming the fix', () => {
    const both = thrown(() => createServer({ logger: true, loggerInstance: recordingLogger() }))
    expect([both.code, both.message]).to.deep.equal(['ENC_ERR_SERVER_INVALID_OPTION',
      'createServer(): both logger and loggerInstance are given. loggerInstance is Fastify 5\'s name for a logger you built (logger: pinoInstance is Enclave\'s and Fastify 3\'s): keep one.'])
    const options = thrown(() => createServer({ loggerInstance: { level: 'info' } as never }))
    expect(options.code).to.equal('ENC_ERR_SERVER_INVALID_OPTION')
    expect(options.message).to.contain('createServer({ loggerInstance }): must be a logger you built').and.contain('pino options (level, redact, stream) go in logger')
  })

  it('forceCloseConnections: \'idle\' (Fastify 5\'s default) is taken: close() closes an idle keep-alive connection at once and lets a busy request finish', async () => {
    const held = deferred<string>()
    const entered = deferred()
    const { app, address } = await listening((root) => {
      root.get('/x', async () => 'x')
      root.get('/slow', async () => { entered.resolve(); return held.promise })
    }, { forceCloseConnections: 'idle' })
    const idle = await rawClient(address)
    idle.write('GET /x HTTP/1.1\r\nHost: x\r\n\r\n')
    expect((await idle.next()).status).to.equal(200)
    const busy = await rawClient(address)
    busy.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n')
    await within(entered.promise, 5_000, 'the slow handler to start')
    const closing = app.close()
    await idle.waitClosed()
    held.resolve('done')
    const answer = await busy.next()
    expect([answer.status, answer.body]).to.deep.equal([200, 'done'])
    await within(closing, 5_000, 'close()')
  })

  it('forceCloseConnections other than true, false or \'idle\' is still refused, the message listing \'idle\'', () => {
    const error = thrown(() => createServer({ forceCloseConnections: 'all' } as unknown as ServerOptions))
    expect([error.code, error.message]).to.deep.equal(['ENC_ERR_SERVER_INVALID_OPTION', 'createServer({ forceCloseConnections }): must be true, false or \'idle\', got string.'])
  })

  it('getDecorator() reads a declared decoration on the scope, the request and the reply (functions bound), setDecorator() writes a request one', async () => {
    const app = await build((root) => {
      root.decorate('greet', function (this: { prefix: string }) { return `hi from '${this.prefix}'` } as never)
      root.decorateRequest('user', null as never)
      root.decorateReply('tag' as never, function (this: { statusCode: number }) { return `status ${this.statusCode}` } as never)
      root.register(async (api) => {
        api.get('/me', async (request, reply) => {
          request.setDecorator('user', { id: 7 } as never)
          const greet = api.getDecorator<() => string>('greet')
          return { greet: greet(), user: request.getDecorator('user'), tag: reply.getDecorator<() => string>('tag')() }
        })
      }, { prefix: '/api' })
    })
    expect((await app.inject('/api/me')).json()).to.deep.equal({ greet: 'hi from \'/api\'', user: { id: 7 }, tag: 'status 200' })
    await app.close()
  })

  it('getDecorator()/setDecorator() of an undeclared name throw ENC_ERR_DEC_UNDECLARED naming the call, the scope and the fix (a 500 in a handler, not undefined)', async () => {
    const logger = recordingLogger()
    const app = await build((root) => {
      root.register(async function api(api) {
        api.get('/get', async (request) => request.getDecorator('user'))
        api.get('/set', async (request) => { request.setDecorator('usr', 1); return 'set' })
        api.get('/reply', async (_request, reply) => reply.getDecorator('tag'))
      }, { prefix: '/api' })
    }, { logger })
    const scopeError = thrown(() => app.getDecorator('db'))
    expect([scopeError.code, scopeError.message]).to.deep.equal(['ENC_ERR_DEC_UNDECLARED',
      "getDecorator('db') in root: no such decorator is declared here. Declare it with decorate in this scope or an ancestor, or check first with hasDecorator()."])
    for (const url of ['/api/get', '/api/set', '/api/reply']) expect((await app.inject(url)).statusCode, url).to.equal(500)
    const logged = logger.entries.filter((e) => e.level === 'error').map((e) => (e.obj.err as Error).message)
    expect(logged).to.deep.equal([
      "request.getDecorator('user') in root > api: no such decorator is declared here. Declare it with decorateRequest in this scope or an ancestor, or check first with hasRequestDecorator().",
      "request.setDecorator('usr') in root > api: no such decorator is declared here. Declare it with decorateRequest in this scope or an ancestor, or check first with hasRequestDecorator().",
      "reply.getDecorator('tag') in root > api: no such decorator is declared here. Declare it with decorateReply in this scope or an ancestor, or check first with hasReplyDecorator().",
    ])
    await app.close()
  })

  it('inject() answers carry light-my-request\'s cookies, statusMessage, trailers, raw and stream(), as Fastify 5 tests read them', async () => {
    const app = await build((root) => {
      root.get('/login', async (_request, reply) => {
        reply.header('set-cookie', ['session=s1; Path=/; HttpOnly; Max-Age=60', 'theme=dark'])
        return { ok: true }
      })
    })
    const res = await app.inject('/login')
    expect(res.cookies.map((c) => [c.name, c.value, c.path, c.httpOnly, c.maxAge])).to.deep.equal([['session', 's1', '/', true, 60], ['theme', 'dark', undefined, undefined, undefined]])
    expect([res.statusMessage, res.trailers, res.raw.req.url, res.raw.res.statusCode]).to.deep.equal(['OK', {}, '/login', 200])
    let streamed = ''
    for await (const chunk of res.stream()) streamed += String(chunk)
    expect(streamed).to.equal('{"ok":true}')
    await app.close()
  })
})
