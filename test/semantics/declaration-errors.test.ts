// Issue 12 §2 "Declarations": mistakes that Fastify 3 silently ignores (or that silently turn
// validation off) are refused when declared or at boot, with a coded error naming where and a
// "did you mean" when a known name is close.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'chai'
import { knownServerOptions } from '../../src/runtime/declare/option-checks'
import { createServer, type Request, type RouteOptions, type ServerOptions } from '../../src'
import { bootError, build, server, thrown } from '../runtime/helpers'

// TODO(issue 12): un-skip once implemented (phase 2)
describe('semantics: declaration mistakes are refused with a coded error (issue 12 §2)', () => {
  describe('server options', () => {
    it('an unknown server option is refused with ENC_ERR_SERVER_INVALID_OPTION and a "did you mean"', () => {
      const error = thrown(() => createServer({ bodyLimt: 10 } as ServerOptions))
      expect(error.code).to.equal('ENC_ERR_SERVER_INVALID_OPTION')
      expect(error.message).to.contain('bodyLimt').and.contain("did you mean 'bodyLimit'")
    })

    it('every option of the ServerOptions type is known to the unknown-option check (and nothing else)', () => {
      const source = readFileSync(join(__dirname, '..', '..', '..', 'src', 'runtime', 'types.ts'), 'utf8')
      const block = source.slice(source.indexOf('export interface ServerOptions'), source.indexOf('\n}', source.indexOf('export interface ServerOptions')))
      const declared = [...block.matchAll(/^  ([a-zA-Z][a-zA-Z0-9]*)\??:/gm)].map((m) => m[1]).sort()
      expect([...knownServerOptions].sort()).to.deep.equal(declared)
    })

    it("Fastify's ajv option is accepted as the name of the validator option when its shape matches", async () => {
      const app = server({ ajv: { customOptions: { coerceTypes: 'array' } } } as ServerOptions)
      app.get('/q', { schema: { querystring: { type: 'object', properties: { ids: { type: 'array', items: { type: 'integer' } } } } } },
        async (req: Request) => ({ ids: (req.query as { ids: unknown }).ids }))
      const res = await app.inject('/q?ids=3')
      expect(res.json()).to.deep.equal({ ids: [3] })
    })

    it('an ajv option with keys the validator option does not have is refused', () => {
      const error = thrown(() => createServer({ ajv: { customOption: {} } } as ServerOptions))
      expect(error.code).to.equal('ENC_ERR_SERVER_INVALID_OPTION')
      expect(error.message).to.contain("did you mean 'customOptions'")
    })

    it('ajv.customOptions (or validator.customOptions) that is not an object is refused, not dropped', () => {
      for (const customOptions of [8, 'allErrors', null, []]) {
        const error = thrown(() => createServer({ ajv: { customOptions } } as unknown as ServerOptions))
        expect(error.code).to.equal('ENC_ERR_SERVER_INVALID_OPTION')
        expect(error.message).to.contain('customOptions').and.contain('must be an object of ajv options')
      }
      expect(thrown(() => createServer({ validator: { customOptions: 8 } } as unknown as ServerOptions)).code).to.equal('ENC_ERR_SERVER_INVALID_OPTION')
    })

    it('ajv and validator given together are refused (one name for one option)', () => {
      const error = thrown(() => createServer({ ajv: {}, validator: {} } as ServerOptions))
      expect(error.code).to.equal('ENC_ERR_SERVER_INVALID_OPTION')
    })
  })

  describe('routes', () => {
    it('an unknown route option is refused with ENC_ERR_ROUTE_INVALID and a "did you mean"', () => {
      const app = server()
      const error = thrown(() => app.route({ method: 'GET', url: '/a', handler: async () => ({}), preHandlr: [] } as unknown as RouteOptions))
      expect(error.code).to.equal('ENC_ERR_ROUTE_INVALID')
      expect(error.message).to.contain('GET /a').and.contain("did you mean 'preHandler'")
    })

    it("a route option Enclave does not know is refused when no plugin's onRoute hook reads it", () => {
      const app = server()
      const error = thrown(() => app.route({ method: 'GET', url: '/a', handler: async () => ({}), auth: 'basic' } as unknown as RouteOptions))
      expect(error.code).to.equal('ENC_ERR_ROUTE_INVALID')
      expect(error.message).to.contain('GET /a').and.contain("'auth'").and.contain('onRoute hook').and.contain('await scope.register(plugin)')
    })

    it("a route option that an onRoute hook reads is accepted and handed to the hook (plugins' own options)", async () => {
      const app = server()
      const seen: unknown[] = []
      app.addHook('onRoute', (route) => { seen.push((route as unknown as { auth?: unknown }).auth) })
      app.route({ method: 'GET', url: '/a', handler: async () => ({ ok: true }), auth: 'basic' } as unknown as RouteOptions)
      await app.ready()
      expect(seen).to.deep.equal(['basic'])
      expect((await app.inject({ url: '/a' })).statusCode).to.equal(200)
    })

    it("a plugin's route option that looks like a known one (wsHandler ~ handler) is accepted when an onRoute hook reads it by name (@fastify/websocket)", async () => {
      const app = server()
      const seen: unknown[] = []
      app.addHook('onRoute', (route) => { seen.push((route as unknown as { wsHandler?: unknown }).wsHandler) })
      const wsHandler = (): void => undefined
      app.route({ method: 'GET', url: '/a', handler: async () => ({ ok: true }), wsHandler } as unknown as RouteOptions)
      await app.ready()
      expect(seen).to.deep.equal([wsHandler])
      const unread = server()
      const error = thrown(() => unread.route({ method: 'GET', url: '/a', handler: async () => ({}), wsHandler } as unknown as RouteOptions))
      expect(error.message).to.contain("unknown route option 'wsHandler'").and.contain("did you mean 'handler'")
    })

    it('a misspelt route option is refused even when an onRoute hook copies every option (spread, Object.assign)', () => {
      for (const copy of [(route: object) => ({ ...route }), (route: object) => Object.assign({}, route)]) {
        const app = server()
        app.addHook('onRoute', (route) => { void copy(route) })
        const error = thrown(() => app.route({ method: 'GET', url: '/a', handler: async () => ({}), preHandlr: [] } as unknown as RouteOptions))
        expect(error.message).to.contain("did you mean 'preHandler'")
      }
    })

    it('a misspelt route option is refused even when an onRoute hook lists the options first and then reads them (a hook logging every route)', () => {
      const listing: Array<(route: Record<string, unknown>) => void> = [
        (route) => { const copy: Record<string, unknown> = {}; for (const key of Object.keys(route)) copy[key] = route[key] },
        (route) => { for (const key of Reflect.ownKeys(route)) void route[key as string] },
        (route) => { void JSON.stringify(route) },
      ]
      for (const hook of listing) {
        const app = server()
        app.addHook('onRoute', (route) => hook(route as unknown as Record<string, unknown>))
        const error = thrown(() => app.route({ method: 'GET', url: '/a', handler: async () => ({}), logLevl: 'debug' } as unknown as RouteOptions))
        expect(error.message).to.contain("did you mean 'logLevel'")
      }
    })

    it('a near miss of an option that protects the route (a hook, schema, bodyLimit) is refused even when an onRoute hook reads it by name', () => {
      for (const typo of ['preHandlr', 'onReqest', 'bodyLimt', 'shema']) {
        const app = server()
        app.addHook('onRoute', (route) => { void (route as unknown as Record<string, unknown>)[typo] })
        const error = thrown(() => app.route({ method: 'GET', url: '/a', handler: async () => ({}), [typo]: [] } as unknown as RouteOptions))
        expect(error.code, typo).to.equal('ENC_ERR_ROUTE_INVALID')
        expect(error.message, typo).to.contain(`unknown route option '${typo}'`).and.contain('did you mean')
      }
    })

    it('a misspelt route option is refused even when an onRoute hook reads every option', () => {
      const app = server()
      app.addHook('onRoute', (route) => { void { ...route } })
      const error = thrown(() => app.route({ method: 'GET', url: '/a', handler: async () => ({}), preHandlr: [] } as unknown as RouteOptions))
      expect(error.message).to.contain("did you mean 'preHandler'")
    })

    it('an empty url is refused', () => {
      const error = thrown(() => server().route({ method: 'GET', url: '', handler: async () => ({}) }))
      expect(error.code).to.equal('ENC_ERR_ROUTE_INVALID')
      expect(error.message).to.contain('url')
    })

    it('a handler that is not a function is refused, shorthand forms included', () => {
      expect(thrown(() => server().get('/a', { handler: 'nope' } as never)).code).to.equal('ENC_ERR_ROUTE_INVALID')
      expect(thrown(() => server().get('/a', {}, 42 as never)).code).to.equal('ENC_ERR_ROUTE_INVALID')
    })

    it('a route error handler that is not a function is refused', () => {
      const error = thrown(() => server().get('/a', { errorHandler: 'x' as never }, async () => ({})))
      expect(error.code).to.equal('ENC_ERR_ROUTE_INVALID')
      expect(error.message).to.contain('errorHandler')
    })
  })

  describe('schemas', () => {
    it('an unknown route-schema part (querystrin) is refused at boot instead of turning validation off', async () => {
      const app = server()
      app.get('/a', { schema: { querystrin: { type: 'object', required: ['q'] } } as never }, async () => ({}))
      const error = await bootError(app)
      expect(error.code).to.equal('ENC_ERR_SCH_UNKNOWN_PART')
      expect(error.message).to.contain('GET /a').and.contain("did you mean 'querystring'")
    })

    it('OpenAPI annotations at the top of a route schema (description, tags, summary) are accepted', async () => {
      const app = await build((root) => {
        root.get('/a', { schema: { description: 'd', summary: 's', tags: ['t'], querystring: { q: { type: 'string' } } } as never }, async () => ({}))
      })
      expect((await app.inject('/a')).statusCode).to.equal(200)
    })

    it('an unknown JSON Schema keyword (requird) in a route schema is refused at boot with a "did you mean"', async () => {
      const app = server()
      app.post('/a', { schema: { body: { type: 'object', requird: ['name'], properties: { name: { type: 'string' } } } } }, async () => ({}))
      const error = await bootError(app)
      expect(error.code).to.equal('ENC_ERR_SCH_UNKNOWN_KEYWORD')
      expect(error.message).to.contain('POST /a').and.contain('requird').and.contain("did you mean 'required'")
    })

    it('a `__proto__` key in a schema read from JSON is refused at boot as the unknown keyword it is, not dropped from the copy', async () => {
      const app = server()
      const body = JSON.parse('{"type":"object","properties":{"name":{"type":"string","__proto__":{"minLength":3}}}}') as never
      app.post('/a', { schema: { body } }, async () => ({}))
      const error = await bootError(app)
      expect(error.code).to.equal('ENC_ERR_SCH_UNKNOWN_KEYWORD')
      expect(error.message).to.contain('POST /a').and.contain('__proto__')
    })

    it('an unknown keyword deep in a shared schema is refused at boot', async () => {
      const app = server()
      app.addSchema({ $id: 'user', type: 'object', properties: { name: { type: 'string', maxLenght: 3 } } })
      const error = await bootError(app)
      expect(error.code).to.equal('ENC_ERR_SCH_UNKNOWN_KEYWORD')
      expect(error.message).to.contain("'user'").and.contain("did you mean 'maxLength'")
    })

    it('properties named like typos are data, not keywords: no false alarm', async () => {
      const app = await build((root) => {
        root.post('/a', { schema: { body: { type: 'object', properties: { requird: { type: 'string' }, 'x-note': { type: 'string' } } } } }, async () => ({}))
      })
      expect((await app.inject({ method: 'POST', url: '/a', payload: { requird: 'x' } })).statusCode).to.equal(200)
    })

    it('validator.customKeywords accepts custom keywords; annotations and x- extensions are always accepted', async () => {
      const app = await build((root) => {
        root.post('/a', {
          schema: { body: { type: 'object', sensitive: true, 'x-internal': true, description: 'd', examples: [{}], properties: {} } },
        }, async () => ({}))
      }, { validator: { customKeywords: ['sensitive'] } } as ServerOptions)
      expect((await app.inject({ method: 'POST', url: '/a', payload: {} })).statusCode).to.equal(200)
    })

    it('validator.customKeywords: true turns the unknown-keyword check off', async () => {
      const app = await build((root) => {
        root.post('/a', { schema: { body: { type: 'object', anything: 1 } } }, async () => ({}))
      }, { validator: { customKeywords: true } } as ServerOptions)
      expect((await app.inject({ method: 'POST', url: '/a', payload: {} })).statusCode).to.equal(200)
    })

    it('keywords added by validator plugins (ajv-errors errorMessage) are known', async () => {
      const ajvErrors = require('ajv-errors')
      const app = await build((root) => {
        root.post('/a', { schema: { body: { type: 'object', required: ['a'], errorMessage: { required: { a: 'give a' } } } } }, async () => ({}))
      }, { validator: { customOptions: { jsonPointers: true, allErrors: true }, plugins: [ajvErrors] } })
      expect((await app.inject({ method: 'POST', url: '/a', payload: {} })).json()).to.include({ message: 'body give a' })
    })

    it('an async schemaErrorFormatter is refused when declared', () => {
      const error = thrown(() => server().setSchemaErrorFormatter((async () => new Error('x')) as never))
      expect(error.code).to.equal('ENC_ERR_ROUTE_INVALID')
      expect(error.message).to.contain('synchronous')
      expect(thrown(() => createServer({ schemaErrorFormatter: (async () => new Error('x')) as never })).code).to.equal('ENC_ERR_SERVER_INVALID_OPTION')
    })

    it('a validator compiler that returns undefined means "no validation for that part" (Fastify)', async () => {
      const app = await build((root) => {
        root.setValidatorCompiler(({ httpPart }) => httpPart === 'body' ? (undefined as never) : () => true)
        root.post('/a', { schema: { body: { type: 'object', required: ['x'] } } }, async (req: Request) => ({ body: req.body }))
      })
      const res = await app.inject({ method: 'POST', url: '/a', payload: { y: 1 } })
      expect(res.statusCode).to.equal(200)
      expect(res.json()).to.deep.equal({ body: { y: 1 } })
    })

    it('fluent-json-schema style objects (with valueOf()) are accepted wherever a schema is', async () => {
      const fluent = (schema: object): object => ({ isFluentSchema: true, valueOf: () => schema })
      const app = await build((root) => {
        root.addSchema(fluent({ $id: 'named', type: 'object', required: ['name'], properties: { name: { type: 'string' } } }) as never)
        root.post('/a', {
          schema: {
            body: { $ref: 'named#' },
            querystring: fluent({ type: 'object', properties: { n: { type: 'integer' } } }),
            response: { 200: fluent({ type: 'object', properties: { n: { type: 'integer' } } }) },
          } as never,
        }, async (req: Request) => ({ n: (req.query as { n: number }).n, hidden: true }))
      })
      expect((await app.inject({ method: 'POST', url: '/a?n=2', payload: {} })).statusCode).to.equal(400)
      const ok = await app.inject({ method: 'POST', url: '/a?n=2', payload: { name: 'x' } })
      expect(ok.json()).to.deep.equal({ n: 2 })
    })
  })

  describe('parsers and not-found handlers', () => {
    it('an unknown parseAs is refused with ENC_ERR_CTP_INVALID', () => {
      const error = thrown(() => server().addContentTypeParser('text/csv', { parseAs: 'strin' as never }, () => 1))
      expect(error.code).to.equal('ENC_ERR_CTP_INVALID')
      expect(error.message).to.contain("did you mean 'string'")
    })

    it('a second setNotFoundHandler in one scope is refused', () => {
      const app = server()
      app.setNotFoundHandler(async () => ({}))
      const error = thrown(() => app.setNotFoundHandler(async () => ({})))
      expect(error.code).to.equal('ENC_ERR_NOT_FOUND_DUPLICATE')
      expect(error.message).to.contain('root')
    })
  })
})
