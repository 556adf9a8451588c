// The objects a handler, a hook or an error handler reads have Fastify 3.27.4's shapes: the same
// routes are declared on Fastify 3 (the `fastify3` devDependency) and on createServer(), and each
// reports, from inside, the prototype kind, own enumerable keys in order, whether hasOwnProperty
// and toString can be called, and JSON.stringify of request.params, request.query, request.body,
// request.headers, the route's context.config and the errors error handlers get. A ported app
// calling `request.params.hasOwnProperty('id')` answered 500 here (hostile15). The differences
// kept on purpose (README "Where Enclave deliberately differs from Fastify 3.27.4") are checked as such at the end.
import { expect } from 'chai'
import { createServer } from '../../src'

type Any = any // eslint-disable-line @typescript-eslint/no-explicit-any
type Shape = { kind: string; keys: string[]; hasOwnProperty: boolean; toString: boolean; json: string | undefined } | { value: unknown }
type Report = Record<string, unknown>

/** 'plain', 'null' (no prototype), 'null-chain' (a prototype that itself has none), 'array' or 'class:<name>'. */
function kindOf(value: object): string {
  const proto = Object.getPrototypeOf(value) as object | null
  if (proto === null) return 'null'
  if (proto === Object.prototype) return 'plain'
  if (proto === Array.prototype) return 'array'
  if (Object.getPrototypeOf(proto) === null) return 'null-chain'
  return `class:${(proto as { constructor?: { name?: string } }).constructor?.name ?? '?'}`
}

function shapeOf(value: unknown): Shape {
  if (value === null || typeof value !== 'object') return { value: value === undefined ? 'undefined' : value }
  let json: string | undefined
  try { json = JSON.stringify(value) } catch (error) { json = `throws ${(error as Error).name}` }
  const probe = value as { hasOwnProperty?: unknown; toString?: unknown }
  return { kind: kindOf(value), keys: Object.keys(value), hasOwnProperty: typeof probe.hasOwnProperty === 'function', toString: typeof probe.toString === 'function', json }
}

const bodySchema = {
  type: 'object',
  additionalProperties: false,
  properties: { n: { type: 'integer' }, d: { type: 'string', default: 'x' }, o: { type: 'object', properties: { k: { type: 'integer' } } } },
}

/** The same routes and hooks on either framework; every handler writes what it saw into `report`. */
function declare(app: Any, report: Report): void {
  const seen = (name: string) => async (request: Any) => {
    report[name] = { params: shapeOf(request.params), query: shapeOf(request.query), body: shapeOf(request.body) }
    if (name === 'static') {
      report.headers = shapeOf(request.headers)
      report.raw = kindOf(request.raw)
      report.routerPath = request.routerPath
      report.contextConfig = shapeOf(request.context.config)
    }
    return { ok: true }
  }
  app.addHook('preHandler', async (request: Any) => {
    report[`preHandler ${request.url}`] = { params: shapeOf(request.params), query: shapeOf(request.query), body: shapeOf(request.body) }
  })
  app.addHook('onRequest', async (request: Any) => {
    report[`onRequest ${request.url}`] = { params: shapeOf(request.params), query: shapeOf(request.query) }
  })
  app.get('/static', { config: { flag: 1 } }, seen('static'))
  app.get('/one/:id', seen('parametric'))
  app.get('/files/*', seen('wildcard'))
  app.get('/num/:n(^\\d+)', seen('regexp'))
  app.get('/multi/:a-:b/:c', seen('multi'))
  app.get('/typed/:id', { schema: { params: { type: 'object', properties: { id: { type: 'integer' } } }, querystring: { type: 'object', properties: { q: { type: 'integer' } } } } }, seen('coerced'))
  app.post('/body', seen('body'))
  app.post('/schema', { schema: { body: bodySchema } }, seen('schema'))
  app.post('/required', { schema: { body: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } } } }, seen('required'))
  app.setErrorHandler((error: Any, request: Any, reply: Any) => {
    report[`error ${request.url}`] = { error: shapeOf(error), validation: Array.isArray(error.validation) ? error.validation.map(shapeOf) : shapeOf(error.validation) }
    reply.code(400).send({ handled: true })
  })
}

const json = { 'content-type': 'application/json' }

/** Declares the routes on `app`, sends every request, closes it and returns what was seen. */
async function observe(app: Any): Promise<Report> {
  const report: Report = {}
  declare(app, report)
  const requests: object[] = [
    { url: '/static' }, { url: '/one/1?x=1&x=2&y=3' }, { url: '/files/a/b' }, { url: '/num/12' }, { url: '/multi/1-2/3?z=1' },
    { url: '/typed/7?q=3' },
    { method: 'POST', url: '/body', headers: json, payload: '{"a":{"b":[1,{"c":null}]}}' },
    { method: 'POST', url: '/body?array', headers: json, payload: '[1,{"a":1}]' },
    { method: 'POST', url: '/body?text', headers: { 'content-type': 'text/plain' }, payload: 'hello' },
    { method: 'POST', url: '/schema', headers: json, payload: '{"n":"5","extra":1,"o":{"k":"2"}}' },
    { method: 'POST', url: '/required', headers: json, payload: '{}' },
    { method: 'POST', url: '/body?bad', headers: json, payload: '{bad' },
    { method: 'POST', url: '/body?type', headers: { 'content-type': 'application/x-unknown' }, payload: 'x' },
  ]
  for (const options of requests) {
    const res = await app.inject(options)
    report[`status ${(options as { url: string }).url}`] = res.statusCode
  }
  await app.close()
  return report
}

describe('semantics: the objects a handler reads have Fastify 3 shapes', function () {
  let fastify3: Report
  let enclave: Report

  before(async () => {
    fastify3 = await observe(require('fastify3')({ logger: false }))
    enclave = await observe(createServer())
  })

  const same = (key: string, pick: (entry: Any) => unknown = (entry) => entry): void => {
    expect(fastify3[key], `Fastify 3 saw ${key}`).to.not.equal(undefined)
    expect(pick(enclave[key]), key).to.deep.equal(pick(fastify3[key]))
  }

  it('request.params is a plain object with the declared keys (static, parametric, wildcard, regexp, multi-param), in handlers and hooks', () => {
    for (const name of ['static', 'parametric', 'wildcard', 'regexp', 'multi', 'coerced']) same(name, (entry) => entry.params)
    for (const url of ['/static', '/one/1?x=1&x=2&y=3', '/files/a/b', '/num/12', '/multi/1-2/3?z=1']) {
      same(`preHandler ${url}`, (entry) => entry.params)
      same(`onRequest ${url}`, (entry) => entry.params)
    }
    expect((enclave.parametric as Any).params).to.deep.include({ kind: 'plain', hasOwnProperty: true, toString: true })
  })

  it("a parameter declared ':__proto__' is an own key of the plain params object and never its prototype", async () => {
    const app = createServer()
    app.get('/p/:__proto__', async (request: Any) => ({
      plain: Object.getPrototypeOf(request.params) === Object.prototype,
      own: Object.getOwnPropertyDescriptor(request.params, '__proto__')?.value,
      keys: Object.keys(request.params),
    }))
    const res = await app.inject({ url: '/p/x' })
    expect(JSON.parse(res.body)).to.deep.equal({ plain: true, own: 'x', keys: ['__proto__'] })
    await app.close()
  })

  it('request.query has no prototype, with or without a query string (Node querystring.parse), repeated keys as arrays', () => {
    for (const name of ['static', 'parametric', 'wildcard', 'multi', 'coerced', 'body']) same(name, (entry) => entry.query)
    for (const url of ['/static', '/one/1?x=1&x=2&y=3']) same(`onRequest ${url}`, (entry) => entry.query)
    expect((enclave.static as Any).query).to.deep.include({ kind: 'null', hasOwnProperty: false })
  })

  it('a custom querystringParser\'s object is request.query as returned, and it is called with \'\' when the URL has no query', async () => {
    const seen = async (app: Any): Promise<unknown[]> => {
      const queries: unknown[] = []
      app.get('/q', async (request: Any) => { queries.push(shapeOf(request.query)); return 1 })
      await app.inject({ url: '/q' })
      await app.inject({ url: '/q?a=1&a=2' })
      await app.close()
      return queries
    }
    const parser = (text: string) => ({ text })
    expect(await seen(createServer({ querystringParser: parser }))).to.deep.equal(await seen(require('fastify3')({ querystringParser: parser })))
  })

  it('request.body: JSON object, array, nested, text, and after coercion, defaults and removeAdditional, has the same shape', () => {
    same('body', (entry) => entry.body)
    same('schema', (entry) => entry.body)
    same('preHandler /schema', (entry) => entry.body)
    expect((enclave.schema as Any).body.json).to.equal('{"n":5,"o":{"k":2},"d":"x"}')
  })

  it('request.headers, request.raw, request.routerPath and context.config have the same shape', () => {
    for (const key of ['headers', 'raw', 'routerPath', 'contextConfig']) same(key)
  })

  it('a validation error handed to the error handler has own keys validation, validationContext only (statusCode is there to read, not listed)', () => {
    same('error /required')
    same('status /required')
    expect(Object.keys(JSON.parse((enclave['error /required'] as Any).error.json))).to.deep.equal(['validation', 'validationContext'])
  })

  it("a framework error (bad JSON, unsupported media type) lists name, code, message, statusCode in Fastify 3's order", () => {
    for (const url of ['/body?bad', '/body?type']) {
      const ours = (enclave[`error ${url}`] as Any).error
      expect(ours.keys, url).to.deep.equal(['name', 'code', 'message', 'statusCode'])
      expect(ours.kind, url).to.equal('class:FrameworkError')
      same(`status ${url}`)
    }
    // Fastify 3's media-type error is a FastifyError with the same four keys (its JSON parse error is a bare SyntaxError).
    expect((fastify3['error /body?type'] as Any).error.keys).to.deep.equal(['name', 'code', 'message', 'statusCode'])
  })

  it('every own key of a Fastify 3 request and reply instance can be read on ours (README lists the extra own keys)', async () => {
    const keys = async (app: Any): Promise<{ request: string[]; reply: string[]; has: Record<string, boolean> }> => {
      let found = { request: [] as string[], reply: [] as string[], has: {} as Record<string, boolean> }
      app.get('/k', async (request: Any, reply: Any) => {
        const has: Record<string, boolean> = {}
        for (const key of ['id', 'context', 'params', 'raw', 'query', 'log', 'body']) has[`request.${key}`] = key in request
        for (const key of ['raw', 'request', 'log', 'context']) has[`reply.${key}`] = key in reply
        found = { request: Object.keys(request), reply: Object.keys(reply), has }
        return 1
      })
      await app.inject({ url: '/k' })
      await app.close()
      return found
    }
    const theirs = await keys(require('fastify3')({ logger: false }))
    const ours = await keys(createServer())
    expect(theirs.request).to.deep.equal(['id', 'context', 'params', 'raw', 'query', 'log', 'body'])
    expect(theirs.reply).to.deep.equal(['raw', 'request', 'log'])
    expect(ours.has).to.deep.equal(theirs.has)
    // Ours keep their internal fields on the instance (one hidden class per scope, see request.ts): listed, not hidden.
    expect(ours.request.slice(0, 2)).to.deep.equal(['id', 'raw'])
  })
})
