// Spec §3.3 "Scoping rules (encapsulation)", rules 1 to 7, over HTTP.
import { expect } from 'chai'
import { bearerAuth, lift, type Request, type Scope } from '../../src'
import { bootError, build, http, server } from './helpers'

declare module '../../src/runtime' {
  interface ScopeDecorations { childUtility?: unknown; greet?: unknown; rootUtility?: unknown }
  interface RequestDecorations { rootValue: string; parentValue: string; fromRootPlugin: string; childValue: string; user: unknown; secret: string }
}

const nameOf = (scope: Scope | null): string | null => scope === null ? null : scope.path

describe('conformance §3.3: scoping rules', () => {
  it('§3.3.1-contexts: the root context holds root plugins, and each plugin creates a child context', async () => {
    const seen: Record<string, { self: Scope; parent: string | null }> = {}
    const app = await build((root) => {
      root.register(async function users(scope: Scope) {
        seen.users = { self: scope, parent: nameOf(scope.parent) }
        scope.register(async function admin(inner: Scope) {
          seen.admin = { self: inner, parent: nameOf(inner.parent) }
          inner.get('/admin', async () => ({ path: inner.path }))
        })
      })
    })
    expect(seen.users.self).to.not.equal(app)
    expect(seen.users.parent).to.equal(app.path)
    expect(seen.admin.parent).to.equal(seen.users.self.path)
    await http(app).get('/admin').expect(200, { path: 'root > users > admin' })
  })

  it('§3.3.2-descendants-see-ancestors: decorators, hooks, plugins and shared schemas of the root and every ancestor reach a descendant', async () => {
    const app = await build((root) => {
      root.decorateRequest('rootValue', 'r')
      root.decorate('rootUtility', () => 'utility')
      root.addHook('onRequest', async (_req: Request, reply) => { reply.header('x-root-hook', 'ran') })
      root.addSchema({ $id: 'rootSchema', type: 'object', required: ['n'], properties: { n: { type: 'integer' } } })
      root.register(lift(async (shared: Scope) => { shared.decorateRequest('fromRootPlugin', 'p') }))
      root.register(async (parent: Scope) => {
        parent.decorateRequest('parentValue', 'a')
        parent.addHook('onRequest', async (_req: Request, reply) => { reply.header('x-parent-hook', 'ran') })
        parent.register(async (child: Scope) => {
          child.post('/deep', { schema: { body: { $ref: 'rootSchema#' } } }, async (req: Request) => ({
            rootValue: req.rootValue, parentValue: req.parentValue, fromRootPlugin: req.fromRootPlugin,
            utility: (child.rootUtility as () => string)(),
          }))
        })
      })
    })
    const res = await http(app).post('/deep').send({ n: 1 })
      .expect(200, { rootValue: 'r', parentValue: 'a', fromRootPlugin: 'p', utility: 'utility' })
    expect(res.headers['x-root-hook']).to.equal('ran')
    expect(res.headers['x-parent-hook']).to.equal('ran')
    await http(app).post('/deep').send({}).expect(400)
  })

  it('§3.3.3-ancestors-blind: an ancestor has no access to what a descendant registers', async () => {
    let hookRuns = 0
    let rootSees: Record<string, unknown> = {}
    const app = await build((root) => {
      root.register(async (child: Scope) => {
        child.decorateRequest('childValue', 'c')
        child.decorate('childUtility', 'u')
        child.addHook('onRequest', async () => { hookRuns++ })
        child.addSchema({ $id: 'childSchema', type: 'object' })
      })
      root.get('/root', async (req: Request) => {
        rootSees = { childValue: req.childValue, utility: root.childUtility, hasDecorator: root.hasDecorator('childUtility'), schemas: Object.keys(root.getSchemas()) }
        return { ok: true }
      })
    })
    await http(app).get('/root').expect(200)
    expect(hookRuns).to.equal(0)
    expect(rootSees).to.deep.equal({ childValue: undefined, utility: undefined, hasDecorator: false, schemas: [] })

    // A root route cannot reference a schema that only a child added.
    const refApp = server()
    refApp.register(async (child: Scope) => { child.addSchema({ $id: 'childSchema', type: 'object' }) })
    refApp.post('/root', { schema: { body: { $ref: 'childSchema#' } } }, async () => ({}))
    const error = await bootError(refApp)
    expect(error.code).to.equal('ENC_ERR_SCH_REF_NOT_VISIBLE')
    expect(error.message).to.contain('childSchema')
  })

  // README differences: Fastify 3.27.4 resolves such a $ref through the ajv instance its plugins
  // share (differential seed 49 case 237); the spec's encapsulation refuses it.
  it('§3.3.4: a route cannot reference a schema that only a sibling plugin (or its child) added, whatever the load order', async () => {
    for (const siblingFirst of [true, false]) {
      const app = server()
      const sibling = async (s: Scope): Promise<void> => { s.register(async (inner: Scope) => { inner.addSchema({ $id: 'siblings', type: 'object' }) }, { prefix: '/x' }) }
      const routes = async (s: Scope): Promise<void> => { s.put('/a', { schema: { body: { $ref: 'siblings#' } } }, async () => ({})) }
      if (siblingFirst) app.register(sibling, { prefix: '/s' })
      app.register(routes, { prefix: '/api' })
      if (!siblingFirst) app.register(sibling, { prefix: '/s' })
      const error = await bootError(app)
      expect(error.code).to.equal('ENC_ERR_SCH_REF_NOT_VISIBLE')
      expect(error.message).to.contain("'siblings'").and.contain('PUT /api/a')
    }
  })

  it('§3.3.4-getSchemas: addSchema is encapsulated; getSchemas() returns the scope\'s and its ancestors\' schemas, never its descendants\'', async () => {
    const views: Record<string, string[]> = {}
    const app = await build((root) => {
      root.addSchema({ $id: 'r', type: 'object' })
      root.register(async function a(scope: Scope) {
        scope.addSchema({ $id: 'a', type: 'object' })
        scope.register(async function a1(inner: Scope) {
          inner.addSchema({ $id: 'a1', type: 'object' })
          inner.get('/a1', async () => ({ schemas: Object.keys(inner.getSchemas()).sort(), a: inner.getSchema('a')?.$id ?? null }))
        })
        scope.get('/a', async () => ({ schemas: Object.keys(scope.getSchemas()).sort(), a1: scope.getSchema('a1') ?? null }))
      })
      root.register(async function b(scope: Scope) {
        scope.addSchema({ $id: 'b', type: 'object' })
        scope.get('/b', async () => ({ schemas: Object.keys(scope.getSchemas()).sort() }))
      })
      root.get('/root', async () => ({ schemas: Object.keys(root.getSchemas()).sort() }))
    })
    views.root = (await http(app).get('/root').expect(200)).body.schemas
    expect(views.root).to.deep.equal(['r'])
    await http(app).get('/a').expect(200, { schemas: ['a', 'r'], a1: null })
    await http(app).get('/a1').expect(200, { schemas: ['a', 'a1', 'r'], a: 'a' })
    await http(app).get('/b').expect(200, { schemas: ['b', 'r'] })
  })

  it('§3.3.5-lift: a lifted plugin shares what it registers with its parent; the parent and its routes use its decorators', async () => {
    const app = await build((root) => {
      root.register(async (parent: Scope) => {
        parent.register(lift(async (plugin: Scope) => {
          plugin.decorateRequest('user', 'ada')
          plugin.decorate('greet', (name: string) => `hello ${name}`)
          plugin.addHook('preHandler', async (_req: Request, reply) => { reply.header('x-lifted-hook', 'ran') })
          plugin.addSchema({ $id: 'liftedSchema', type: 'object', required: ['n'] })
        }))
        parent.post('/parent', { schema: { body: { $ref: 'liftedSchema#' } } }, async (req: Request) => ({
          user: req.user, greeting: (parent.greet as (n: string) => string)('you'),
        }))
      })
    })
    const res = await http(app).post('/parent').send({ n: 1 }).expect(200, { user: 'ada', greeting: 'hello you' })
    expect(res.headers['x-lifted-hook']).to.equal('ran')
    await http(app).post('/parent').send({}).expect(400)
  })

  it('§3.3.6-decorator-visibility: a decorator is visible in its context and descendants; elsewhere it reads undefined, without error', async () => {
    const app = await build((root) => {
      root.register(async (a: Scope) => {
        a.decorateRequest('secret', 's')
        a.get('/a', async (req: Request) => ({ secret: req.secret }))
        a.register(async (a1: Scope) => { a1.get('/a/child', async (req: Request) => ({ secret: req.secret })) })
      })
      root.register(async (b: Scope) => {
        b.get('/b', async (req: Request) => ({ secretIsUndefined: req.secret === undefined, inRequest: 'secret' in req }))
      })
      root.get('/root', async (req: Request) => ({ secretIsUndefined: req.secret === undefined }))
    })
    await http(app).get('/a').expect(200, { secret: 's' })
    await http(app).get('/a/child').expect(200, { secret: 's' })
    await http(app).get('/b').expect(200, { secretIsUndefined: true, inRequest: false })
    await http(app).get('/root').expect(200, { secretIsUndefined: true })
  })

  it('§3.3.7-auth-scope: an authentication plugin applies only to the routes of its context and descendants', async () => {
    const app = await build((root) => {
      root.get('/open-root', async () => ({ open: true }))
      root.register(async (secured: Scope) => {
        secured.register(bearerAuth({ keys: ['k1'] }))
        secured.get('/secured', async () => ({ secured: true }))
        secured.register(async (below: Scope) => { below.get('/secured/below', async () => ({ below: true })) })
      })
      root.register(async (sibling: Scope) => { sibling.get('/open-sibling', async () => ({ open: true })) })
    })
    await http(app).get('/secured').expect(401)
    await http(app).get('/secured/below').expect(401)
    await http(app).get('/secured').set('authorization', 'Bearer k1').expect(200, { secured: true })
    await http(app).get('/secured/below').set('authorization', 'Bearer k1').expect(200, { below: true })
    await http(app).get('/open-root').expect(200, { open: true })
    await http(app).get('/open-sibling').expect(200, { open: true })
  })
})
