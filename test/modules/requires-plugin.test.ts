// @Requires(plugin) + RequestWith<typeof plugin>: a controller declares the typed plugins its
// routes rely on; boot checks that its module or an ancestor registers them, which is what makes
// RequestWith's type true at run time (test/types/fixtures/typed-plugins.ts has the types).
import 'reflect-metadata'
import { expect } from 'chai'
import { Get, Module, Req, Requires, Route, usePlugin } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { lift, type, type RequestWith } from '../../src/runtime'
import { bootError } from './helpers'

interface Tenant { id: string }

const tenantPlugin = lift(async (scope, options: { id: string }) => {
  scope.decorateRequest('tenantRecord', null)
  scope.addHook('preHandler', async (request) => { request.tenantRecord = { id: options.id } })
}, { name: 'tenant-record', provides: { request: { tenantRecord: type<Tenant>() } } })

@Requires(tenantPlugin)
@Route('/tenant')
class TenantController {
  @Get('/') read(@Req() request: RequestWith<typeof tenantPlugin>) { return { tenant: request.tenantRecord.id } }
}

/** Boots `root` and reads what TenantController answers at `url`. */
async function tenantServed(root: Function, url: string): Promise<unknown> {
  const app = await createApp(root)
  try {
    return (await app.inject(url)).json()
  } finally { await app.close() }
}

describe('@Requires(plugin): a controller\'s typed plugins, checked at boot', () => {
  it('serves the plugin\'s decorations to a controller whose module registers it', async () => {
    @Module({ plugins: [usePlugin(tenantPlugin, { useFactory: () => ({ id: 'acme' }) })], controllers: [TenantController] })
    class TenantModule {}
    expect(await tenantServed(TenantModule, '/tenant')).to.deep.equal({ tenant: 'acme' })
  })

  it('accepts the plugin registered by an ancestor module', async () => {
    @Module({ prefix: '/child', controllers: [TenantController] }) class ChildModule {}
    @Module({ plugins: [usePlugin(tenantPlugin, { useFactory: () => ({ id: 'root' }) }), ChildModule] }) class RootModule {}
    expect(await tenantServed(RootModule, '/child/tenant')).to.deep.equal({ tenant: 'root' })
  })

  it('accepts the plugin an ancestor module lists after the child module (its decorations and hooks reach the child\'s routes)', async () => {
    @Module({ prefix: '/child', controllers: [TenantController] }) class LaterChildModule {}
    @Module({ plugins: [LaterChildModule, usePlugin(tenantPlugin, { useFactory: () => ({ id: 'later' }) })] }) class LaterRootModule {}
    expect(await tenantServed(LaterRootModule, '/child/tenant')).to.deep.equal({ tenant: 'later' })
  })

  it('reports a module\'s own boot failure rather than a @Requires check of the half-loaded tree', async () => {
    @Module({ prefix: '/child', controllers: [TenantController] }) class FailingChildModule {}
    const failing = lift(async () => { throw new Error('plugin failed to load') }, { name: 'failing' })
    @Module({ plugins: [failing, FailingChildModule, usePlugin(tenantPlugin, { useFactory: () => ({ id: 'x' }) })] }) class FailingRootModule {}
    const error = await bootError(FailingRootModule)
    expect(error.message).to.include('plugin failed to load')
  })

  it('fails boot naming controller, module path, plugin and the module to add it to when no module up the tree registers it (ENC_ERR_MODULE_PLUGIN_REQUIRED)', async () => {
    @Module({ prefix: '/child', controllers: [TenantController] }) class BareModule {}
    // A sibling registering it does not count: its decorations are not visible to BareModule's routes.
    @Module({ prefix: '/other', plugins: [usePlugin(tenantPlugin, { useFactory: () => ({ id: 'x' }) })] }) class SiblingModule {}
    @Module({ plugins: [SiblingModule, BareModule] }) class AppModule {}
    const error = await bootError(AppModule)
    expect(error.code).to.equal('ENC_ERR_MODULE_PLUGIN_REQUIRED')
    expect(error.message).to.include("TenantController (module AppModule > BareModule) requires plugin 'tenant-record' (@Requires), but neither BareModule nor its ancestors register it")
    expect(error.message).to.include('Add the plugin to the plugins of BareModule')
  })

  it('refuses at decoration time a plugin that was not lifted with a name (ENC_ERR_DECL_TARGET)', () => {
    const anonymous = lift(async () => {})
    expect(() => Requires(anonymous)).to.throw(/@Requires\(\): takes plugins lifted with a name/)
  })
})
