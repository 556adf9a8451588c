import 'reflect-metadata'
import { expect } from 'chai'
import { createServer, lift, type Scope } from '../../src/runtime'
import { buildNotesApp } from './notes-app'

describe('introspection: printRoutes, printTree and explain read the booted tree (issue 14 §3)', () => {
  let app: Scope
  before(async () => { app = await buildNotesApp({ lift: (m) => lift(m as never) }) })
  after(async () => { await app.close() })

  describe('printRoutes', () => {
    it('prints every route as a tree of path segments with its methods, leaving out implicit HEAD routes', () => {
      expect(app.printRoutes()).to.equal([
        '└── /',
        '    ├── admin',
        '    │   ├── notes',
        '    │   │   └── :id (DELETE)',
        '    │   └── stats (GET)',
        '    ├── docs (GET)',
        '    │   ├── (trailing /) (GET)',
        '    │   └── :file (GET)',
        '    ├── notes (GET, POST)',
        '    │   └── :id (PUT)',
        '    └── openapi.json (GET)',
        '',
      ].join('\n'))
    })

    it('gives the route models with { json: true }, implicit HEAD routes marked as such', () => {
      const routes = app.printRoutes({ json: true })
      expect(routes.map((r) => `${r.method} ${r.url}${r.implicit ? ' (implicit)' : ''}`)).to.include.members(['GET /notes', 'HEAD /notes (implicit)', 'POST /notes', 'PUT /notes/:id'])
      expect(JSON.parse(JSON.stringify(routes))).to.deep.equal(routes)
    })
  })

  describe('printRoutes options (Fastify 3.27.4)', () => {
    const build = async () => {
      const server = createServer()
      server.addHook('onRequest', async function authHook() {})
      server.get('/notes', async () => 1)
      server.post('/notes', { preHandler: async function check() {} }, async () => 1)
      server.get('/notes/:id', async () => 1)
      server.get('/users', async () => 1)
      await server.ready()
      return server
    }

    it("printRoutes({ includeHooks: true }) prints each node's hooks as Fastify 3 does, a method's own lines marked when the methods of a segment differ", async () => {
      const server = await build()
      expect(server.printRoutes({ includeHooks: true })).to.equal([
        '└── /',
        '    ├── notes (GET, POST)',
        '    │   • GET (onRequest) ["authHook()"]',
        '    │   • POST (onRequest) ["authHook()"]',
        '    │   • POST (preHandler) ["check()"]',
        '    │   └── :id (GET)',
        '    │       • (onRequest) ["authHook()"]',
        '    └── users (GET)',
        '        • (onRequest) ["authHook()"]',
        '',
      ].join('\n'))
      await server.close()
    })

    it('printRoutes({ commonPrefix: false }) and includeMeta print Fastify 3.27.4\'s text, checked against fastify3 on the same routes (prefixes, params, wildcards, methods, constraints, hooks, logLevel, an error handler; ignoreTrailingSlash too)', async () => {
      const declare = (f: any): void => {
        f.get('/', async () => 1)
        f.get('/hello/world', async () => 1)
        f.post('/hello/world', async () => 1)
        f.get('/hello/:id', async () => 1)
        f.get('/hello/:id/edit', { constraints: { version: '1.2.0' } }, async () => 1)
        f.get('/static/*', async () => 1)
        f.get('/a/b/c/d', async () => 1)
        f.register(async (c: any) => { c.get('/', async () => 1); c.get('/x', { logLevel: 'warn', onRequest: async function auth() {} }, async () => 1) }, { prefix: '/v1' })
        f.get('/foo/:a-:b', async () => 1)
        f.route({ method: ['PUT', 'DELETE'], url: '/hello/world', handler: async () => 1 })
        f.get('/host', { constraints: { host: 'ex.com' } }, async () => 1)
        f.register(async (c: any) => {
          c.setErrorHandler(function myHandler(e: Error, _q: unknown, r: any) { r.send(e) })
          c.addHook('preHandler', async function ph() {})
          c.get('/e', async () => 1)
        }, { prefix: '/err' })
      }
      const catchAll = (f: any): void => { f.get('*', async () => 1); f.get('/only/deep/path', async () => 1); f.get('/only/other', async () => 1) }
      const variants = [{ commonPrefix: false }, { commonPrefix: false, includeHooks: true }, { commonPrefix: false, includeMeta: true },
        { commonPrefix: false, includeMeta: ['logLevel', 'onRequest', 'errorHandler'] }, { commonPrefix: false, includeHooks: true, includeMeta: ['logLevel'] }]
      for (const [routes, options] of [[declare, {}], [declare, { ignoreTrailingSlash: true }], [catchAll, {}]] as const) {
        const fastify3 = require('fastify3')({ logger: false, ...options })
        const enclave = createServer({ ...options })
        routes(fastify3)
        routes(enclave)
        await Promise.all([fastify3.ready(), enclave.ready()])
        for (const variant of variants) {
          expect(enclave.printRoutes({ ...variant } as never), JSON.stringify([options, variant])).to.equal(fastify3.printRoutes({ ...variant }))
        }
        await Promise.all([fastify3.close(), enclave.close()])
      }
      const server = await build()
      expect(server.printRoutes({ commonPrefix: false, includeMeta: ['logLevel'] })).to.contain('└── /')
      await server.close()
    })

    it('includeMeta on the default tree prints Fastify 3\'s store keys under each segment: the error handler, logLevel and hooks', async () => {
      const server = createServer()
      server.get('/a', { logLevel: 'warn', onRequest: async function auth() {} }, async () => 1)
      await server.ready()
      expect(server.printRoutes({ includeMeta: true })).to.equal([
        '└── /',
        '    └── a (GET)',
        '        • (errorHandler) "defaultErrorHandler()"',
        '        • (logLevel) "warn"',
        '        • (onRequest) ["auth()"]',
        '',
      ].join('\n'))
      await server.close()
    })

    it('printRoutes() takes includeMeta: false as off and a symbol key as one with nothing to print, as Fastify 3 types them (boolean | (string | symbol)[])', async () => {
      const server = createServer()
      server.get('/a', { logLevel: 'warn', onRequest: async function auth() {} }, async () => 1)
      await server.ready()
      expect(server.printRoutes({ includeMeta: false })).to.equal(server.printRoutes())
      expect(server.printRoutes({ commonPrefix: false, includeMeta: false })).to.equal(server.printRoutes({ commonPrefix: false }))
      expect(server.printRoutes({ includeHooks: true, includeMeta: false })).to.equal(server.printRoutes({ includeHooks: true }))
      expect(server.printRoutes({ includeMeta: [Symbol('store'), 'logLevel'] })).to.equal(server.printRoutes({ includeMeta: ['logLevel'] }))
      await server.close()
    })

    it('printRoutes() refuses commonPrefix: true, an includeMeta that is not a boolean or a list of names, an unknown option or a non-boolean with ENC_ERR_INSPECT_INVALID_OPTIONS instead of ignoring it', async () => {
      const server = await build()
      const cases: Array<[unknown, string]> = [
        [{ commonPrefix: true }, 'commonPrefix: true'],
        [{ includeMeta: 'logLevel' }, 'includeMeta must be a boolean or an array of key names'],
        [{ includeMeta: [1] }, 'includeMeta must be a boolean or an array of key names'],
        [{ includeHook: true }, "unknown option 'includeHook' (did you mean 'includeHooks'?)"],
        [{ includeHooks: 'yes' }, 'includeHooks must be a boolean'],
      ]
      for (const [options, text] of cases) {
        let error: (Error & { code?: string }) | undefined
        try { (server.printRoutes as (o: unknown) => unknown)(options) } catch (e) { error = e as Error & { code?: string } }
        expect(error?.code, JSON.stringify(options)).to.equal('ENC_ERR_INSPECT_INVALID_OPTIONS')
        expect(error?.message, JSON.stringify(options)).to.contain(text)
      }
      await server.close()
    })
  })

  describe('printTree', () => {
    it('shows each scope with its modules, providers, decorators, hooks, schemas and error handler, each with its origin', () => {
      const text = app.printTree()
      expect(text).to.include('AppModule  (prefix /, scope AppModule)')
      expect(text).to.include('│ module: AppModule > lift(AuditModule)')
      expect(text).to.include('│ request decorator: tenant  [AppModule]')
      // The lifted module's hook lives in its parent's scope, labelled with the lifted module.
      expect(text).to.include('│ hook onRequest: audit  [AppModule > lift(AuditModule)]')
      expect(text).to.include('│ schema: note  [AppModule]')
      expect(text).to.include('├── NotesModule  (prefix /notes, scope AppModule > NotesModule)')
      expect(text).to.include('provider: NotesRepository  [AppModule > NotesModule]')
      expect(text).to.include('error handler: onError (answers 422)  [AppModule > NotesModule]')
      // bearerAuth is a lifted plugin listed by AdminModule: its hook is in AdminModule's scope, from the plugin.
      expect(text).to.match(/AdminModule {2}\(prefix \/admin[^\n]*\n[^\n]*module: AppModule > AdminModule\n[^\n]*hook onRequest: bearerAuthHook {2}\[plugin bearerAuth\]/)
    })

    it('gives the scope tree as JSON with { json: true }', () => {
      const root = app.printTree({ json: true })
      expect(root.path).to.equal('AppModule')
      expect(root.children.map((c) => c.path)).to.deep.equal(['AppModule > NotesModule', 'AppModule > AdminModule', 'AppModule > openapiRoute'])
      const notes = root.children[0]
      expect(notes.modules).to.deep.equal([{ path: 'AppModule > NotesModule', providers: ['NotesRepository'] }])
      expect(notes.errorHandler).to.include({ fn: 'onError', scope: 'AppModule > NotesModule', origin: 'AppModule > NotesModule' })
      expect(Object.keys(notes.errorHandler!.responses!)).to.deep.equal(['422'])
      expect(root.schemas.map((s) => s.name)).to.deep.equal(['note', 'newNote'])
    })
  })

  describe('explain', () => {
    it('lists the effective hook chain in order with origins, and the security the route gets', () => {
      const admin = app.explain('DELETE /admin/notes/:id', { json: true })
      expect(admin.hooks.map((h) => `${h.name} ${h.fn} [${h.origin}]`)).to.deep.equal([
        'onRequest audit [AppModule > lift(AuditModule)]',
        'onRequest bearerAuthHook [plugin bearerAuth]',
      ])
      expect(admin.security.map((s) => `${s.name} ${s.status}`)).to.deep.equal(['bearerAuth 401'])
      expect(app.explain('GET /notes', { json: true }).security).to.deep.equal([])
    })

    it('names the validator per part and the serializer per status, the error handlers, decorators, schemas and providers', () => {
      const put = app.explain('PUT /notes/:id', { json: true })
      expect(Object.keys(put.validators)).to.deep.equal(['params', 'body', 'headers'])
      expect(Object.keys(put.serializers)).to.deep.equal(['200', '4xx'])
      expect(put.handler).to.equal('NotesController.update')
      expect(put.errorHandlers.map((e) => e.fn)).to.deep.equal(['onError'])
      expect(put.visibleDecorators.request.map((d) => d.name)).to.deep.equal(['tenant'])
      expect(put.visibleSchemas.map((d) => d.name)).to.deep.equal(['note', 'newNote'])
      expect(put.providers).to.deep.equal([{ name: 'NotesRepository', scope: 'AppModule > NotesModule', origin: 'AppModule > NotesModule' }])
      const text = app.explain('PUT /notes/:id')
      expect(text).to.include('PUT /notes/:id\n  scope: AppModule > NotesModule\n  declared by: AppModule > NotesModule (handler NotesController.update)')
      expect(text).to.include('    1. onRequest audit  [AppModule > lift(AuditModule), scope AppModule]')
      expect(text).to.include('    4xx: default serializer (fast-json-stringify, visible shared schemas)  [default]')
      expect(text).to.include('  providers: NotesRepository [AppModule > NotesModule]')
    })

    it('shows the body validator for every method, GET too: a body schema is never bypassed (issue 12 §1)', async () => {
      const server = createServer()
      server.route({ method: ['GET', 'POST'], url: '/both', schema: { body: { type: 'object' } }, handler: async () => ({}) })
      await server.ready()
      expect(Object.keys(server.explain('GET /both', { json: true }).validators)).to.deep.equal(['body'])
      expect(Object.keys(server.explain('POST /both', { json: true }).validators)).to.deep.equal(['body'])
      await server.close()
    })

    it('attributes compilers and route-option hooks to where they were set', async () => {
      const server = createServer()
      server.register(async function jsonOnly(scope) {
        scope.setValidatorCompiler(function strictCompiler() { return () => true })
        scope.addHook('preHandler', async function scopeHook() {})
        scope.post('/x', { schema: { body: { type: 'object' } }, preHandler: async function routeHook() {} }, async () => ({}))
      }, { prefix: '/p' })
      await server.ready()
      const route = server.explain('POST /p/x', { json: true })
      expect(route.validators.body).to.deep.equal({ fn: 'strictCompiler', scope: 'root > jsonOnly', origin: 'plugin jsonOnly' })
      expect(route.hooks.map((h) => `${h.fn}${h.routeOption ? ' (route option)' : ''} [${h.origin}]`)).to.deep.equal(['scopeHook [plugin jsonOnly]', 'routeHook (route option) [plugin jsonOnly]'])
      await server.close()
    })

    it('refuses an unknown route with a coded error that suggests the nearest declared ones', () => {
      expect(() => app.explain('POST /notes/:idd')).to.throw(/no route has this method and declared path\. Did you mean 'PUT \/notes\/:id'/)
      // A controller no module lists is served by nobody and is no boot error: explain() says where to look.
      expect(() => app.explain('POST /notes/:idd')).to.throw(/a module of this app lists that controller in its controllers/)
        .with.property('code', 'ENC_ERR_INSPECT_ROUTE_NOT_FOUND')
      expect(() => app.explain('/notes')).to.throw().with.property('code', 'ENC_ERR_INSPECT_ROUTE_NOT_FOUND')
    })
  })

  it('throws ENC_ERR_INSPECT_NOT_BOOTED before boot, and works from an onReady hook', async () => {
    const server = createServer()
    server.get('/a', async () => ({}))
    expect(() => server.printRoutes()).to.throw(/after `await app.ready\(\)`/).with.property('code', 'ENC_ERR_INSPECT_NOT_BOOTED')
    expect(() => server.openapi()).to.throw().with.property('code', 'ENC_ERR_INSPECT_NOT_BOOTED')
    let printed = ''
    server.addHook('onReady', async function (this: Scope) { printed = this.printRoutes() })
    await server.ready()
    expect(printed).to.equal('└── /\n    └── a (GET)\n')
    await server.close()
  })
})
