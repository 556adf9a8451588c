import 'reflect-metadata'
import { expect } from 'chai'
import { inject, injectable } from 'tsyringe'
import { Get, Module, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { bootError } from './helpers'
import { declarationError } from '../decorators/helpers'

describe('useExisting providers (NestJS alias tokens)', () => {
  it('a useExisting provider gives the aliased provider\'s instance under a second token, built and released once', async () => {
    let built = 0
    let closed = 0
    @injectable() class Cache { constructor() { built++ } onClose() { closed++ } }
    @Route('/') class Ctl {
      constructor(readonly cache: Cache, @inject('CACHE') readonly alias: Cache) {}
      @Get('/') same() { return { same: this.cache === this.alias } }
    }
    @Module({ providers: [Cache, { provide: 'CACHE', useExisting: Cache }], controllers: [Ctl] }) class Root {}
    const app = await createApp(Root)
    expect((await app.inject('/')).json()).to.deep.equal({ same: true })
    await app.close()
    expect({ built, closed }).to.deep.equal({ built: 1, closed: 1 })
  })

  it('a useExisting provider whose target no visible module provides fails boot with ENC_ERR_MODULE_DEPENDENCY_NOT_VISIBLE', async () => {
    @injectable() class Hidden {}
    @Module({ providers: [Hidden] }) class Child {}
    @Module({ providers: [{ provide: 'ALIAS', useExisting: Hidden }], plugins: [Child] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_NOT_VISIBLE')
    expect(error.message).to.contain("'ALIAS'").and.contain('Hidden')
  })

  it('a useExisting provider resolves its target as its declaring module sees it, also for a descendant that declares the target again and injects the alias', async () => {
    @injectable() class RootStore {}
    @injectable() class Store { constructor(@inject('STORE') readonly alias: object) {} }
    @Route('/') class Ctl {
      constructor(@inject('STORE') readonly alias: object, readonly own: Store) {}
      @Get('/') names() { return { alias: this.alias.constructor.name, ownAlias: this.own.alias.constructor.name } }
    }
    @Module({ providers: [Store], controllers: [Ctl] }) class Child {}
    @Module({ providers: [{ provide: Store, useClass: RootStore }, { provide: 'STORE', useExisting: Store }], plugins: [Child] }) class Root {}
    // Before: the alias resolved Store from the asking (child) container, whose Store injects the alias: endless (1.3 MB error).
    const app = await createApp(Root)
    expect((await app.inject('/')).json()).to.deep.equal({ alias: 'RootStore', ownAlias: 'RootStore' })
    await app.close()
  })

  it('refuses a useExisting provider that aliases itself, at declaration', () => {
    class Cache {}
    const error = declarationError(() => { @Module({ providers: [{ provide: Cache, useExisting: Cache }] }) class Root {} return Root })
    expect(error.code).to.equal('ENC_ERR_DECL_MODULE_ENTRY')
    expect(error.message).to.contain('useExisting')
  })
})
