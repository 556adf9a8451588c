// Spec §4.2 "Programmatic operations on the server instance": every row of the table, over HTTP.
import { expect } from 'chai'
import type { Request, Scope, SerializerCompilerInput, ValidatorCompilerInput } from '../../src'
import { badRequest, build, http, server, withoutCrash } from './helpers'

declare module '../../src/runtime' {
  interface RequestDecorations { locale: string }
}

const required = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } }

describe('conformance §4.2: programmatic operations', () => {
  it('§4.2-addSchema: addSchema(schema) adds a shared schema to the current scope', async () => {
    const app = await build((root) => {
      root.register(async (scope: Scope) => {
        scope.addSchema({ $id: 'person', type: 'object', required: ['name'] })
        scope.post('/p', { schema: { body: { $ref: 'person#' } } }, async () => ({ ok: true }))
      })
    })
    await http(app).post('/p').send({ name: 'a' }).expect(200, { ok: true })
    await http(app).post('/p').send({}).expect(400, badRequest("body should have required property 'name'"))
    expect(app.getSchemas()).to.deep.equal({})
  })

  it('§4.2-getSchemas: getSchemas() returns an object of the shared schemas visible in the scope', async () => {
    const a = { $id: 'a', type: 'object' }
    const b = { $id: 'b', type: 'string' }
    const app = await build((root) => {
      root.addSchema(a)
      root.register(async (scope: Scope) => {
        scope.addSchema(b)
        scope.get('/s', async () => scope.getSchemas())
      })
    })
    await http(app).get('/s').expect(200, { a, b })
  })

  it('§4.2-getSchema: getSchema(id) returns that shared schema', async () => {
    const user = { $id: 'user', type: 'object', properties: { name: { type: 'string' } } }
    const app = await build((root) => {
      root.addSchema(user)
      root.register(async (scope: Scope) => { scope.get('/s', async () => ({ user: scope.getSchema('user'), none: scope.getSchema('none') ?? null })) })
    })
    await http(app).get('/s').expect(200, { user, none: null })
  })

  it('§4.2-setValidatorCompiler: fn({schema, method, url, httpPart}) replaces the validator for all routes', async () => {
    const inputs: ValidatorCompilerInput[] = []
    const app = await build((root) => {
      root.setValidatorCompiler((input) => {
        inputs.push(input)
        return (data: unknown) => (data as Record<string, unknown>).name === 'ok' ? true : { error: new Error(`custom ${input.httpPart} check failed`) }
      })
      root.post('/root', { schema: { body: required } }, async () => ({ route: 'root' }))
      root.register(async (child: Scope) => {
        // Adding shared schemas in a descendant does not bring the default validator back there.
        child.addSchema({ $id: 'childShared', type: 'object' })
        child.get('/child', { schema: { querystring: required } }, async () => ({ route: 'child' }))
      })
    })
    await http(app).post('/root').send({ name: 'ok' }).expect(200, { route: 'root' })
    await http(app).post('/root').send({ name: 'other' }).expect(400, badRequest('custom body check failed'))
    await http(app).get('/child?name=ok').expect(200, { route: 'child' })
    await http(app).get('/child?name=no').expect(400, badRequest('custom querystring check failed'))
    // One call per route part (the spec does not fix how often a compiler is called: compare distinct inputs).
    const distinct = new Set(inputs.map(({ method, url, httpPart, schema }) => JSON.stringify({ method, url, httpPart, hasSchema: schema.required !== undefined })))
    expect([...distinct].map((text) => JSON.parse(text)))
      .to.deep.equal([
        { method: 'POST', url: '/root', httpPart: 'body', hasSchema: true },
        { method: 'GET', url: '/child', httpPart: 'querystring', hasSchema: true },
      ])
  })

  it('§4.2-route-validatorCompiler: the route option validatorCompiler replaces the validator for one route', async () => {
    const app = await build((root) => {
      root.post('/custom', {
        schema: { body: required },
        validatorCompiler: () => () => ({ error: new Error('route compiler says no') }),
      }, async () => ({}))
      root.post('/default', { schema: { body: required } }, async () => ({ ok: true }))
    })
    await http(app).post('/custom').send({ name: 'a' }).expect(400, badRequest('route compiler says no'))
    await http(app).post('/default').send({ name: 'a' }).expect(200, { ok: true })
  })

  it('§4.2-setSerializerCompiler: fn({schema, method, url, httpStatus}) replaces the serializer for every route with a response schema', async () => {
    const inputs: SerializerCompilerInput[] = []
    const app = await build((root) => {
      root.setSerializerCompiler((input) => {
        inputs.push(input)
        return (data: unknown) => JSON.stringify({ custom: input.httpStatus, data })
      })
      root.get('/with', { schema: { response: { 200: { type: 'object', properties: { a: { type: 'integer' } } } } } }, async () => ({ a: 1, b: 2 }))
      root.get('/without', async () => ({ a: 1, b: 2 }))
      root.register(async (child: Scope) => {
        child.addSchema({ $id: 'childShared', type: 'object' })
        child.get('/child', { schema: { response: { '2xx': { type: 'object' } } } }, async () => ({ c: 3 }))
      })
    })
    expect((await http(app).get('/with').expect(200)).text).to.equal('{"custom":"200","data":{"a":1,"b":2}}')
    expect((await http(app).get('/without').expect(200)).text).to.equal('{"a":1,"b":2}')
    expect((await http(app).get('/child').expect(200)).text).to.equal('{"custom":"2xx","data":{"c":3}}')
    const distinct = new Set(inputs.map(({ method, url, httpStatus }) => JSON.stringify({ method, url, httpStatus })))
    expect([...distinct].map((text) => JSON.parse(text))).to.deep.equal([
      { method: 'GET', url: '/with', httpStatus: '200' }, { method: 'GET', url: '/child', httpStatus: '2xx' },
    ])
    expect(inputs[0].schema).to.include({ type: 'object' })
  })

  it('§4.2-reply-serializer: reply.serializer(fn) sets the serializer of one reply', async () => {
    const app = await build((root) => {
      root.get('/r', { schema: { response: { 200: { type: 'object', properties: { a: { type: 'integer' } } } } } },
        async (req: Request, reply) => {
          if (req.query.custom === '1') reply.serializer((data) => JSON.stringify({ wrapped: data }))
          return { a: 1, b: 2 }
        })
    })
    expect((await http(app).get('/r?custom=1').expect(200)).text).to.equal('{"wrapped":{"a":1,"b":2}}')
    expect((await http(app).get('/r').expect(200)).text).to.equal('{"a":1}')
  })

  it('§4.2-setSchemaErrorFormatter: fn(errors, dataVar) is called synchronously with this = the server instance; its Error becomes the validation error', async () => {
    const calls: Array<{ thisIsApp: boolean; errors: unknown; dataVar: string }> = []
    let app: Scope | null = null
    app = await build((root) => {
      root.setSchemaErrorFormatter(function (this: unknown, errors: unknown[], dataVar: string) {
        calls.push({ thisIsApp: this === app, errors, dataVar })
        return new Error(`${dataVar} is wrong (${errors.length})`)
      })
      root.setErrorHandler((error, _req, reply) => { reply.status(400).send({ message: error.message, context: error.validationContext }) })
      root.post('/u', { schema: { body: required } }, async () => ({}))
    })
    await http(app).post('/u').send({}).expect(400, { message: 'body is wrong (1)', context: 'body' })
    expect(calls).to.have.length(1)
    expect(calls[0].thisIsApp).to.equal(true)
    expect(calls[0].dataVar).to.equal('body')
    expect(calls[0].errors).to.be.an('array')
    expect((calls[0].errors as Array<{ keyword: string }>)[0].keyword).to.equal('required')
  })

  it('§4.2-formatter-dataVar: dataVar is one of params, body, querystring, headers', async () => {
    const dataVars: string[] = []
    const app = await build((root) => {
      root.setSchemaErrorFormatter((_errors, dataVar) => { dataVars.push(dataVar); return new Error(`bad ${dataVar}`) })
      root.post('/p/:id', {
        schema: { params: { id: { type: 'integer' } }, body: required, querystring: { q: { type: 'integer' } }, headers: { type: 'object', required: ['x-id'] } },
      }, async () => ({}))
    })
    await http(app).post('/p/x').send({ name: 'a' }).expect(400, badRequest('bad params'))
    await http(app).post('/p/1').send({}).expect(400, badRequest('bad body'))
    await http(app).post('/p/1?q=x').send({ name: 'a' }).expect(400, badRequest('bad querystring'))
    await http(app).post('/p/1').send({ name: 'a' }).expect(400, badRequest('bad headers'))
    expect(dataVars).to.deep.equal(['params', 'body', 'querystring', 'headers'])
  })

  it('§4.2-schemaErrorFormatter-option: the server factory option schemaErrorFormatter does the same, this = the server instance', async () => {
    let thisValue: unknown = null
    const app = await build((root) => {
      root.post('/u', { schema: { body: required } }, async () => ({}))
    }, {
      schemaErrorFormatter: function (this: unknown, errors: unknown[], dataVar: string) {
        thisValue = this
        return new Error(`factory formatter: ${dataVar}, ${errors.length} error(s)`)
      },
    })
    await http(app).post('/u').send({}).expect(400, badRequest('factory formatter: body, 1 error(s)'))
    expect(thisValue).to.equal(app)
  })

  it('§4.2-formatter-this-owner: this is the server instance that holds the formatter, also for routes of descendant contexts', async () => {
    const thisSeen: Record<string, unknown> = {}
    let owner: Scope | null = null
    const app = await build((root) => {
      root.register(async (child: Scope) => {
        child.post('/factory', { schema: { body: required } }, async () => ({}))
      })
      root.register(async function formatted(scope: Scope) {
        owner = scope
        scope.setSchemaErrorFormatter(function (this: unknown) { thisSeen.scoped = this; return new Error('scoped') })
        scope.register(async (grandchild: Scope) => { grandchild.post('/scoped', { schema: { body: required } }, async () => ({})) })
      })
    }, { schemaErrorFormatter: function (this: unknown) { thisSeen.factory = this; return new Error('factory') } })
    await http(app).post('/factory').send({}).expect(400, badRequest('factory'))
    await http(app).post('/scoped').send({}).expect(400, badRequest('scoped'))
    expect(thisSeen.factory === app, 'the factory option formatter is called with this = the server createServer returned').to.equal(true)
    expect(thisSeen.scoped === owner, 'setSchemaErrorFormatter is called with this = the scope it was set on').to.equal(true)
  })

  it('§4.2-formatter-must-return-Error: a formatter that returns something else, or throws, is a server error (500), not a crash', async () => {
    const app = await build((root) => {
      root.register(async (scope: Scope) => {
        scope.setSchemaErrorFormatter((() => 'not an error') as never)
        scope.post('/returns-string', { schema: { body: required } }, async () => ({}))
      })
      root.register(async (scope: Scope) => {
        scope.setSchemaErrorFormatter(() => { throw new Error('formatter bug') })
        scope.get('/throws', { schema: { querystring: { n: { type: 'integer' } } } }, async () => ({}))
      })
    }, { closeTimeout: 100 })
    const internal = { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' }
    await withoutCrash(() => http(app).post('/returns-string').send({}).expect(500, internal))
    await withoutCrash(() => http(app).get('/throws?n=x').expect(500, internal))
  })

  it('§4.2-setErrorHandler: fn(error, request, reply) handles errors, validation errors included; reply.status(code).send(payload) answers', async () => {
    const seen: string[] = []
    const app = await build((root) => {
      root.setErrorHandler((error, req, reply) => {
        seen.push(`${req.method} ${req.url}: ${error.message}`)
        reply.status(error.validation === undefined ? 503 : 422).send({ handled: error.message })
      })
      root.post('/u', { schema: { body: required } }, async () => ({}))
      root.get('/boom', async () => { throw new Error('boom') })
    })
    await http(app).post('/u').send({}).expect(422, { handled: "body should have required property 'name'" })
    await http(app).get('/boom').expect(503, { handled: 'boom' })
    expect(seen).to.deep.equal(["POST /u: body should have required property 'name'", 'GET /boom: boom'])
  })

  it('§4.2-decorateRequest: decorateRequest(name, value) adds a request property in the current context', async () => {
    const app = await build((root) => {
      root.register(async (scope: Scope) => {
        scope.decorateRequest('locale', 'en')
        scope.get('/in', async (req: Request) => ({ locale: req.locale }))
      })
      root.get('/out', async (req: Request) => ({ locale: req.locale ?? 'none' }))
    })
    await http(app).get('/in').expect(200, { locale: 'en' })
    await http(app).get('/out').expect(200, { locale: 'none' })
  })

  it('§4.2-register-async: register(plugin, options) takes an async plugin and its options, and creates a child context', async () => {
    let child: Scope | null = null
    const app = await build((root) => {
      root.register(async (scope: Scope, options: { greeting?: string }) => {
        child = scope
        scope.get('/hi', async () => ({ greeting: options.greeting }))
      }, { greeting: 'hello' })
    })
    await http(app).get('/hi').expect(200, { greeting: 'hello' })
    expect(child).to.not.equal(null)
    expect((child as unknown as Scope).parent).to.equal(app)
  })

  it('§4.2-register-callback: register(plugin, options) takes a callback plugin (scope, options, done)', async () => {
    const app = await build((root) => {
      root.register((scope: Scope, options: { greeting?: string }, done) => {
        scope.get('/hi', async () => ({ greeting: options.greeting, parentIsRoot: scope.parent === root }))
        setImmediate(done)
      }, { greeting: 'hej' })
    })
    await http(app).get('/hi').expect(200, { greeting: 'hej', parentIsRoot: true })
  })

  it('§4.2-route: route({method, path, handler}) adds a route; response.send(object) sends a JSON body', async () => {
    const app = await build((root) => {
      root.route({ method: 'GET', path: '/r', handler: (_request, response) => { response.send({ sent: true }) } })
    })
    await http(app).get('/r').expect(200, { sent: true }).expect('content-type', /^application\/json/)
  })

  it('§4.2-listen-port: listen(port) starts the server (release line signature)', async () => {
    const app = server()
    app.get('/', async () => ({ listening: true }))
    const address = await app.listen(0)
    expect(address).to.match(/^http:\/\/127\.0\.0\.1:\d+$/)
    const res = await fetch(address)
    expect(await res.json()).to.deep.equal({ listening: true })
  })

  it('§4.2-listen-options: listen({ port }) starts the server (development line signature)', async () => {
    const app = server()
    app.get('/', async () => ({ listening: true }))
    const address = await app.listen({ port: 0 })
    const res = await fetch(address)
    expect(await res.json()).to.deep.equal({ listening: true })
  })
})
