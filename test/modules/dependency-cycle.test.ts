import 'reflect-metadata'
import { expect } from 'chai'
import { inject, injectable } from 'tsyringe'
import { Get, Module, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { delay } from '../../src'
import { bootError } from './helpers'

// Before: tsyringe recursed until the stack overflowed and ENC_ERR_MODULE_INSTANTIATION carried its
// message, one nested "Cannot inject the dependency" line per frame (megabytes of text: in a busy
// process, enough to exhaust the heap). Now the provider graph is checked before anything is built.
describe('providers that inject each other in a circle', () => {
  it('a circular dependency between two providers fails boot with ENC_ERR_MODULE_DEPENDENCY_CYCLE naming the circle, in a short message', async () => {
    @injectable() class Owners { constructor(@inject('CATS') readonly cats: unknown) {} }
    @injectable() class Cats { constructor(readonly owners: Owners) {} }
    @Module({ providers: [Owners, { provide: 'CATS', useClass: Cats }] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_CYCLE')
    expect(error.message).to.contain('for Root').and.contain("circular dependency Owners (constructor parameter 0) -> 'CATS' (constructor parameter 0) -> Owners")
    expect(error.message).to.contain('third provider').and.contain('forwardRef')
    expect(error.message.length).to.be.lessThan(1000)
  })

  it('a circle through a factory provider\'s inject list is named too, and nothing is built', async () => {
    let built = 0
    @injectable() class Repo { constructor(@inject('DB') readonly db: unknown) { built++ } }
    @Module({ providers: [Repo, { provide: 'DB', useFactory: (repo: Repo) => ({ repo }), inject: [Repo] }] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_CYCLE')
    expect(error.message).to.contain("Repo (constructor parameter 0) -> 'DB' (inject[0]) -> Repo")
    expect(built).to.equal(0)
  })

  it('a circle of three through a controller names every class once', async () => {
    @injectable() class A { constructor(@inject('C') readonly c: unknown) {} }
    @injectable() class B { constructor(readonly a: A) {} }
    @injectable() class C { constructor(readonly b: B) {} }
    @Route('/') class Ctl { constructor(readonly a: A) {} @Get('/') g() { return {} } }
    @Module({ providers: [A, B, { provide: 'C', useClass: C }], controllers: [Ctl] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_CYCLE')
    expect(error.message).to.contain("A (constructor parameter 0) -> 'C' (constructor parameter 0) -> B (constructor parameter 0) -> A")
  })

  it("tsyringe's delay() is NestJS's forwardRef(): two providers that inject each other boot when one side is delayed, and each reaches the other", async () => {
    @injectable() class Orders {
      constructor(@inject(delay(() => Payments)) readonly payments: { pay(): string }) {}
      place() { return `placed, ${this.payments.pay()}` }
      name() { return 'orders' }
    }
    @injectable() class Payments {
      constructor(readonly orders: Orders) {}
      pay() { return 'paid' }
      owner() { return this.orders.name() }
    }
    @Route('/') class Ctl { constructor(readonly orders: Orders, readonly payments: Payments) {} @Get('/') g() { return { place: this.orders.place(), owner: this.payments.owner() } } }
    @Module({ providers: [Orders, Payments], controllers: [Ctl] }) class Root {}
    const app = await createApp(Root)
    expect((await app.inject({ url: '/' })).json()).to.deep.equal({ place: 'placed, paid', owner: 'orders' })
    await app.close()
  })
})
