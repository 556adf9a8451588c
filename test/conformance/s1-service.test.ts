// Spec §1 "What the service does", item by item, through the public API and over HTTP.
import { expect } from 'chai'
import { lift, type Request, type Scope } from '../../src'
import { badRequest, bootError, build, http, server, thrown, withoutCrash } from './helpers'

declare module '../../src/runtime' {
  interface RequestDecorations { fromRoot: string; fromChild: string; fromLifted: string }
}

describe('conformance §1: what the service does', () => {
  it('§1.1-plugins-and-routes: an application registers routes and plugins on a server instance', async () => {
    const app = await build((root) => {
      root.get('/root', async () => ({ from: 'root' }))
      root.register(async (plugin: Scope) => {
        plugin.get('/plugin', async () => ({ from: 'plugin' }))
      }, { prefix: '/p' })
    })
    await http(app).get('/root').expect(200, { from: 'root' })
    await http(app).get('/p/plugin').expect(200, { from: 'plugin' })
  })

  it('§1.2-schema-parts: one route schema holds body, querystring, params, headers and response', async () => {
    const app = await build((root) => {
      root.post('/items/:id', {
        schema: {
          body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
          querystring: { type: 'object', properties: { dry: { type: 'boolean' } } },
          params: { type: 'object', properties: { id: { type: 'integer' } } },
          headers: { type: 'object', required: ['x-tenant'], properties: { 'x-tenant': { type: 'string' } } },
          response: { 200: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, dry: { type: 'boolean' } } } },
        },
      }, async (req: Request) => ({
        id: req.params.id, name: (req.body as { name: string }).name, dry: req.query.dry, tenant: req.headers['x-tenant'],
      }))
    })
    await http(app).post('/items/7?dry=true').set('x-tenant', 't1').send({ name: 'kettle' })
      .expect(200, { id: 7, name: 'kettle', dry: true })
    await http(app).post('/items/x').set('x-tenant', 't1').send({ name: 'kettle' }).expect(400)
    await http(app).post('/items/7').set('x-tenant', 't1').send({}).expect(400)
    await http(app).post('/items/7?dry=maybe').set('x-tenant', 't1').send({ name: 'kettle' }).expect(400)
    await http(app).post('/items/7').send({ name: 'kettle' }).expect(400)
  })

  it('§1.3-validator-and-serializer: request parts go through the validator, the response through the schema serializer', async () => {
    const app = await build((root) => {
      root.post('/n', {
        schema: {
          body: { type: 'object', required: ['n'], properties: { n: { type: 'integer', minimum: 1 } } },
          response: { 200: { type: 'object', properties: { n: { type: 'string' } } } },
        },
      }, async (req: Request) => ({ n: (req.body as { n: number }).n }))
    })
    await http(app).post('/n').send({ n: 0 }).expect(400, badRequest('body/n should be >= 1'))
    // The serializer follows the response schema (a string), not the handler's number.
    const res = await http(app).post('/n').send({ n: 5 }).expect(200)
    expect(res.text).to.equal('{"n":"5"}')
  })

  it('§1.3-shared-only-by-addSchema: the validator and the serializer share only schemas added with addSchema', async () => {
    const app = await build((root) => {
      root.addSchema({ $id: 'money', type: 'object', properties: { cents: { type: 'integer', minimum: 0 } } })
      root.post('/pay', {
        schema: { body: { $ref: 'money#' }, response: { 200: { $ref: 'money#' } } },
      }, async (req: Request) => ({ ...(req.body as object), secret: 'x' }))
    })
    await http(app).post('/pay').send({ cents: -1 }).expect(400)
    await http(app).post('/pay').send({ cents: 12 }).expect(200, { cents: 12 })

    // A schema given inline in one route's body, even with an $id, is not shared with a serializer.
    const inline = server()
    inline.post('/a', {
      schema: {
        body: { $id: 'inlineOnly', type: 'object', properties: { a: { type: 'string' } } },
        response: { 200: { $ref: 'inlineOnly#' } },
      },
    }, async () => ({ a: 'x' }))
    const error = await bootError(inline)
    expect(error.code).to.match(/^ENC_ERR_SCH_/)
    expect(error.message).to.contain('inlineOnly')
  })

  it('§1.4-default-400: a failed validation is answered 400 with the error payload', async () => {
    const app = await build((root) => {
      root.post('/users', { schema: { body: { type: 'object', required: ['name'] } } }, async () => ({ ok: true }))
    })
    const res = await http(app).post('/users').send({}).expect(400)
    expect(res.body).to.deep.equal(badRequest("body should have required property 'name'"))
  })

  it('§1.4-route-override: a route overrides the 400 (attachValidation: the handler answers)', async () => {
    const app = await build((root) => {
      root.post('/users', { schema: { body: { type: 'object', required: ['name'] } }, attachValidation: true },
        async (req: Request, reply) => reply.code(202).send({ accepted: req.validationError?.message }))
    })
    await http(app).post('/users').send({}).expect(202, { accepted: "body should have required property 'name'" })
  })

  it('§1.4-server-override: the server overrides the 400 (an error handler chooses another status)', async () => {
    const app = await build((root) => {
      root.setErrorHandler((error, _req, reply) => {
        reply.status(422).send({ invalid: error.validationContext, message: error.message })
      })
      root.post('/users', { schema: { body: { type: 'object', required: ['name'] } } }, async () => ({ ok: true }))
    })
    await http(app).post('/users').send({}).expect(422, { invalid: 'body', message: "body should have required property 'name'" })
  })

  it('§1.5-plugin-contexts: a context sees its ancestors, not its descendants; the wrapper lifts that', async () => {
    const seen: Record<string, unknown> = {}
    const app = await build((root) => {
      root.decorateRequest('fromRoot', 'r')
      root.register(async (child: Scope) => {
        child.decorateRequest('fromChild', 'c')
        child.get('/child', async (req: Request) => ({ root: req.fromRoot, child: req.fromChild, lifted: req.fromLifted }))
      })
      root.register(lift(async (same: Scope) => { same.decorateRequest('fromLifted', 'l') }))
      root.get('/root', async (req: Request) => {
        seen.child = req.fromChild
        return { root: req.fromRoot, lifted: req.fromLifted, child: req.fromChild ?? 'undefined' }
      })
    })
    await http(app).get('/child').expect(200, { root: 'r', child: 'c', lifted: 'l' })
    await http(app).get('/root').expect(200, { root: 'r', lifted: 'l', child: 'undefined' })
    expect(seen.child).to.equal(undefined)
  })

  it('§1.6-schemas-are-code: schemas are compiled at boot only; none can be added once the server serves', async () => {
    const app = await build((root) => {
      root.get('/', async () => ({ ok: true }))
    })
    expect(thrown(() => app.addSchema({ $id: 'late', type: 'object' })).code).to.equal('ENC_ERR_SCOPE_BOOTED')
    expect(thrown(() => app.post('/late', { schema: { body: { type: 'object' } } }, async () => ({}))).code).to.equal('ENC_ERR_SCOPE_BOOTED')
    await http(app).post('/late').send({}).expect(404)
  })

  it('§1.6-async-refused-route: a route schema using $async is refused at boot', async () => {
    const app = server()
    app.post('/users', { schema: { body: { $async: true, type: 'object', properties: { email: { type: 'string' } } } } }, async () => ({}))
    const error = await bootError(app)
    expect(error.code).to.equal('ENC_ERR_SCH_ASYNC')
    expect(error.message).to.contain('preHandler')
  })

  it('§1.6-async-refused-shared: a shared schema using $async is refused', async () => {
    const app = server()
    let error: Error & { code?: string } | null = null
    try {
      app.addSchema({ $id: 'user', $async: true, type: 'object' })
      await app.ready()
    } catch (caught) {
      error = caught as Error & { code?: string }
    }
    expect(error?.code).to.equal('ENC_ERR_SCH_ASYNC')
  })

  it('§1.6-async-validator-result: a custom validator that returns a Promise is refused (500), never awaited', async () => {
    let handled = 0
    const app = await build((root) => {
      root.post('/users', {
        schema: { body: { type: 'object' } },
        validatorCompiler: () => async () => true,
      }, async () => { handled++; return { created: true } })
    }, { closeTimeout: 100 })
    await withoutCrash(() => http(app).post('/users').send({}).expect(500, { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' }))
    expect(handled).to.equal(0)
  })

  it('§1.6-async-in-preHandler: asynchronous work runs in a preHandler hook, after validation', async () => {
    const taken = new Set(['taken@example.com'])
    const app = await build((root) => {
      root.post('/users', {
        schema: { body: { type: 'object', required: ['email'], properties: { email: { type: 'string', maxLength: 50 } } } },
        preHandler: async (req: Request, reply) => {
          const email = (req.body as { email: string }).email
          const exists = await new Promise<boolean>((resolve) => setImmediate(() => resolve(taken.has(email))))
          if (exists) reply.code(409).send({ statusCode: 409, error: 'Conflict', message: 'email taken' })
        },
      }, async () => ({ created: true }))
    })
    await http(app).post('/users').send({ email: 'taken@example.com' }).expect(409)
    await http(app).post('/users').send({ email: 'new@example.com' }).expect(200, { created: true })
    await http(app).post('/users').send({ email: 'x'.repeat(51) }).expect(400)
  })

  it('§1.6-response-filter: properties that are not in the response schema are left out of the response', async () => {
    const app = await build((root) => {
      root.get('/me', {
        schema: { response: { 200: { type: 'object', properties: { name: { type: 'string' } } } } },
      }, async () => ({ name: 'ada', passwordHash: 'secret', nested: { token: 't' } }))
    })
    const res = await http(app).get('/me').expect(200)
    expect(res.text).to.equal('{"name":"ada"}')
  })
})
