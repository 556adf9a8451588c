import 'reflect-metadata'
import { expect } from 'chai'
import request from 'supertest'
import * as tsyringe from 'tsyringe'
// A real second copy of tsyringe (npm:tsyringe@4.8.0 under another name): what an app gets when
// it pins another 4.x, or links a package that brings its own node_modules.
import { injectable as otherInjectable } from 'tsyringe-copy'
import { createApp, Get, inject, injectable, Module, Route, singleton } from '../../src'
import type { Class } from '../../src/decorators'
import { bootError } from './helpers'

@injectable() class Db { readonly name = 'db' }

/** A controller at `/` answering what its service reports. */
function reportingController(service: Function): Class {
  @Route() class ReportController {
    constructor(@inject(service as never) private readonly users: { report(): unknown }) {}
    @Get('/') get() { return this.users.report() }
  }
  return ReportController
}

describe('tsyringe: one copy per app, re-exported by Enclave', () => {
  it("re-exports tsyringe's own injectable, inject and singleton (the copy Enclave resolves with)", () => {
    expect(injectable).to.equal(tsyringe.injectable)
    expect(inject).to.equal(tsyringe.inject)
    expect(singleton).to.equal(tsyringe.singleton)
  })

  it("injects a provider decorated with Enclave's injectable()", async () => {
    @injectable() class Users { constructor(readonly db: Db) {} report() { return { db: this.db.name } } }
    @Module({ providers: [Db, Users], controllers: [reportingController(Users)] }) class Root {}
    const app = await createApp(Root)
    await request(app.server).get('/').expect(200, { db: 'db' })
    await app.close()
  })

  it('refuses a provider made @injectable() by a second tsyringe copy, naming both copies and the fix', async () => {
    @otherInjectable() class Users { constructor(readonly db: Db) {} report() { return { db: this.db.name } } }
    @Module({ providers: [Db, Users], controllers: [reportingController(Users)] }) class Child {}
    @Module({ plugins: [Child] }) class Root {}
    const error = await bootError(Root)
    // Without the check this was ENC_ERR_MODULE_INSTANTIATION with tsyringe's `TypeInfo not known for "Users"`.
    expect(error.code).to.equal('ENC_ERR_MODULE_TSYRINGE_COPIES')
    expect(error.message).to.contain('provider Users in Root > Child')
      .and.match(/node_modules[/\\]tsyringe-copy\)/)
      .and.match(/Enclave uses \S*node_modules[/\\]tsyringe\./)
      .and.contain("from 'enclave'").and.contain('npm ls tsyringe')
  })

  it('refuses it too when every constructor parameter has a default (tsyringe would silently build it with none)', async () => {
    @otherInjectable() class Users { constructor(readonly db: Db = new Db()) {} report() { return {} } }
    expect(Users.length).to.equal(0)
    @Module({ providers: [Db, Users], controllers: [reportingController(Users)] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_TSYRINGE_COPIES')
  })

  it('boots a parameterless class decorated by the other copy: nothing to inject, nothing lost', async () => {
    @otherInjectable() class Clock { report() { return { tick: 1 } } }
    @Module({ providers: [Clock], controllers: [reportingController(Clock)] }) class Root {}
    const app = await createApp(Root)
    await request(app.server).get('/').expect(200, { tick: 1 })
    await app.close()
  })

  it('names the missing @injectable() for a class with parameters decorated only by something else', async () => {
    const Tagged: ClassDecorator = () => undefined
    @Tagged class Users { constructor(readonly db: Db) {} report() { return {} } }
    @Module({ providers: [Db, Users], controllers: [reportingController(Users)] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_UNTYPED')
    expect(error.message).to.contain('provider Users in Root').and.contain("is not @injectable()").and.contain("from 'enclave'")
  })

  it('@singleton() registers in the global container: one instance per process, visible without providers', async () => {
    let built = 0
    @singleton() class Clock { readonly id = ++built; report() { return { id: this.id } } }
    @Module({ controllers: [reportingController(Clock)] }) class First {}
    @Module({ controllers: [reportingController(Clock)] }) class Second {}
    const [a, b] = [await createApp(First), await createApp(Second)]
    await request(a.server).get('/').expect(200, { id: 1 })
    await request(b.server).get('/').expect(200, { id: 1 })
    expect(built).to.equal(1)
    await Promise.all([a.close(), b.close()])
  })
})
