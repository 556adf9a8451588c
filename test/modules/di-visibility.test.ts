import 'reflect-metadata'
import { expect } from 'chai'
import request from 'supertest'
import { inject, injectable } from 'tsyringe'
import { Get, Module, Route, usePlugin, type Class } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { lift } from '../../src/runtime'
import { bootError } from './helpers'

let created = 0
@injectable() class Counter { readonly id = ++created }

/** A controller at `path` answering the id of the Counter instance it was given. */
function counterController(path: string): Class {
  @Route() class CounterController {
    constructor(private readonly counter: Counter) {}
    @Get(path) get() { return { id: this.counter.id } }
  }
  return CounterController
}

describe('DI: providers are visible in their module and its descendants only (DESIGN §4)', () => {
  it('a controller gets its own module\'s provider', async () => {
    @Module({ providers: [Counter], controllers: [counterController('/own')] }) class Root {}
    const app = await createApp(Root)
    await request(app.server).get('/own').expect(200).expect((res) => expect(res.body.id).to.be.a('number'))
    await app.close()
  })

  it('child and grandchild modules share the ancestor\'s single instance', async () => {
    @Module({ controllers: [counterController('/grandchild')] }) class Grandchild {}
    @Module({ plugins: [Grandchild], controllers: [counterController('/child')] }) class Child {}
    @Module({ providers: [Counter], plugins: [Child], controllers: [counterController('/root')] }) class Root {}
    const app = await createApp(Root)
    const ids = await Promise.all(['/root', '/child', '/grandchild'].map(async (p) => (await request(app.server).get(p).expect(200)).body.id))
    expect(new Set(ids).size).to.equal(1)
    await app.close()
  })

  it('a parent cannot use its child\'s provider: the error names the provider and a common ancestor', async () => {
    @Module({ providers: [Counter] }) class Child {}
    @Module({ plugins: [Child], controllers: [counterController('/p')] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_NOT_VISIBLE')
    expect(error.message).to.contain('controller CounterController in Root needs Counter (constructor parameter 0)')
      .and.contain('provided by Root > Child').and.contain('common ancestor (Root)').and.contain('lift() Child')
  })

  it('a sibling cannot use its sibling\'s provider', async () => {
    @Module({ providers: [Counter] }) class Left {}
    @Module({ controllers: [counterController('/r')] }) class Right {}
    @Module({ plugins: [Left, Right] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_NOT_VISIBLE')
    expect(error.message).to.contain('in Root > Right needs Counter').and.contain('provided by Root > Left')
  })

  it('an @injectable class that no module provides is refused, not silently constructed', async () => {
    @Module({ controllers: [counterController('/n')] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_NOT_VISIBLE')
    expect(error.message).to.contain('No module provides it').and.contain('add it to the providers of Root')
  })

  it('a lifted module provides to its parent and to the parent\'s other children', async () => {
    @Module({ providers: [Counter] }) class Lifted {}
    @Module({ controllers: [counterController('/sibling')] }) class Sibling {}
    @Module({ plugins: [lift(Lifted), Sibling], controllers: [counterController('/parent')] }) class Parent {}
    @Module({ plugins: [Parent] }) class Root {}
    const app = await createApp(Root)
    const a = (await request(app.server).get('/parent').expect(200)).body.id
    const b = (await request(app.server).get('/sibling').expect(200)).body.id
    expect(a).to.equal(b)
    await app.close()
  })

  it('a lifted module\'s provider stays invisible above the parent it is lifted into', async () => {
    @Module({ providers: [Counter] }) class Lifted {}
    @Module({ plugins: [lift(Lifted)] }) class Parent {}
    @Module({ plugins: [Parent], controllers: [counterController('/root')] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_NOT_VISIBLE')
    expect(error.message).to.contain('provided by Root > Parent > lift(Lifted)')
  })

  it('a child\'s provider shadows an ancestor\'s for the same token', async () => {
    @Route() class Reader {
      constructor(@inject('greeting') private readonly greeting: string) {}
      @Get('/greeting') get() { return { greeting: this.greeting } }
    }
    @Module({ providers: [{ provide: 'greeting', useValue: 'child' }], controllers: [Reader] }) class Child {}
    @Module({ providers: [{ provide: 'greeting', useValue: 'root' }], plugins: [Child] }) class Root {}
    const app = await createApp(Root)
    await request(app.server).get('/greeting').expect(200, { greeting: 'child' })
    await app.close()
  })

  it('every provider form resolves, a factory once, with its inject tokens from the declaring module', async () => {
    let calls = 0
    @injectable() class Base { readonly name: string = 'base' }
    @Route() class Reader {
      constructor(@inject('cls') readonly cls: Base, @inject('val') readonly val: number, @inject('fac') readonly fac: { from: number }) {}
      @Get('/forms') get() { return { cls: this.cls.name, val: this.val, fac: this.fac.from } }
    }
    @Module({ controllers: [Reader], prefix: '/child' }) class Child {}
    @Module({
      providers: [{ provide: 'cls', useClass: Base }, { provide: 'val', useValue: 7 },
        { provide: 'fac', useFactory: (v: number) => { calls++; return { from: v * 2 } }, inject: ['val'] }],
      plugins: [Child],
      controllers: [Reader],
    }) class Root {}
    // Reader is listed twice (root and child): two controller instances, one factory call.
    const app = await createApp(Root)
    await request(app.server).get('/forms').expect(200, { cls: 'base', val: 7, fac: 14 })
    await request(app.server).get('/child/forms').expect(200, { cls: 'base', val: 7, fac: 14 })
    expect(calls).to.equal(1)
    await app.close()
  })

  it('a factory\'s inject token is checked like a constructor dependency', async () => {
    @Module({ providers: [{ provide: 'fac', useFactory: () => 1, inject: [Counter] }] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_NOT_VISIBLE')
    expect(error.message).to.contain("factory provider 'fac' in Root needs Counter (inject[0])")
  })

  it('a useFactory parameter without its inject entry is refused at boot, named, instead of being called with undefined (newcomer16)', async () => {
    class Conn { constructor(readonly url: string) {} }
    @Module({ providers: [{ provide: 'url', useValue: 'db://' }, { provide: Conn, useFactory: (url: string) => new Conn(url.toUpperCase()) }] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_UNTYPED')
    expect(error.message).to.contain('factory provider Conn in Root takes 1 parameter but its inject list names 0 tokens, so url would be undefined')
      .and.contain('inject: [<token of url>]')
    // With the token listed, or a default for a parameter the factory may go without, it boots.
    @Module({ providers: [{ provide: 'url', useValue: 'db://' }, { provide: Conn, useFactory: (url: string) => new Conn(url), inject: ['url'] }] }) class Listed {}
    @Module({ providers: [{ provide: Conn, useFactory: (url = 'mem://') => new Conn(url) }] }) class Defaulted {}
    for (const root of [Listed, Defaulted]) await (await createApp(root)).close()
    // A usePlugin() entry's factory is checked the same way (its types already refuse it: this is the JavaScript or cast path).
    @Module({ plugins: [usePlugin(async () => {}, { useFactory: ((max: number) => ({ max })) as () => { max: number } })] }) class Plugged {}
    const pluginError = await bootError(Plugged)
    expect(pluginError.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_UNTYPED')
    expect(pluginError.message).to.contain('so max would be undefined')
  })

  it('module classes get constructor injection too', async () => {
    @Module({ providers: [Counter] })
    class Root { constructor(readonly counter: Counter) {} }
    const app = await createApp(Root)
    await app.close()
    @Module() class Bare { constructor(readonly counter: Counter) {} }
    expect((await bootError(Bare)).code).to.equal('ENC_ERR_MODULE_DEPENDENCY_NOT_VISIBLE')
  })

  it('each app gets its own instances: two apps from one module class share nothing', async () => {
    @Module({ providers: [Counter], controllers: [counterController('/app')] }) class Root {}
    const one = await createApp(Root)
    const two = await createApp(Root)
    const a = (await request(one.server).get('/app')).body.id
    const b = (await request(two.server).get('/app')).body.id
    expect(a).to.not.equal(b)
    await Promise.all([one.close(), two.close()])
  })

  it('disposes providers that have dispose() when the app closes', async () => {
    const disposed: string[] = []
    @injectable() class Pool { dispose() { disposed.push('pool') } }
    @Module({ providers: [Pool] }) class Root {}
    const app = await createApp(Root)
    expect(disposed).to.deep.equal([])
    await app.close()
    expect(disposed).to.deep.equal(['pool'])
  })

  it('disposes the providers when boot fails after they were constructed', async () => {
    const disposed: string[] = []
    @injectable() class Pool { dispose() { disposed.push('pool') } }
    @Route() class Broken { @Get('/broken', { schema: { querystring: { $ref: 'missing#' } } }) get() { return {} } }
    @Module({ providers: [Pool], controllers: [Broken] }) class Root {}
    const error = await bootError(Root)
    expect(error.code).to.match(/^ENC_ERR_SCH/)
    expect(disposed).to.deep.equal(['pool'])
  })

  it('disposes the providers already built when a later constructor throws', async () => {
    const disposed: string[] = []
    @injectable() class Pool { dispose() { disposed.push('pool') } }
    @injectable() class Exploding { constructor() { throw new Error('boom') } }
    @Module({ providers: [Pool, Exploding] }) class Root {}
    expect((await bootError(Root)).code).to.equal('ENC_ERR_MODULE_INSTANTIATION')
    expect(disposed).to.deep.equal(['pool'])
  })
})
