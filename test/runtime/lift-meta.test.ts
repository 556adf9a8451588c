// lift(plugin, meta): fastify-plugin's name/dependencies/decorators metadata for an Enclave plugin,
// without fastify-plugin (whose types accept only a FastifyInstance function).
import { expect } from 'chai'
import request from 'supertest'
import { fp } from '../support/scope-plugin'
import { lift, type Scope } from '../../src/runtime'
import { bootError, server, thrown } from './helpers'

// What these tests decorate on a scope: Scope has no catch-all (an undeclared name does not compile).
declare module '../../src/runtime' {
  interface ScopeDecorations { db?: unknown }
}

describe('lift(plugin, meta)', () => {
  it('records meta.name for hasPlugin() and for other plugins\' dependencies, and still lifts', async () => {
    const app = server()
    const seen: Record<string, unknown> = {}
    app.register(lift(async (scope: Scope) => { scope.decorateRequest('tenant', 'acme') }, { name: 'tenant' }))
    app.register(fp(async (scope: Scope) => { seen.inside = scope.hasPlugin('tenant') }, { name: 'billing', dependencies: ['tenant'] }))
    app.get('/t', async (req) => ({ tenant: req.tenant }))
    await app.ready()
    expect(app.hasPlugin('tenant')).to.equal(true)
    expect(seen.inside).to.equal(true)
    await request(app.server).get('/t').expect(200, { tenant: 'acme' })
  })

  it('refuses at boot a lifted plugin whose meta.dependencies are not registered before it (ENC_ERR_PLUGIN_DEPENDENCY)', async () => {
    const app = server()
    app.register(lift(async () => {}, { name: 'billing', dependencies: ['db'] }))
    const error = await bootError(app)
    expect(error.code).to.equal('ENC_ERR_PLUGIN_DEPENDENCY')
    expect(error.message).to.include("plugin 'billing' registered in root depends on 'db'")
  })

  it('accepts the dependency registered first, by lift meta or by fastify-plugin', async () => {
    const app = server()
    app.register(lift(async () => {}, { name: 'db' }))
    app.register(fp(async () => {}, { name: 'cache' }))
    app.register(async (child) => { child.register(lift(async () => {}, { name: 'billing', dependencies: ['db', 'cache'] })) })
    await app.ready()
  })

  it('refuses at boot a lifted plugin whose meta.decorators are not visible (ENC_ERR_PLUGIN_MISSING_DECORATOR)', async () => {
    const app = server()
    app.decorate('db', {})
    app.register(lift(async () => {}, { name: 'uses', decorators: { fastify: ['db'], request: ['user'] } }))
    const error = await bootError(app)
    expect(error.code).to.equal('ENC_ERR_PLUGIN_MISSING_DECORATOR')
    expect(error.message).to.include("The decorator 'user' required by 'uses' is not present in Request").and.not.include("'db'")
  })

  it('adds to a fastify-plugin plugin\'s own metadata: the lift name wins, both dependency lists are checked', async () => {
    const app = server()
    const inner = fp(async () => {}, { name: 'inner', dependencies: ['a'] })
    app.register(fp(async () => {}, { name: 'a' }))
    app.register(lift(inner, { name: 'outer', dependencies: ['b'] }))
    const error = await bootError(app)
    expect(error.code).to.equal('ENC_ERR_PLUGIN_DEPENDENCY')
    expect(error.message).to.include("plugin 'outer' registered in root depends on 'b'")
  })

  it('a fastify-plugin plugin renamed by lift meta is known by both names, for hasPlugin() and dependencies', async () => {
    const app = server()
    app.register(lift(fp(async () => {}, { name: 'inner' }), { name: 'outer' }))
    app.register(fp(async () => {}, { name: 'needs-inner', dependencies: ['inner'] }))
    app.register(lift(async () => {}, { name: 'needs-outer', dependencies: ['outer'] }))
    await app.ready()
    expect([app.hasPlugin('inner'), app.hasPlugin('outer')]).to.deep.equal([true, true])
  })

  it('re-lifting a lifted plugin with meta wraps the original once, and lift() without meta keeps the same wrapper', () => {
    const plugin = async (): Promise<void> => {}
    const lifted = lift(plugin)
    expect(lift(lifted)).to.equal(lifted)
    const named = lift(lifted, { name: 'p' })
    expect(named).to.not.equal(lifted)
    expect(named.name).to.equal('plugin')
  })

  it("re-lifting a plugin lifted with meta keeps the first meta's dependencies and decorators (the new name wins)", async () => {
    const app = server()
    const library = lift(async () => {}, { name: 'library', dependencies: ['db'], decorators: { request: ['user'] } })
    app.register(lift(library, { name: 'mine' }))
    const error = await bootError(app)
    expect(error.code).to.equal('ENC_ERR_PLUGIN_DEPENDENCY')
    expect(error.message).to.include("plugin 'mine' registered in root depends on 'db'")
  })

  it('refuses meta for a class (a module class, whose lifting would drop it) at the lift() call (ENC_ERR_PLUGIN_META)', () => {
    class Billing {}
    const error = thrown(() => lift(Billing as never, { name: 'billing' }))
    expect(error.code).to.equal('ENC_ERR_PLUGIN_META')
    expect(error.message).to.include('lift(Billing, meta): a class (a module) takes no meta')
  })

  it('refuses unknown or ill-typed meta at the lift() call, with the field and a did-you-mean (ENC_ERR_PLUGIN_META)', () => {
    const plugin = async function audit(): Promise<void> {}
    const cases: Array<[unknown, string]> = [
      [{ dependecies: ['db'] }, "lift(audit, meta): 'dependecies' is not a field (did you mean 'dependencies'?)"],
      [{ fastify: '5.x' }, "'fastify' is not a field (a Fastify version range is for fastify-plugin"],
      [{ name: '' }, "name must be a non-empty string, got ''"],
      [{ dependencies: 'db' }, "dependencies must be an array of plugin names, got 'db'"],
      [{ decorators: { requests: ['user'] } }, "decorators.requests is not a field (did you mean 'request'?)"],
      [{ decorators: { reply: 'x' } }, "decorators.reply must be an array of decorator names, got 'x'"],
      [null, 'meta must be an object, got null'],
    ]
    for (const [meta, message] of cases) {
      const error = thrown(() => lift(plugin, meta as never))
      expect(error.code, message).to.equal('ENC_ERR_PLUGIN_META')
      expect(error.message).to.include(message)
    }
  })
})
