// Fastify 4/5's request.getValidationFunction() / compileValidationSchema() / validateInput(),
// reply.getSerializationFunction() / compileSerializationSchema() / serializeInput(), `await reply`
// and scope.hasRoute() / findRoute(), with Fastify 5's semantics (docs/fastify-compat.md).
import { expect } from 'chai'
import type { Reply, Request, Scope } from '../../src/runtime'
import { connect } from 'node:net'
import type { AddressInfo } from 'node:net'
import { build, deferred, recordingLogger, server } from './helpers'

const helloSchema = { type: 'object', required: ['hello'], properties: { hello: { type: 'string' }, n: { type: 'integer' } } } as const

/** The code and message of what `fn` throws. */
function codeOf(fn: () => unknown): { code?: string; message?: string } {
  try { fn(); return {} } catch (error) { return { code: (error as { code?: string }).code, message: (error as Error).message } }
}

/** Runs `probe` inside a handler of a route with `schema` and answers what it returned, as JSON. */
async function inHandler(probe: (request: Request, reply: Reply) => unknown, options: { schema?: object; lazy?: boolean; url?: string; setup?: (root: Scope) => void } = {}): Promise<{ statusCode: number; body: any }> {
  const app = await build((root) => {
    if (options.lazy === true) root.setSchemaCompilation('lazy')
    options.setup?.(root)
    root.post('/r/:id', { schema: (options.schema ?? {}) as never }, (request, reply) => probe(request, reply) as never)
  })
  const res = await app.inject({ method: 'POST', url: options.url ?? '/r/7?q=1', payload: { hello: 'world' } })
  await app.close()
  return { statusCode: res.statusCode, body: res.json() }
}

describe('request validation functions (Fastify 4/5)', () => {
  const routeSchema = { params: { type: 'object', properties: { id: { type: 'integer' } } }, body: helloSchema, querystring: { type: 'object', properties: { q: { type: 'integer' } } } }

  it('getValidationFunction(part) returns the route validator in ajv shape: true, or false with errors; query is querystring', async () => {
    const { body } = await inHandler((request) => {
      const validateBody = request.getValidationFunction('body')!
      const ok = validateBody({ hello: 'x' })
      const okErrors = validateBody.errors
      const bad = validateBody({ n: 1 })
      return { ok, okErrors, bad, errors: validateBody.errors!.map((e) => ('keyword' in e ? e.keyword : e.message)),
        same: request.getValidationFunction('query') === request.getValidationFunction('querystring'),
        headers: request.getValidationFunction('headers') === undefined, unknownPart: request.getValidationFunction('cookies' as never) === undefined }
    }, { schema: routeSchema })
    expect(body).to.deep.equal({ ok: true, okErrors: null, bad: false, errors: ['required'], same: true, headers: true, unknownPart: true })
  })

  it('compileValidationSchema() errors are ValidationIssues as typed (keyword, dataPath, schemaPath, params, message), one per failing item when checked item by item', async () => {
    // The per-item check of a batch (docs/recipes-iot-ingest.md): each item's first failure, read without casts.
    const reading = { type: 'object', required: ['ts'], properties: { ts: { type: 'string' }, value: { type: 'number' } } }
    const { body } = await inHandler((request) => {
      const check = request.compileValidationSchema(reading)
      const items: unknown[] = [{ ts: 'a', value: 1 }, { ts: 'b', value: 'hot' }, { value: 2 }]
      return items.flatMap((item, index) => check(item) ? [] : (check.errors ?? []).map((e) => 'keyword' in e
        ? { index, keyword: e.keyword, dataPath: e.dataPath, schemaPath: e.schemaPath, params: e.params, message: e.message }
        : { index, error: e.message }))
    })
    expect(body).to.deep.equal([
      { index: 1, keyword: 'type', dataPath: '/value', schemaPath: '#/properties/value/type', params: { type: 'number' }, message: 'should be number' },
      { index: 2, keyword: 'required', dataPath: '', schemaPath: '#/required', params: { missingProperty: 'ts' }, message: "should have required property 'ts'" },
    ])
  })

  it('getValidationFunction(part) works on a lazy route', async () => {
    const { body } = await inHandler((request) => ({ ok: request.getValidationFunction('params')!({ id: 'x' }) }), { schema: routeSchema, lazy: true })
    expect(body).to.deep.equal({ ok: false })
  })

  it('compileValidationSchema() compiles with the scope ajv (shared schemas too) and caches per schema object', async () => {
    const shared = { $id: 'pet', type: 'object', required: ['name'], properties: { name: { type: 'string' } } }
    const schema = { type: 'object', properties: { pet: { $ref: 'pet#' } } }
    const { body } = await inHandler((request) => {
      const validate = request.compileValidationSchema(schema)
      const before = request.getValidationFunction({ type: 'object' }) === undefined
      return { good: validate({ pet: { name: 'rex' } }), bad: validate({ pet: {} }), cached: request.compileValidationSchema(schema) === validate,
        found: request.getValidationFunction(schema) === validate, before }
    }, { setup: (root) => root.addSchema(shared) })
    expect(body).to.deep.equal({ good: true, bad: false, cached: true, found: true, before: true })
  })

  it('compileValidationSchema() coerces as the route validator does (coerceTypes) and uses a scope validator compiler', async () => {
    const { body } = await inHandler((request) => {
      const data = { n: '3' }
      const ok = request.compileValidationSchema({ type: 'object', properties: { n: { type: 'integer' } } })(data)
      return { ok, data }
    })
    expect(body).to.deep.equal({ ok: true, data: { n: 3 } })
    const seen: string[] = []
    const custom = await inHandler((request) => ({ result: request.compileValidationSchema({ type: 'string' }, 'body')('x') }), {
      setup: (root) => root.setValidatorCompiler(({ httpPart }) => { seen.push(String(httpPart)); return () => true }),
    })
    expect(custom.body).to.deep.equal({ result: true })
    expect(seen).to.deep.equal(['body'])
  })

  it('compileValidationSchema() with a schema that does not compile throws the coded build error (a 500)', async () => {
    const { body } = await inHandler((request) => codeOf(() => request.compileValidationSchema({ type: 'object', properties: { a: { $ref: 'missing#' } } })))
    expect(body.code).to.match(/^ENC_ERR_SCH_/)
  })

  it('compileValidationSchema() and validateInput(input, schema) refuse an unknown keyword with the coded error a route schema gets at boot (ENC_ERR_SCH_UNKNOWN_KEYWORD); not under a scope validator compiler', async () => {
    const typo = { type: 'object', properties: { n: { type: 'integer', minimun: 1 } } }
    const { body } = await inHandler((request) => ({
      compile: codeOf(() => request.compileValidationSchema(typo, 'body')),
      validate: codeOf(() => request.validateInput({ n: 1 }, { type: 'object', propertes: {} })),
    }))
    expect(body.compile.code).to.equal('ENC_ERR_SCH_UNKNOWN_KEYWORD')
    expect(body.compile.message).to.include("The body (compileValidationSchema) schema of route POST /r/:id in scope root: unknown JSON Schema keyword 'minimun' at '/properties/n'")
    expect(body.compile.message).to.include('minimum')
    expect(body.validate.code).to.equal('ENC_ERR_SCH_UNKNOWN_KEYWORD')
    const custom = await inHandler((request) => ({ result: request.compileValidationSchema(typo)({}) }), { setup: (root) => root.setValidatorCompiler(() => () => true) })
    expect(custom.body).to.deep.equal({ result: true })
  })

  it('validateInput() takes a part, a schema, or a schema and a part (the route part wins), as Fastify does', async () => {
    const other = { type: 'object', required: ['zzz'] }
    const { body } = await inHandler((request) => ({
      byPart: request.validateInput({ hello: 'a' }, 'body'),
      byPartBad: request.validateInput({}, 'body'),
      bySchema: request.validateInput({ zzz: 1 }, other),
      bySchemaBad: request.validateInput({}, other),
      partWins: request.validateInput({ hello: 'a' }, other, 'body'),
      schemaForMissingPart: request.validateInput({ zzz: 1 }, other, 'headers'),
    }), { schema: routeSchema })
    expect(body).to.deep.equal({ byPart: true, byPartBad: false, bySchema: true, bySchemaBad: false, partWins: true, schemaForMissingPart: true })
  })

  it('validateInput() with neither a schema nor a part the route validates answers 500 ENC_ERR_REQUEST_VALIDATION_INVOCATION', async () => {
    const { statusCode, body } = await inHandler((request) => request.validateInput({}, 'headers'))
    expect(statusCode).to.equal(500)
    const { body: caught } = await inHandler((request) => codeOf(() => request.validateInput({}, 'headers')))
    expect(caught.code).to.equal('ENC_ERR_REQUEST_VALIDATION_INVOCATION')
    expect(body.statusCode).to.equal(500)
  })
})

describe('reply serialization functions (Fastify 4/5)', () => {
  const response = {
    201: { type: 'object', properties: { status: { type: 'string' } } },
    '4xx': { type: 'object', properties: { code: { type: 'integer' } } },
  }

  it('getSerializationFunction(status) returns the serializer of the key as declared; undefined for an undeclared key or with a content type', async () => {
    const { body } = await inHandler((_request, reply) => ({
      created: reply.getSerializationFunction(201)!({ status: 'ok', extra: 1 }),
      createdText: reply.getSerializationFunction('201') === reply.getSerializationFunction(201),
      range: reply.getSerializationFunction('4xx')!({ code: 4, extra: 1 }),
      notDeclared: reply.getSerializationFunction(404) === undefined && reply.getSerializationFunction(200) === undefined,
      contentType: reply.getSerializationFunction(201, 'application/json') === undefined,
    }), { schema: { response } })
    expect(body).to.deep.equal({ created: '{"status":"ok"}', createdText: true, range: '{"code":4}', notDeclared: true, contentType: true })
  })

  it('compileSerializationSchema() compiles with the route serializer compiler and caches per schema object', async () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } }
    const { body } = await inHandler((_request, reply) => {
      const serialize = reply.compileSerializationSchema(schema)
      return { text: serialize({ a: 'x', b: 2 }), cached: reply.compileSerializationSchema(schema) === serialize, found: reply.getSerializationFunction(schema) === serialize }
    })
    expect(body).to.deep.equal({ text: '{"a":"x"}', cached: true, found: true })
  })

  it('compileSerializationSchema() refuses an unknown keyword as a response schema is refused at boot (ENC_ERR_SCH_UNKNOWN_KEYWORD)', async () => {
    const { body } = await inHandler((_request, reply) => codeOf(() => reply.compileSerializationSchema({ type: 'object', properties: { a: { type: 'string', maxLenght: 3 } } }, 200)))
    expect(body.code).to.equal('ENC_ERR_SCH_UNKNOWN_KEYWORD')
    expect(body.message).to.include("The response 200 (compileSerializationSchema) schema of route POST /r/:id in scope root: unknown JSON Schema keyword 'maxLenght'")
  })

  it('serializeInput() takes a schema, a status, or a status and a content type; a missing key answers 500 ENC_ERR_REPLY_MISSING_SERIALIZATION_FN', async () => {
    const ok = await inHandler((_request, reply) => ({
      bySchema: reply.serializeInput({ a: 1, b: 2 }, { type: 'object', properties: { a: { type: 'integer' } } }),
      byStatus: reply.serializeInput({ status: 'x', b: 2 }, 201),
    }), { schema: { response } })
    expect(ok.body).to.deep.equal({ bySchema: '{"a":1}', byStatus: '{"status":"x"}' })
    const missing = await inHandler((_request, reply) => reply.serializeInput({}, 500), { schema: { response } })
    expect(missing.statusCode).to.equal(500)
    const caught = await inHandler((_request, reply) => codeOf(() => reply.serializeInput({}, 500)), { schema: { response } })
    expect(caught.body.code).to.equal('ENC_ERR_REPLY_MISSING_SERIALIZATION_FN')
    const typed = await inHandler((_request, reply) => codeOf(() => reply.serializeInput({}, 201, 'application/json')), { schema: { response } })
    expect(typed.body.code).to.equal('ENC_ERR_REPLY_MISSING_SERIALIZATION_FN')
    expect(typed.body.message).to.include("content type 'application/json'")
  })
})

describe('await reply (Fastify 4/5 reply.then)', () => {
  it('resolves once the response has finished, and at once when it already has', async () => {
    const events: string[] = []
    const app = await build((root) => {
      root.get('/later', async (_request, reply) => {
        setImmediate(() => { events.push('send'); reply.send({ ok: true }) })
        await reply
        events.push(`awaited ended=${reply.raw.writableEnded}`)
        return reply
      })
      root.get('/already', async (_request, reply) => {
        reply.send('x')
        await reply
        events.push('already')
        return reply
      })
      root.get('/returned', async (_request, reply) => reply.send({ returned: true }))
    })
    expect((await app.inject({ url: '/later' })).json()).to.deep.equal({ ok: true })
    await new Promise((resolve) => setImmediate(resolve))
    expect((await app.inject({ url: '/already' })).body).to.equal('x')
    expect((await app.inject({ url: '/returned' })).json()).to.deep.equal({ returned: true })
    await app.close()
    expect(events).to.deep.equal(['send', 'awaited ended=true', 'already'])
  })

  it('a handler (or error handler) that returns reply and sends later, whose client goes away first: no error logged', async () => {
    const logger = recordingLogger()
    const gone = deferred()
    let settled = 0
    const app = await build((root) => {
      root.get('/poll', async (_request, reply) => {
        void gone.promise.then(() => { settled++ })
        return reply
      })
      root.get('/fails', async () => { throw new Error('boom') })
      root.setErrorHandler(async (_error, _request, reply) => {
        void gone.promise.then(() => { settled++ })
        return reply
      })
    }, { logger })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = app.server.address() as AddressInfo
    for (const path of ['/poll', '/fails']) {
      const socket = connect(port, '127.0.0.1')
      await new Promise((resolve) => socket.once('connect', resolve))
      const closed = new Promise((resolve) => app.server.once('request', (_req, res) => res.once('close', resolve)))
      socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`)
      await new Promise((resolve) => setImmediate(resolve))
      socket.destroy()
      await closed
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
    gone.resolve()
    await app.close()
    expect(logger.entries.filter((e) => e.level === 'error').map((e) => (e.obj.err as { code?: string } | undefined)?.code ?? e.msg)).to.deep.equal([])
  })

  it('an async onRequest hook that returns reply and sends later, whose client goes away first: the handler does not run', async () => {
    const ran: string[] = []
    const app = await build((root) => {
      root.get('/x', { onRequest: async (_request: Request, reply: Reply) => reply }, async () => { ran.push('handler'); return 'h' })
    })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = app.server.address() as AddressInfo
    const socket = connect(port, '127.0.0.1')
    await new Promise((resolve) => socket.once('connect', resolve))
    const closed = new Promise((resolve) => app.server.once('request', (_req, res) => res.once('close', resolve)))
    socket.write('GET /x HTTP/1.1\r\nHost: x\r\n\r\n')
    await new Promise((resolve) => setImmediate(resolve))
    socket.destroy()
    await closed
    await new Promise((resolve) => setTimeout(resolve, 20))
    await app.close()
    expect(ran).to.deep.equal([])
  })

  it('a synchronous onSend or preSerialization hook that returns reply is answered 500 at once, not left waiting on the reply it holds up', async () => {
    const app = await build((root) => {
      root.get('/on-send', { onSend: (_request: Request, reply: Reply) => reply }, async () => ({ a: 1 }))
      root.get('/pre-serialization', { preSerialization: (_request: Request, reply: Reply) => reply }, async () => ({ a: 1 }))
    })
    for (const url of ['/on-send', '/pre-serialization']) {
      const res = await Promise.race([app.inject({ url }), new Promise<null>((resolve) => setTimeout(() => resolve(null), 2_000))])
      expect(res?.statusCode, url).to.equal(500)
    }
    await app.close()
  })

  it('a reply is still refused as a decorator name then, and getValidationFunction too', async () => {
    const app = server()
    expect(() => app.decorateReply('then' as string, () => {})).to.throw(/built-in property/)
    expect(() => app.decorateRequest('getValidationFunction' as string, () => {})).to.throw(/built-in property/)
    expect(() => app.decorateReply('serializeInput' as string, () => {})).to.throw(/built-in property/)
  })
})

describe('scope.hasRoute() / findRoute() (Fastify 5)', () => {
  it('hasRoute() matches a route declared so far by method (any case), path as declared and constraints', async () => {
    const answers: unknown[] = []
    const app = server()
    app.register(async (scope) => {
      scope.get('/artists/:id', async () => 'x')
      scope.route({ method: 'GET', url: '/v', constraints: { version: '1.2.0' }, handler: async () => 'v' })
      answers.push(scope.hasRoute({ method: 'GET', url: '/api/artists/:id' }), scope.hasRoute({ method: 'get', url: '/api/artists/:id' }),
        scope.hasRoute({ method: 'POST', url: '/api/artists/:id' }), scope.hasRoute({ method: 'HEAD', url: '/api/artists/:id' }),
        scope.hasRoute({ method: 'GET', url: '/artists/:id' }), scope.hasRoute({ method: 'GET', url: '/api/later' }),
        scope.hasRoute({ method: 'GET', url: '/api/v', constraints: { version: '1.2.0' } }), scope.hasRoute({ method: 'GET', url: '/api/v', constraints: { version: '1.3.0' } }),
        scope.hasRoute({} as never))
      scope.get('/later', async () => 'l')
      answers.push(scope.hasRoute({ method: 'GET', url: '/api/later' }))
    }, { prefix: '/api' })
    await app.ready()
    expect(answers).to.deep.equal([true, true, false, true, false, false, true, false, false, true])
    expect(app.hasRoute({ method: 'GET', url: '/api/later' })).to.equal(true)
    await app.close()
  })

  it('hasRoute() and findRoute() see no HEAD route for a GET route declared with exposeHeadRoute: false', async () => {
    const app = server()
    app.get('/nohead', { exposeHeadRoute: false }, async () => 'x')
    app.get('/head', async () => 'x')
    expect([app.hasRoute({ method: 'HEAD', url: '/nohead' }), app.findRoute({ method: 'HEAD', url: '/nohead' }), app.hasRoute({ method: 'HEAD', url: '/head' })])
      .to.deep.equal([false, null, true])
    await app.ready()
    expect((await app.inject({ method: 'HEAD', url: '/nohead' })).statusCode).to.not.equal(200)
    await app.close()
  })

  it('findRoute() answers { handler, params, searchParams } for a URL or the pattern, a fresh copy each time; null when none', async () => {
    const app = server()
    const handler = async (): Promise<string> => 'x'
    app.get('/artists/:artistId', handler)
    const byPattern = app.findRoute({ method: 'GET', url: '/artists/:artistId' })!
    expect(byPattern.handler).to.equal(handler)
    expect(byPattern.params).to.deep.equal({ artistId: ':artistId' })
    ;(byPattern.params as Record<string, string>).artistId = 'changed'
    const byUrl = app.findRoute({ method: 'GET', url: '/artists/42?x=1' })!
    expect(byUrl.params).to.deep.equal({ artistId: '42' })
    expect(byUrl.searchParams).to.deep.equal({ x: '1' })
    expect(app.findRoute({ method: 'GET', url: '/artists/:artistId' })!.params).to.deep.equal({ artistId: ':artistId' })
    expect(app.findRoute({ method: 'POST', url: '/artists/1' })).to.equal(null)
    expect(app.findRoute({ method: 'GET', url: '/books/1' })).to.equal(null)
    expect(app.findRoute({ method: 'GET' } as never)).to.equal(null)
    await app.ready()
    await app.close()
  })

  it('findRoute() with a version constraint finds the route a request with that Accept-Version reaches, pre-releases included', async () => {
    const app = server()
    const release = async (): Promise<string> => 'v120'
    const candidate = async (): Promise<string> => 'rc'
    app.route({ method: 'GET', url: '/v', constraints: { version: '1.2.0' }, handler: release })
    app.route({ method: 'GET', url: '/v', constraints: { version: '1.3.0-rc.1' }, handler: candidate })
    const found = (version: string): unknown => app.findRoute({ method: 'GET', url: '/v', constraints: { version } })?.handler ?? null
    expect(found('1.3.0-rc.1')).to.equal(candidate)
    // A range never answers with the pre-release (shared/version-strategy.ts), here as when serving.
    expect(found('1.x')).to.equal(release)
    expect(found('1.3.0')).to.equal(null)
    await app.ready()
    expect((await app.inject({ url: '/v', headers: { 'accept-version': '1.3.0-rc.1' } })).body).to.equal('rc')
    expect((await app.inject({ url: '/v', headers: { 'accept-version': '1.x' } })).body).to.equal('v120')
    await app.close()
  })
})
