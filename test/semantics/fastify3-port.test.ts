// A Fastify 3 app ported as it is: the same application code (the patterns of Fastify 3.27.4's
// Reference pages Hooks, Reply, Request, Errors, Logging, Routes and the Plugins Guide) is run on
// Fastify 3 (the `fastify3` devDependency) and on createServer(), and what the client sees (status,
// headers, body) and what the code reads (hook order, request.* and reply.* values, `this`, log
// lines) must be the same. Issue 12: where the spec is silent Enclave behaves as Fastify 3.27.4.
// The requests here avoid what README lists as deliberate differences (5xx messages, validation
// messages, codes, 405, HEAD routes, hook order across plugins); those have their own tests.
import { Writable } from 'node:stream'
import { expect } from 'chai'
import pino from 'pino'
import { createServer } from '../../src'

type Any = any // eslint-disable-line @typescript-eslint/no-explicit-any
type Seen = Array<[string, unknown]>
type Make = (options: Record<string, unknown>) => Any
type Exchange = { request: string; status: number; headers: Record<string, unknown>; body: string; seen: unknown }

const fastify3: Make = (options) => require('fastify3')(options)
const enclave: Make = (options) => createServer({ exposeHeadRoutes: false, ...options } as never)

/** Each request through `inject()`, with what the app recorded while answering it. */
async function exchanges(make: Make, options: Record<string, unknown>, define: (app: Any, seen: Seen) => void, requests: Array<Record<string, unknown>>): Promise<Exchange[]> {
  const seen: Seen = []
  // A copy: Fastify 3 writes its defaults into the options object it is given (http2SessionTimeout).
  const app = make({ ...options })
  define(app, seen)
  await app.ready()
  const out: Exchange[] = []
  for (const request of requests) {
    seen.length = 0
    const res = await app.inject({ method: 'GET', ...request })
    // onResponse hooks and log lines may land after inject() resolves.
    await new Promise((resolve) => setTimeout(resolve, 10))
    const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...headers } = res.headers as Record<string, unknown>
    out.push({ request: `${String(request.method ?? 'GET')} ${String(request.url)}`, status: res.statusCode, headers, body: res.body, seen: JSON.parse(JSON.stringify(seen)) })
  }
  await app.close()
  return out
}

async function sameOnBoth(options: Record<string, unknown>, define: (app: Any, seen: Seen) => void, requests: Array<Record<string, unknown>>): Promise<void> {
  const theirs = await exchanges(fastify3, options, define, requests)
  const ours = await exchanges(enclave, options, define, requests)
  for (let i = 0; i < requests.length; i++) expect(ours[i], theirs[i].request).to.deep.equal(theirs[i])
}

describe('a Fastify 3 app ported as it is answers and reads as on Fastify 3.27.4 (issue 12)', function () {
  this.timeout(20_000)

  it('hooks of every stage, in order, with what each reads and changes; content-type parsers; payload kinds; reply methods', async () => {
    await sameOnBoth({}, (app, seen) => {
      const r = (k: string, v: unknown): void => { seen.push([k, v]) }
      app.addHook('onRequest', async (req: Any, reply: Any) => { r('onRequest', req.url); if (req.url === '/early') reply.code(403).send({ early: true }) })
      app.addHook('preParsing', async (_req: Any, _reply: Any, payload: Any) => { r('preParsing', typeof payload); return payload })
      app.addHook('preValidation', async (req: Any) => { r('preValidation', req.body) })
      app.addHook('preHandler', async () => { r('preHandler', 1) })
      app.addHook('preSerialization', async (_req: Any, _reply: Any, payload: Any) => { r('preSerialization', payload); return payload?.wrap ? { wrapped: payload } : payload })
      app.addHook('onSend', async (req: Any, reply: Any, payload: Any) => { r('onSend', [payload, reply.sent]); if (req.url === '/onsend') return 'replaced' })
      app.addHook('onResponse', async (_req: Any, reply: Any) => { r('onResponse', reply.statusCode) })
      app.addHook('onError', async (_req: Any, reply: Any, err: Any) => { r('onError', [err.message, reply.statusCode]) })
      app.setErrorHandler(function (this: Any, error: Any, _req: Any, reply: Any) { r('errorHandler', [error.message, error.statusCode, reply.statusCode, this === app]); reply.send(error) })
      app.addContentTypeParser('text/csv', { parseAs: 'string' }, (_req: Any, body: string, done: Any) => done(null, body.split(',')))
      app.addContentTypeParser('application/x-num', async (_req: Any, payload: Any) => { let text = ''; for await (const chunk of payload) text += chunk; return Number(text) })
      app.decorateReply('html', function (this: Any, markup: string) { return this.type('text/html').send(markup) })
      app.get('/obj', async () => ({ wrap: 1 }))
      app.get('/str', async () => 'str')
      app.get('/early', async () => 'never')
      app.get('/onsend', async () => ({ a: 1 }))
      app.post('/body', async (req: Any) => req.body)
      app.get('/route-hooks', { onRequest: async () => { r('route onRequest', 1) }, preHandler: [async () => { r('route preHandler 1', 1) }, (_req: Any, _reply: Any, done: Any) => { r('route preHandler 2', 1); done() }] }, async () => 'rh')
      app.get('/done-err', { preHandler: (_req: Any, _reply: Any, done: Any) => { done(Object.assign(new Error('done err'), { statusCode: 401 })) } }, async () => 'no')
      app.get('/err-headers', async () => { throw Object.assign(new Error('slow down'), { statusCode: 429, headers: { 'retry-after': '5' } }) })
      app.get('/chain', (_req: Any, reply: Any) => {
        r('code returns reply', reply.code(201) === reply)
        reply.header('X-A', 'a').headers({ 'x-b': 'b' })
        r('headers', [reply.getHeader('x-a'), reply.hasHeader('X-B'), reply.getHeaders()])
        reply.removeHeader('x-b')
        r('after remove', [reply.hasHeader('x-b'), reply.statusCode, reply.sent])
        reply.send('hi')
        r('sent after', reply.sent)
      })
      app.get('/null', (_req: Any, reply: Any) => reply.send(null))
      app.get('/undefined', (_req: Any, reply: Any) => reply.send())
      app.get('/buffer', (_req: Any, reply: Any) => reply.send(Buffer.from('bytes')))
      app.get('/html', (_req: Any, reply: Any) => reply.html('<b>x</b>'))
      app.get('/serializer', (_req: Any, reply: Any) => reply.serializer((p: unknown) => `S:${JSON.stringify(p)}`).send({ a: 1 }))
      app.get('/json-text', (_req: Any, reply: Any) => reply.header('content-type', 'application/json').send('{"raw":true}'))
      app.get('/problem', (_req: Any, reply: Any) => reply.code(400).type('application/problem+json').send({ title: 'x' }))
      app.get('/redirect', (_req: Any, reply: Any) => reply.redirect('/to'))
      app.get('/redirect-301', (_req: Any, reply: Any) => reply.redirect(301, '/to'))
      app.get('/redirect-303', (_req: Any, reply: Any) => reply.code(303).redirect('/to'))
      app.get('/sent-true', (_req: Any, reply: Any) => { reply.sent = true; reply.raw.end('manual') })
      app.get('/hijack', (_req: Any, reply: Any) => { reply.hijack(); reply.raw.writeHead(200, { 'content-type': 'text/plain' }); reply.raw.end('raw') })
      app.get('/reply-then', async (_req: Any, reply: Any) => { reply.code(202).send({ ok: 1 }); await reply; r('after await reply', reply.sent) })
      app.get('/date', async () => ({ d: new Date(0), n: 1e21, nan: NaN, toJSON: undefined }))
      app.get('/empty', (_req: Any, reply: Any) => reply.send(''))
      app.get('/vary', (_req: Any, reply: Any) => { reply.header('vary', 'a'); reply.header('vary', 'b'); reply.send('v') })
    }, [
      { url: '/obj' }, { url: '/str' }, { url: '/early' }, { url: '/onsend' },
      { method: 'POST', url: '/body', payload: 'a,b', headers: { 'content-type': 'text/csv' } },
      { method: 'POST', url: '/body', payload: '42', headers: { 'content-type': 'application/x-num' } },
      { method: 'POST', url: '/body', payload: '{"a":1}', headers: { 'content-type': 'application/json; charset=utf-8' } },
      { url: '/route-hooks' }, { url: '/done-err' }, { url: '/err-headers' }, { url: '/chain' }, { url: '/null' }, { url: '/undefined' },
      { url: '/buffer' }, { url: '/html' }, { url: '/serializer' }, { url: '/json-text' }, { url: '/problem' }, { url: '/redirect' },
      { url: '/redirect-301' }, { url: '/redirect-303' }, { url: '/sent-true' }, { url: '/hijack' }, { url: '/reply-then' }, { url: '/date' },
      { url: '/empty' }, { url: '/vary' },
    ])
  })

  it('encapsulation: decorators, plugin options, `this` in handlers, hooks and error handlers, route config, fastify-plugin', async () => {
    await sameOnBoth({}, (app, seen) => {
      const r = (k: string, v: unknown): void => { seen.push([k, v]) }
      app.decorate('util', function (this: Any) { return `util:${this === app}` })
      app.decorateRequest('user', null)
      app.decorateRequest('lazy', { getter(this: Any) { return `got:${this.url}` } })
      app.addHook('preHandler', async (req: Any) => { req.user = { name: 'ann' } })
      app.get('/req', function (this: Any, req: Any, reply: Any) {
        r('this', [this === app, this.util()])
        reply.send({ routerPath: req.routerPath, routerMethod: req.routerMethod, config: reply.context.config, query: req.query, user: req.user, lazy: req.lazy, params: req.params, body: req.body ?? 'none' })
      })
      app.register(async function child(c: Any, opts: unknown) {
        r('child opts', opts)
        c.decorateRequest('childThing', 'x')
        c.addHook('preHandler', function (this: Any, _req: Any, _reply: Any, done: Any) { r('hook this', [this === c, c.prefix]); done() })
        c.get('/', (req: Any, reply: Any) => reply.send({ childThing: req.childThing, prefix: c.prefix, routerPath: req.routerPath }))
        c.get('/p/:id', { config: { tag: 't' } }, (req: Any, reply: Any) => reply.send({ params: req.params, config: reply.context.config, routerPath: req.routerPath }))
        c.setErrorHandler(function (this: Any, error: Any, _req: Any, reply: Any) { r('error handler this', this === c); reply.code(error.statusCode ?? 500).send({ handled: error.message }) })
        c.get('/boom', async () => { throw new Error('child boom') })
      }, { prefix: '/c', opt: 1 })
      app.register(require('fastify-plugin')(async (inst: Any) => { inst.decorate('shared', 'yes') }))
      app.get('/shared', function (this: Any, req: Any, reply: Any) {
        reply.send({ shared: this.shared, has: this.hasDecorator('shared'), hasReq: this.hasRequestDecorator('user'), childThing: req.childThing ?? 'none' })
      })
    }, [{ url: '/req?a=1&a=2&b=' }, { url: '/c' }, { url: '/c/' }, { url: '/c/p/9' }, { url: '/c/boom' }, { url: '/shared' }])
  })

  // Forwarded entries are addresses here: a non-IP one is a README difference (test/semantics/forwarded-for-addresses.test.ts).
  it('request.hostname, ip, ips, protocol and redirects, with and without trustProxy', async () => {
    for (const trustProxy of [false, true]) {
      await sameOnBoth({ trustProxy }, (app) => {
        app.get('/r', (req: Any, reply: Any) => reply.send({ hostname: req.hostname, ip: req.ip, ips: req.ips ?? 'none', protocol: req.protocol, url: req.url }))
        app.get('/rd', (req: Any, reply: Any) => reply.redirect(req.query.to))
      }, [
        ...[{ host: '[::1]:8080' }, { host: 'EXAMPLE.com' }, { 'x-forwarded-host': 'fwd.example:9', host: 'h' }, { 'x-forwarded-for': '1.1.1.1, 2001:db8::2, 3.3.3.3', 'x-forwarded-proto': 'https' }, { 'x-forwarded-proto': 'HTTPS, http' }]
          .map((headers) => ({ url: '/r', headers })),
        ...['/x', 'http://e.example/a b', '//evil.example', '/über'].map((to) => ({ url: '/rd', query: { to } })),
      ])
    }
  })

  it('not-found handlers by prefix: params, routerPath, routerMethod and context.config in them and in the hooks before them', async () => {
    await sameOnBoth({}, (app, seen) => {
      const look = (where: string) => (req: Any, reply: Any): void => { seen.push([where, [req.params, req.routerPath ?? 'none', req.routerMethod ?? 'none', reply.context.config]]) }
      app.addHook('onRequest', async (req: Any, reply: Any) => look('onRequest')(req, reply))
      app.addHook('preHandler', async (req: Any, reply: Any) => look('preHandler')(req, reply))
      app.get('/known', async () => 'k')
      app.setNotFoundHandler((req: Any, reply: Any) => { look('root')(req, reply); reply.code(404).send({ root: req.params }) })
      app.register(async (api: Any) => {
        api.get('/x', async () => 'x')
        api.setNotFoundHandler({ preHandler: async (req: Any, reply: Any) => look('own preHandler')(req, reply) }, (req: Any, reply: Any) => { look('api')(req, reply); reply.code(404).send({ api: req.params }) })
      }, { prefix: '/api' })
      app.register(async (c: Any) => { c.get('/z/:id', (_req: Any, reply: Any) => reply.callNotFound()) }, { prefix: '/cnf' })
    }, ['/no/such?x=1', '/', '/a%20b', '/api/no/such', '/api', '/api/', '/apix', '/cnf/z/7'].map((url) => ({ url })))
  })

  it('log lines: access lines, route logLevel and logSerializers, child loggers, error lines, a plugin logLevel', async () => {
    const { lines, stream } = logLines()
    const define = (app: Any, seen: Seen): void => {
      lines.length = 0
      app.addHook('onResponse', async () => { seen.push(['lines', lines.splice(0)]) })
      app.get('/quiet', { logLevel: 'warn' }, (req: Any, reply: Any) => { req.log.info('info hidden'); req.log.warn('warn shown'); reply.send('q') })
      app.get('/serializers', { logSerializers: { user: (u: Any) => `U:${u.name}` } }, (req: Any, reply: Any) => { req.log.info({ user: { name: 'ann', pw: 'x' } }, 'with %s', 'user'); reply.send('s') })
      app.get('/child', (req: Any, reply: Any) => { req.log.child({ extra: 'b' }).info('from child'); reply.send('c') })
      app.get('/err', async () => { throw Object.assign(new Error('e4'), { statusCode: 404 }) })
      app.register(async (c: Any) => { c.get('/p', (req: Any, reply: Any) => { req.log.debug('dbg'); reply.send('p') }) }, { logLevel: 'debug', prefix: '/lv' })
    }
    const options = { logger: { level: 'info', stream, serializers: { req: (req: Any) => ({ m: req.method, u: req.url }), res: (res: Any) => ({ s: res.statusCode }) } }, requestIdLogLabel: 'rid' }
    await sameOnBoth(options, define, ['/quiet', '/serializers', '/child', '/err', '/lv/p'].map((url) => ({ url })))
  })

  it("a pino instance the user built: its own req and res serializers get the request and the reply (Fastify 3's child with the merged serializers)", async () => {
    const { lines, stream } = logLines()
    const instance = pino({
      base: { service: 'orders' },
      serializers: {
        req: (req: Any) => ({ method: req.method, url: req.url, ua: req.headers?.['user-agent'], host: req.hostname, hasLog: typeof req.log?.info }),
        res: (reply: Any) => ({ statusCode: reply.statusCode, type: typeof reply.getHeader === 'function' ? reply.getHeader('content-type') : 'no reply' }),
      },
    }, stream)
    const define = (app: Any, seen: Seen): void => {
      lines.length = 0
      app.addHook('onResponse', async () => { seen.push(['lines', lines.splice(0)]) })
      app.get('/ok', (req: Any, reply: Any) => { req.log.info({ req }, 'own line with req'); reply.send({ ok: true }) })
      app.get('/text', (_req: Any, reply: Any) => { reply.code(202).send('t') })
    }
    const requests = [{ url: '/ok', headers: { 'user-agent': 'probe/1' } }, { url: '/text?x=1', headers: { 'user-agent': 'probe/2', host: 'api.example' } }]
    await sameOnBoth({ logger: instance }, define, requests)
    // The lines are not empty on both: the instance's serializers ran on the request itself.
    const ours = await exchanges(enclave, { logger: instance }, define, requests.slice(0, 1))
    expect(JSON.stringify(ours[0].seen)).to.include('"ua":"probe/1"')
  })

  it("a logger of another make with child(): Fastify 3's child({}, { serializers }) logs the lines, a child that ignores its second argument too", async () => {
    const made = (tag: string, calls: unknown[]): Any => {
      const log: Any = { child: (bindings: unknown, options?: Any) => { calls.push([tag, bindings, Object.keys(options?.serializers ?? {}).sort()]); return made(`${tag}>child`, calls) } }
      for (const level of ['info', 'warn', 'error', 'debug', 'trace', 'fatal']) log[level] = (_obj: unknown, msg?: string) => { calls.push([tag, level, msg]) }
      return log
    }
    const calls: unknown[] = []
    const app = createServer({ logger: made('mine', calls) } as never)
    app.get('/', async () => ({}))
    await app.ready()
    expect(calls[0]).to.deep.equal(['mine', {}, ['err', 'req', 'res']])
    app.log.info({}, 'boot line')
    expect(calls.at(-1)).to.deep.equal(['mine>child', 'info', 'boot line'])
    await app.close()
    // A child() of one argument that gives back nothing: the logger is used as it is, no crash.
    const lines: unknown[] = []
    const bare = { info: (_o: unknown, msg?: string) => { lines.push(msg) }, warn: () => {}, error: () => {}, debug: () => {}, child: () => undefined }
    const app2 = createServer({ logger: bare, disableRequestLogging: false } as never)
    app2.get('/', async () => ({}))
    expect((await app2.inject('/')).statusCode).to.equal(200)
    expect(lines).to.deep.equal(['incoming request', 'request completed'])
    await app2.close()
  })
})

/**
 * A stream collecting the JSON log lines both frameworks write, without what differs run to run:
 * time, pid, hostname, the durations, and an error's stack (kept as its type).
 */
function logLines(): { lines: Array<Record<string, unknown>>; stream: Writable } {
  const lines: Array<Record<string, unknown>> = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) {
        if (line === '') continue
        const { time: _t, pid: _p, hostname: _h, responseTime: _r, ...entry } = JSON.parse(line) as Record<string, Any>
        if (entry.err?.stack !== undefined) entry.err = { ...entry.err, stack: typeof entry.err.stack }
        lines.push(entry)
      }
      done()
    },
  })
  return { lines, stream }
}
