// esbuild (and tsx, tsup, vitest on vite 7 or older, on top of it) compiles TypeScript's legacy
// decorators but emits no `design:paramtypes`. The classes here are decorated the way its output
// does it, by calling the decorators, so TypeScript emits no metadata for them either.
import 'reflect-metadata'
import { expect } from 'chai'
import { inject, injectable } from 'tsyringe'
import { Get, Module, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { paramNames } from '../../src/runtime/shared/param-names'
import { bootError } from './helpers'

const get = (cls: Function, key: string): void => {
  Get('/')(cls.prototype, key, Object.getOwnPropertyDescriptor(cls.prototype, key)!)
}

describe('createApp: classes built without decorator metadata (esbuild, tsx, vitest)', () => {
  it('refuses at boot a controller whose constructor parameter has no token, naming the class, the parameter and the build-tool fix', async () => {
    class Config { readonly greeting = 'hi' }
    class Health { constructor(readonly config: Config) {} show() { return { greeting: this.config.greeting } } }
    get(Health, 'show')
    Route()(Health)
    injectable()(Config)
    class Root {}
    Module({ controllers: [Health], providers: [Config] })(Root)
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_UNTYPED')
    expect(error.message)
      .to.contain('controller Health in Root: constructor parameter 0 (config) has no injection token')
      .and.contain('does not emit decorator metadata').and.contain('tsx')
      .and.contain('@inject(TheClass) config: TheClass').and.contain('swc').and.contain('docs/build-tools.md')
  })

  it('refuses at boot a provider whose parameters have @inject() on some only, naming the first without one (tsyringe would pass it undefined)', async () => {
    class Config {}
    class Repo {}
    class Users { constructor(readonly config: Config, readonly repo: Repo) {} }
    inject(Config)(Users, undefined, 0)
    injectable()(Users)
    injectable()(Config)
    injectable()(Repo)
    class Root {}
    Module({ providers: [Config, Repo, Users] })(Root)
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_UNTYPED')
    expect(error.message).to.contain('provider Users in Root: constructor parameter 1 (repo) has no injection token')
  })

  it('boots a class built without decorator metadata when @inject() names every constructor parameter', async () => {
    class Config { readonly greeting = 'hi' }
    class Repo { all() { return ['a'] } }
    class Items { constructor(readonly config: Config, readonly repo: Repo) {} list() { return { greeting: this.config.greeting, items: this.repo.all() } } }
    get(Items, 'list')
    inject(Config)(Items, undefined, 0)
    inject(Repo)(Items, undefined, 1)
    Route()(Items)
    injectable()(Config)
    injectable()(Repo)
    class Root {}
    Module({ controllers: [Items], providers: [Config, Repo] })(Root)
    const app = await createApp(Root)
    const response = await app.inject({ url: '/' })
    expect(response.json()).to.deep.equal({ greeting: 'hi', items: ['a'] })
    await app.close()
  })

  it('tells a class without @injectable() and without metadata to add @injectable(), naming the parameter', async () => {
    class Repo {}
    class Users { constructor(readonly repo: Repo) {} }
    class Root {}
    Module({ providers: [Repo, Users] })(Root)
    const error = await bootError(Root)
    expect(error.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_UNTYPED')
    expect(error.message).to.contain('provider Users in Root has constructor parameters but no type metadata')
      .and.contain('constructor parameter 0 (repo)').and.contain('@injectable()').and.contain('esbuild')
  })
})

describe('paramNames: parameter names for messages, read from the class or method text', () => {
  it('reads the names of a class constructor, esbuild-style and ES5-style output, and null for a pattern', () => {
    class Plain { constructor(readonly users: unknown, readonly config: unknown = {}) {} }
    expect(paramNames(Plain)).to.deep.equal(['users', 'config'])
    const es5 = new Function('return function Users(repo, { a, b }, ...rest) { this.repo = repo }')() as Function
    expect(paramNames(es5)).to.deep.equal(['repo', null, 'rest'])
    const defaults = new Function('return class X { static f = "constructor(bad)"; constructor(a = f(1, 2), b) {} }')() as Function
    expect(paramNames(defaults)).to.deep.equal(['a', 'b'])
  })

  it('reads a method\'s names the same way, a default value holding a call with a comma included (the decorator layer names route method parameters with it)', () => {
    const methods = new Function('return class N { create(a = pick(x, y), note) {} async list(page, { size }) {} *each(...rows) {} }')() as { prototype: Record<string, Function> }
    expect(paramNames(methods.prototype.create!)).to.deep.equal(['a', 'note'])
    expect(paramNames(methods.prototype.list!)).to.deep.equal(['page', null])
    expect(paramNames(methods.prototype.each!)).to.deep.equal(['rows'])
  })

  it('reads a name with a comment before or after it, and the real constructor after a static method named constructor', () => {
    const commented = new Function('return class C { constructor(/* repo */ users, config /* cfg */, // last\n  rest) {} }')() as Function
    expect(paramNames(commented)).to.deep.equal(['users', 'config', 'rest'])
    const staticFirst = new Function('return class S { static constructor(wrong) {} static /* x */\n constructor(also) {} constructor(right) {} }')() as Function
    expect(paramNames(staticFirst)).to.deep.equal(['right'])
    const classify = new Function('return class K { classify(note, reply) {} }')() as { prototype: Record<string, Function> }
    expect(paramNames(classify.prototype.classify!)).to.deep.equal(['note', 'reply'])
  })

  it('gives no names where the text has no parameter list (a class without constructor, a bound function)', () => {
    class Empty {}
    expect(paramNames(Empty)).to.deep.equal([])
    expect(paramNames(function named(this: unknown, a: unknown) { return a }.bind(null))).to.deep.equal([])
  })
})
