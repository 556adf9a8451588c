// Logging with pino (docs/operations.md, "Logs"): request.log is a child bound to the request id; an access
// log of "incoming request" / "request completed" lines (at info, as in Fastify 3); a 5xx's error
// line at error with the stack, a 4xx's at info; authorization and cookie redacted; request id options.
import { expect } from 'chai'
import { Writable } from 'node:stream'
import pino from 'pino'
import { bearerAuth } from '../../src/plugins'
import { createServer, HttpError, type ServerOptions } from '../../src/runtime'
import { recordingLogger } from '../support/servers'
import { rawClient, within } from '../support/raw-http'

interface Line { level: number; msg: string; [key: string]: unknown }

/** A pino destination that keeps every line, parsed. */
function lines(): { stream: Writable; read: () => Line[]; raw: string[] } {
  const out: Line[] = []
  const raw: string[] = []
  let pending = ''
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      pending += chunk.toString()
      const parts = pending.split('\n')
      pending = parts.pop() as string
      for (const part of parts) if (part !== '') { raw.push(part); out.push(JSON.parse(part) as Line) }
      done()
    },
  })
  return { stream, read: () => out, raw }
}

async function app(options: ServerOptions, declare: (root: ReturnType<typeof createServer>) => void) {
  const root = createServer(options)
  declare(root)
  await root.ready()
  return root
}

describe('logs: pino, request ids and the access log', () => {
  it('follows one failing request end to end: every line JSON, one id through all of them, the 5xx error line at error with req, res and the stack, request completed at info (Fastify 3)', async () => {
    const sink = lines()
    const root = await app({ logger: { stream: sink.stream } }, (r) => {
      r.get('/boom', (request) => { request.log.info({ step: 'handler' }, 'about to fail'); throw new Error('database on fire') })
    })
    const res = await root.inject({ url: '/boom', headers: { host: 'api.test' } })
    expect(res.statusCode).to.equal(500)
    const log = sink.read()
    expect(log.map((l) => l.msg)).to.deep.equal(['incoming request', 'about to fail', 'database on fire', 'request completed'])
    const ids = new Set(log.map((l) => l.reqId))
    expect(ids.size).to.equal(1)
    expect([...ids][0]).to.match(/^req-/)
    const [incoming, handler, error, completed] = log
    expect(incoming).to.deep.include({ level: 30, req: { method: 'GET', url: '/boom', hostname: 'api.test', remoteAddress: '127.0.0.1' } })
    expect(handler).to.include({ level: 30, step: 'handler' })
    expect(error).to.deep.include({ level: 50, req: incoming.req, res: { statusCode: 500 } })
    expect((error.err as { stack: string }).stack).to.contain('database on fire').and.contain('access-log.test')
    expect(completed).to.deep.include({ level: 30, res: { statusCode: 500 } })
    expect(completed.responseTime).to.be.a('number').and.at.least(0)
    // One reqId key per line, not one from the child's bindings plus one from the fields.
    expect(sink.raw.map((line) => line.split('"reqId"').length - 1)).to.deep.equal([1, 1, 1, 1])
    await root.close()
  })

  it('logs answers that never pass the built-in error reply: a 401 from an auth hook and a 422 from a custom error handler, at info', async () => {
    const sink = lines()
    const root = await app({ logger: { stream: sink.stream } }, (r) => {
      r.register(async (s) => { s.register(bearerAuth({ keys: ['k'] })); s.get('/secret', () => ({ ok: true })) })
      r.register(async (s) => {
        s.setErrorHandler((_error, _request, reply) => { reply.code(422).send({ statusCode: 422, error: 'Unprocessable Entity', message: 'nope' }) })
        s.get('/strict', () => { throw new HttpError(400, 'bad') })
      })
    })
    await root.inject('/secret')
    await root.inject('/strict')
    const completed = sink.read().filter((l) => l.msg === 'request completed')
    expect(completed.map((l) => [l.level, (l.res as { statusCode: number }).statusCode])).to.deep.equal([[30, 401], [30, 422]])
    await root.close()
  })

  it('redacts the authorization and cookie headers by default, also merged with the user\'s own redact paths', async () => {
    const sink = lines()
    const root = await app({ logger: { stream: sink.stream, redact: ['headers["x-api-key"]'] } }, (r) => {
      r.get('/h', (request) => { request.log.info({ headers: request.headers }, 'headers'); return {} })
    })
    await root.inject({ url: '/h', headers: { authorization: 'Bearer s3cret', cookie: 'sid=abc', 'x-api-key': 'k1', accept: 'text/plain' } })
    const line = sink.read().find((l) => l.msg === 'headers') as Line
    expect(line.headers).to.deep.include({ authorization: '[Redacted]', cookie: '[Redacted]', 'x-api-key': '[Redacted]', accept: 'text/plain' })
    expect(JSON.stringify(sink.read())).to.not.contain('s3cret').and.not.contain('sid=abc')
    await root.close()
  })

  it("still redacts authorization and cookie when a user's serializers.req returns the request's own headers", async () => {
    const sink = lines()
    const root = await app({ logger: { stream: sink.stream, serializers: { req: (req: { headers: Record<string, string> }) => ({ headers: req.headers }) } } }, (r) => {
      r.get('/', () => ({}))
    })
    await root.inject({ url: '/', headers: { authorization: 'Bearer s3cret', cookie: 'sid=abc', accept: 'text/plain' } })
    const incoming = sink.read().find((l) => l.msg === 'incoming request') as Line
    expect((incoming.req as { headers: Record<string, string> }).headers).to.deep.include({ authorization: '[Redacted]', cookie: '[Redacted]', accept: 'text/plain' })
    expect(sink.raw.join('\n')).to.not.contain('s3cret').and.not.contain('sid=abc')
    await root.close()
  })

  it('requestIdHeader (validated) and requestIdLogLabel name the id in every line; genReqId makes it otherwise', async () => {
    const sink = lines()
    const root = await app({ logger: { stream: sink.stream }, requestIdHeader: 'x-request-id', requestIdLogLabel: 'traceId' }, (r) => {
      r.get('/', (request) => ({ id: request.id }))
    })
    await root.inject({ url: '/', headers: { 'x-request-id': 'trace-42' } })
    await root.inject({ url: '/', headers: { 'x-request-id': 'bad id\nwith newline' } })
    const log = sink.read()
    expect(log.map((l) => l.traceId)).to.deep.equal(['trace-42', 'trace-42', log[2].traceId, log[2].traceId])
    expect(log[2].traceId).to.match(/^req-/)
    expect(log.every((l) => !('reqId' in l))).to.equal(true)
    await root.close()

    const sink2 = lines()
    let n = 0
    const custom = await app({ logger: { stream: sink2.stream }, genReqId: () => `order-${++n}` }, (r) => { r.get('/', () => ({})) })
    await custom.inject('/')
    expect(sink2.read().map((l) => l.reqId)).to.deep.equal(['order-1', 'order-1'])
    await custom.close()
  })

  it('disableRequestLogging: no access lines, request.log still carries the id', async () => {
    const sink = lines()
    const root = await app({ logger: { stream: sink.stream }, disableRequestLogging: true }, (r) => {
      r.get('/', (request) => { request.log.info('handled'); return {} })
    })
    await root.inject('/')
    expect(sink.read().map((l) => [l.msg, typeof l.reqId])).to.deep.equal([['handled', 'string']])
    await root.close()
  })

  it("a user's logger.serializers.req and res get the request and reply themselves, as in Fastify 3 (req.headers, req.id, reply.statusCode)", async () => {
    const sink = lines()
    const root = await app({
      logger: {
        stream: sink.stream,
        serializers: {
          req: (req: { method: string; url: string; id: string; headers: Record<string, string> }) => ({ method: req.method, url: req.url, agent: req.headers['user-agent'], id: req.id }),
          res: (reply: { statusCode: number }) => ({ code: reply.statusCode }),
        },
      },
    }, (r) => { r.get('/x', async (_request, reply) => { reply.code(201); return {} }) })
    await root.inject({ url: '/x', headers: { 'user-agent': 'probe/1' } })
    const [incoming, completed] = sink.read()
    expect(incoming.req).to.deep.equal({ method: 'GET', url: '/x', agent: 'probe/1', id: incoming.reqId })
    expect(completed.res).to.deep.equal({ code: 201 })
    await root.close()
  })

  it("a user's serializers.req or res that throws costs the access line its field, not the request: the answer goes out, the line says why", async () => {
    for (const which of ['req', 'res'] as const) {
      const sink = lines()
      const root = await app({ logger: { stream: sink.stream, serializers: { [which]: () => { throw new Error(`${which} serializer broke`) } } } }, (r) => {
        r.get('/', () => ({ ok: true }))
      })
      const res = await root.inject('/')
      expect(res.statusCode, which).to.equal(200)
      expect(res.json()).to.deep.equal({ ok: true })
      const failed = sink.read().find((l) => l.msg === (which === 'req' ? 'incoming request' : 'request completed')) as Line
      expect(failed, which).to.deep.include({ logSerializerError: `${which} serializer broke` })
      expect(failed, which).to.not.have.property(which)
      expect(sink.read().map((l) => l.msg), which).to.deep.equal(['incoming request', 'request completed'])
      await root.close()
    }
  })

  it("a user's serializers.req or res that throws costs the error reply's line its field, not the request: the 500 and the 400 go out, the line says why", async () => {
    for (const which of ['req', 'res'] as const) {
      const sink = lines()
      const root = await app({ logger: { stream: sink.stream, serializers: { [which]: () => { throw new Error(`${which} serializer broke`) } } } }, (r) => {
        r.get('/500', async () => { throw new Error('handler broke') })
        r.get('/400', { schema: { querystring: { type: 'object', required: ['q'] } } }, async () => 'ok')
      })
      const five = await within(root.inject('/500'), 2_000, `GET /500 (${which})`)
      const four = await within(root.inject('/400'), 2_000, `GET /400 (${which})`)
      expect([five.statusCode, four.statusCode], which).to.deep.equal([500, 400])
      // A 4xx's line has no req (Fastify 3's fields): only res can fail there.
      for (const msg of which === 'req' ? ['handler broke'] : ['handler broke', "querystring should have required property 'q'"]) {
        const line = sink.read().find((l) => l.msg === msg) as Line
        expect(line, `${which}: ${msg}`).to.deep.include({ logSerializerError: `${which} serializer broke` })
        expect(line, `${which}: ${msg}`).to.not.have.property(which)
      }
      await root.close()
    }
  })

  it("a user's serializers.res gets on the error reply's line the reply itself at the status answered, as in Fastify 3 (reply.getHeader, reply.statusCode)", async () => {
    const sink = lines()
    const root = await app({
      logger: { stream: sink.stream, serializers: { res: (reply: { statusCode: number; getHeader(name: string): unknown }) => ({ code: reply.statusCode, trace: reply.getHeader('x-trace') }) } },
    }, (r) => {
      r.get('/500', async (_request, reply) => { reply.header('x-trace', 't1'); throw new Error('handler broke') })
    })
    const res = await within(root.inject('/500'), 2_000, 'GET /500')
    expect(res.statusCode).to.equal(500)
    expect(sink.read().find((l) => l.msg === 'handler broke')?.res).to.deep.equal({ code: 500, trace: 't1' })
    await root.close()
  })

  it("the error reply's line hands serializers.res the handler's own reply (not a stand-in) at the status answered, for a thrown 409 and a schema 400 alike", async () => {
    const sink = lines()
    const seen = new Set<unknown>()
    const root = await app({
      logger: { stream: sink.stream, serializers: { res: (reply: { statusCode: number; raw: { statusCode: number } }) => ({ code: reply.statusCode, raw: reply.raw.statusCode, same: seen.has(reply) }) } },
    }, (r) => {
      r.get('/taken', async (_request, reply) => { seen.add(reply); throw new HttpError(409, 'taken') })
      r.post('/items', { schema: { body: { type: 'object', required: ['name'] } }, preValidation: async (_request, reply) => { seen.add(reply) } }, async () => ({}))
    })
    expect((await root.inject('/taken')).statusCode).to.equal(409)
    expect((await root.inject({ method: 'POST', url: '/items', payload: {} })).statusCode).to.equal(400)
    const res = (msg: string | RegExp): unknown => sink.read().find((l) => typeof l.msg === 'string' && (typeof msg === 'string' ? l.msg === msg : msg.test(l.msg)))?.res
    expect(res('taken')).to.deep.equal({ code: 409, raw: 409, same: true })
    expect(res(/name/)).to.deep.equal({ code: 400, raw: 400, same: true })
    await root.close()
  })

  it("after reply.callNotFound() the access line's serializers.res gets the not-found reply that answered (its 404), as Fastify 3's one reply (differential logs 4:220)", async () => {
    const sink = lines()
    const root = await app({ logger: { stream: sink.stream, serializers: { res: (reply: { statusCode: number }) => ({ s: reply.statusCode }) } } }, (r) => {
      r.get('/gone', (_request, reply) => { reply.callNotFound() })
    })
    expect((await root.inject('/gone')).statusCode).to.equal(404)
    expect(sink.read().find((l) => l.msg === 'request completed')?.res).to.deep.equal({ s: 404 })
    await root.close()
  })

  it("a route's logSerializers req and res get the request and reply themselves also under a pino instance the user made, as in Fastify 3", async () => {
    const sink = lines()
    const root = await app({ logger: pino(sink.stream) as never }, (r) => {
      r.get('/x', {
        logSerializers: {
          req: (req: { headers?: Record<string, string> }) => ({ agent: req.headers?.['user-agent'] }),
          res: (reply: { statusCode: number; getHeader?: (name: string) => unknown }) => ({ code: reply.statusCode, type: reply.getHeader?.('content-type') }),
        },
      }, async () => { throw new HttpError(409, 'taken') })
    })
    await root.inject({ url: '/x', headers: { 'user-agent': 'probe/1' } })
    const byMsg = (msg: string): Line => sink.read().find((l) => l.msg === msg) as Line
    expect(byMsg('incoming request').req).to.deep.equal({ agent: 'probe/1' })
    expect(byMsg('taken').res).to.deep.include({ code: 409 })
    expect(byMsg('request completed').res).to.deep.equal({ code: 409, type: 'application/json; charset=utf-8' })
    await root.close()
  })

  it("the default req line is Fastify 3's: hostname and remoteAddress as the request sees them (trustProxy), accept-version as version", async () => {
    const sink = lines()
    const root = await app({ logger: { stream: sink.stream }, trustProxy: true }, (r) => { r.get('/x', async () => ({})) })
    await root.inject({ url: '/x', headers: { host: 'inner:3000', 'x-forwarded-host': 'api.example', 'x-forwarded-for': '203.0.113.7', 'accept-version': '2.x' } })
    expect(sink.read()[0].req).to.deep.include({ method: 'GET', url: '/x', version: '2.x', hostname: 'api.example', remoteAddress: '203.0.113.7' })
    await root.close()
  })

  it('takes a pino instance as it is: its own settings, a child per request', async () => {
    const sink = lines()
    const instance = pino({ level: 'warn', base: { service: 'orders' } }, sink.stream)
    const root = await app({ logger: instance as never }, (r) => {
      r.get('/', (request) => { request.log.info('not at warn'); request.log.warn('at warn'); return {} })
    })
    await root.inject('/')
    expect(sink.read().map((l) => [l.msg, l.service, typeof l.reqId])).to.deep.equal([['at warn', 'orders', 'string']])
    await root.close()
  })

  it('a hand-made Logger object keeps working: no access log unless asked, the id as a field', async () => {
    const logger = recordingLogger()
    const root = await app({ logger }, (r) => { r.get('/', () => { throw new Error('x') }) })
    await root.inject('/')
    expect(logger.entries.map((e) => e.msg)).to.deep.equal(['x'])
    expect(logger.entries[0].obj.reqId).to.match(/^req-/)
    await root.close()
    const asked = recordingLogger()
    const root2 = await app({ logger: asked, disableRequestLogging: false }, (r) => { r.get('/', () => ({})) })
    await root2.inject('/')
    expect(asked.entries.map((e) => [e.msg, typeof e.obj.reqId])).to.deep.equal([['incoming request', 'string'], ['request completed', 'string']])
    await root2.close()
  })

  it("with a hand-made Logger object, request.log is app.log: the user's object given trace, fatal and child, writing without the id", async () => {
    // Only the four methods a hand-made logger commonly has (recordingLogger() itself comes complete).
    const { trace: _trace, fatal: _fatal, child: _child, ...logger } = recordingLogger()
    let seen: unknown
    const root = await app({ logger }, (r) => { r.get('/', (request) => { seen = request.log; request.log.info('in handler'); request.log.fatal?.('fatal as error'); return {} }) })
    await root.inject('/')
    expect(seen).to.equal(root.log)
    expect(Object.getPrototypeOf(root.log)).to.equal(logger)
    expect(logger.entries.map((e) => [e.level, e.obj])).to.deep.equal([['info', 'in handler'], ['error', 'fatal as error']])
    await root.close()
  })

  it('over HTTP: a client that leaves before the answer gives "request aborted" with the same id', async () => {
    const sink = lines()
    let started!: () => void
    const handlerStarted = new Promise<void>((resolve) => { started = resolve })
    // The handler answers only once the test has seen the abort: a timed sleep could end first
    // under a stalled event loop, and the request would complete instead.
    let release!: () => void
    const gate = new Promise<void>((resolve) => { release = resolve })
    const root = await app({ logger: { stream: sink.stream }, handlerTimeout: 0 }, (r) => {
      r.get('/slow', async () => { started(); await gate; return {} })
    })
    try {
      const address = await root.listen({ port: 0, host: '127.0.0.1' })
      const client = await rawClient(address)
      client.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n')
      await within(handlerStarted, 5_000, 'the handler to start')
      client.destroy()
      for (let i = 0; i < 500 && !sink.read().some((l) => l.msg === 'request aborted'); i++) await new Promise((resolve) => setTimeout(resolve, 10))
      const log = sink.read().filter((l) => !l.msg.startsWith('Server listening at '))
      expect(log.map((l) => l.msg)).to.deep.equal(['incoming request', 'request aborted'])
      expect(log[0].reqId).to.equal(log[1].reqId)
    } finally {
      release()
      await root.close()
    }
  })

  it('a hook that puts a child in request.log (request.log = request.log.child({ tenant })) tags the later lines, the handler\'s and the access log\'s end, with the id kept', async () => {
    const sink = lines()
    const root = await app({ logger: { stream: sink.stream } }, (r) => {
      r.addHook('preHandler', async (request) => { request.log = request.log.child({ tenant: 'acme' }) })
      r.get('/invoices', (request) => { request.log.info('listing'); return [] })
    })
    expect((await root.inject({ url: '/invoices' })).statusCode).to.equal(200)
    const log = sink.read()
    expect(log.map((l) => [l.msg, l.tenant])).to.deep.equal([['incoming request', undefined], ['listing', 'acme'], ['request completed', 'acme']])
    expect(new Set(log.map((l) => l.reqId)).size).to.equal(1)
    expect(sink.raw.map((line) => line.split('"reqId"').length - 1)).to.deep.equal([1, 1, 1])
    await root.close()
  })

  it('logs nothing and builds no child logger when no logger is given', async () => {
    const root = await app({}, (r) => { r.get('/', (request) => ({ same: request.log === root.log })) })
    expect((await root.inject('/')).json()).to.deep.equal({ same: true })
    await root.close()
  })
})
