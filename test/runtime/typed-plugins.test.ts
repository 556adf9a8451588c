// Typed, scope-aware plugins (Elysia's yardstick): lift(plugin, { name, provides }) is checked at
// run time too. The types are test/types/fixtures/typed-plugins.ts; these are the values and the
// boot errors that make those types true.
import { expect } from 'chai'
import { lift, type, type Scope } from '../../src/runtime'
import { bootError, server, thrown } from './helpers'

interface Space { id: string }

const spacePlugin = lift(async (scope, options: { id: string }) => {
  scope.decorateRequest('space', null)
  scope.decorateReply('quota', 10)
  scope.addHook('onRequest', async (request) => { request.space = { id: options.id } })
}, { name: 'space', provides: { request: { space: type<Space>() }, reply: { quota: type<number>() } } })

describe('typed plugins: lift(plugin, { name, provides })', () => {
  it('serves the promised decorations on the scope register() returns, and leaves them undefined on a sibling scope', async () => {
    const app = server()
    app.register(async (child: Scope) => {
      child.register(spacePlugin, { id: 'acme' }).get('/in', (request, reply) => ({ space: request.space.id, quota: reply.quota }))
    })
    app.register(async (sibling: Scope) => {
      sibling.get('/out', (request) => ({ seen: (request as unknown as { space?: unknown }).space !== undefined }))
    })
    await app.ready()
    expect((await app.inject('/in')).json()).to.deep.equal({ space: 'acme', quota: 10 })
    expect((await app.inject('/out')).json()).to.deep.equal({ seen: false })
    await app.close()
  })

  it('register() returns the very scope it was called on, typed or not', async () => {
    const app = server()
    expect(app.register(spacePlugin, { id: 'x' })).to.equal(app)
    await app.close()
  })

  it('fails boot naming the plugin, where it is registered, the decoration and the fix when a promised decoration is not made (ENC_ERR_PLUGIN_PROVIDES)', async () => {
    const forgetful = lift(async (scope) => { scope.decorateRequest('space', null) },
      { name: 'forgetful', provides: { request: { space: type<Space>() }, reply: { quota: type<number>() } } })
    const app = server()
    app.register(async (child: Scope) => { child.register(forgetful) }, { prefix: '/v1' })
    const error = await bootError(app)
    expect(error.code).to.equal('ENC_ERR_PLUGIN_PROVIDES')
    expect(error.message).to.include("Plugin 'forgetful' (registered in root > ")
    expect(error.message).to.include('promised reply.quota in its provides but did not decorate it')
    expect(error.message).to.include("call scope.decorateReply('quota', ...)")
  })

  it('counts a decoration made by a lifted plugin the typed plugin registers itself', async () => {
    const helper = lift(async (scope) => { scope.decorateRequest('space', null) }, { name: 'space-maker', provides: { request: { space: type<Space>() } } })
    const outer = lift(async (scope) => { scope.register(helper) }, { name: 'outer', provides: { request: { space: type<Space>() } } })
    const app = server()
    app.register(outer)
    await app.ready()
    await app.close()
  })

  it('reports a failure inside the plugin rather than the promise it kept the plugin from keeping', async () => {
    const failing = lift(async () => { throw new Error('db down') }, { name: 'failing', provides: { request: { space: type<Space>() } } })
    const app = server()
    app.register(failing)
    const error = await bootError(app)
    expect(error.message).to.equal('db down')
  })

  it('refuses provides without a name, or of the wrong shape, at the lift() call (ENC_ERR_PLUGIN_META)', () => {
    const plugin = async function audit(): Promise<void> {}
    const cases: Array<[unknown, string]> = [
      [{ provides: { request: { space: type<Space>() } } }, "lift(audit, meta): provides needs a name (lift(plugin, { name: 'workspace', provides }))"],
      [{ name: 'a', provides: [] }, 'provides must be an object, got an array'],
      [{ name: 'a', provides: { requests: {} } }, "provides.requests is not a field (did you mean 'request'?)"],
      [{ name: 'a', provides: { request: ['space'] } }, 'provides.request must be an object of names, each given type<T>(), got an array'],
    ]
    for (const [meta, message] of cases) {
      const error = thrown(() => lift(plugin, meta as never))
      expect(error.code, message).to.equal('ENC_ERR_PLUGIN_META')
      expect(error.message).to.include(message)
    }
  })

  it('gives the scope register() returned the scope decorations a plugin provides (provides.scope), readable in its routes', async () => {
    const database = lift(async (scope) => { scope.decorate('ledger', { rows: () => ['a', 'b'] }) }, { name: 'database', provides: { scope: { ledger: type<{ rows(): string[] }>() } } })
    const app = server()
    const typed = app.register(database)
    typed.get('/rows', () => ({ rows: typed.ledger.rows() }))
    await app.ready()
    expect((await app.inject('/rows')).json()).to.deep.equal({ rows: ['a', 'b'] })
    await app.close()
  })

  it('fails boot naming scope.<name> and the decorate() call to add when a promised scope decoration is not made (ENC_ERR_PLUGIN_PROVIDES)', async () => {
    const forgetful = lift(async (scope) => { void scope }, { name: 'no-db', provides: { scope: { ledger: type<string>() } } })
    const app = server()
    app.register(forgetful)
    const error = await bootError(app)
    expect(error.code).to.equal('ENC_ERR_PLUGIN_PROVIDES')
    expect(error.message).to.include("Plugin 'no-db' (registered in root) promised scope.ledger in its provides but did not decorate it")
    expect(error.message).to.include("call scope.decorate('ledger', ...)")
  })

  it('refuses provides.scope of the wrong shape at the lift() call (ENC_ERR_PLUGIN_META)', () => {
    const error = thrown(() => lift(async function audit(): Promise<void> {}, { name: 'a', provides: { scope: ['db'] } } as never))
    expect(error.code).to.equal('ENC_ERR_PLUGIN_META')
    expect(error.message).to.include('provides.scope must be an object of names, each given type<T>(), got an array')
  })
})

describe('typed plugins: a decoration made twice names the plugins and their registrations (ENC_ERR_DEC_ALREADY_PRESENT)', () => {
  it("names a lifted plugin registered twice by its meta name, and which register() call made it first", async () => {
    const app = server()
    app.register(spacePlugin, { id: 'a' })
    app.register(spacePlugin, { id: 'b' })
    const error = await bootError(app)
    expect(error.code).to.equal('ENC_ERR_DEC_ALREADY_PRESENT')
    expect(error.message).to.include("decorateRequest('space') by plugin space (2nd register() in root) in root")
    expect(error.message).to.include('declared by plugin space (1st register() in root) in this scope')
  })

  it('tells two anonymous lifted plugins apart by their register() calls and scope path', async () => {
    const app = server()
    app.register(async (child: Scope) => {
      child.get('/x', () => 'x')
      child.register(lift(async (scope) => { scope.decorateRequest('space' as string, null) }))
      child.register(lift(async (scope) => { scope.decorateRequest('space' as string, null) }))
    }, { prefix: '/v1' })
    const error = await bootError(app)
    expect(error.code).to.equal('ENC_ERR_DEC_ALREADY_PRESENT')
    expect(error.message).to.match(/by plugin anonymous \(2nd register\(\) in root > [^)]+\) in root > /)
    expect(error.message).to.match(/declared by plugin anonymous \(1st register\(\) in root > [^)]+\) in this scope/)
  })
})
