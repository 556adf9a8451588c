import 'reflect-metadata'
import { expect } from 'chai'
import { Lifecycle, registry, scoped } from 'tsyringe'
import { createApp, Get, Module, Route, injectable, singleton } from '../../src'
import { bootError } from './helpers'

@Route('/') class Ping { @Get('/') get() { return { ok: true } } }

describe('a tsyringe lifecycle on a module provider (NestJS Scope.REQUEST ported as @scoped)', () => {
  it('refuses a provider decorated @scoped(Lifecycle.ResolutionScoped), naming it, its module and the per-request alternatives', async () => {
    @scoped(Lifecycle.ResolutionScoped) class RequestState { readonly at = Date.now() }
    @Module({ providers: [RequestState], controllers: [Ping] }) class Child {}
    @Module({ plugins: [Child] }) class Root {}
    const error = await bootError(Root)
    // Without the check it booted, and every request shared one RequestState.
    expect(error.code).to.equal('ENC_ERR_MODULE_PROVIDER_LIFECYCLE')
    expect(error.message).to.contain('provider RequestState in Root > Child').and.contain('Lifecycle.ResolutionScoped')
      .and.contain('@injectable()').and.contain('@DecorateRequest(name, { factory })')
  })

  it('refuses @scoped(Lifecycle.ContainerScoped) given as useClass', async () => {
    @scoped(Lifecycle.ContainerScoped) class Cache {}
    @Module({ providers: [{ provide: 'cache', useClass: Cache }], controllers: [Ping] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_PROVIDER_LIFECYCLE')
    expect(error.message).to.contain('Lifecycle.ContainerScoped')
  })

  it('refuses a class @registry() registers for itself as Transient (the default lifecycle)', async () => {
    @registry([{ token: 'fresh', useClass: Object }]) @injectable() class Unrelated {}
    class Fresh {}
    registry([{ token: Fresh, useClass: Fresh, options: { lifecycle: Lifecycle.Transient } }])(Fresh)
    @Module({ providers: [Fresh, Unrelated], controllers: [Ping] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_PROVIDER_LIFECYCLE')
    expect(error.message).to.contain('provider Fresh').and.contain('Lifecycle.Transient')
  })

  it('boots @injectable() and @singleton() providers as before', async () => {
    @injectable() class Plain {}
    @singleton() class Shared {}
    @Module({ providers: [Plain, Shared], controllers: [Ping] }) class Root {}
    const app = await createApp(Root)
    expect((await app.inject('/')).statusCode).to.equal(200)
    await app.close()
  })
})
