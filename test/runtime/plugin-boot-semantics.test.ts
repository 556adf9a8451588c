// Issue 12 §3: avvio's boot semantics as Fastify 3.27.4 has them: ready() called inside a plugin,
// the onReady phase, after() forms and error hand-over, options functions, pluginName.
import { expect } from 'chai'
import request from 'supertest'
import { fp } from '../support/scope-plugin'
import { createServer, lift, type Scope } from '../../src/runtime'
import { bootError, server, thrown } from './helpers'

// What these tests decorate on a scope: Scope has no catch-all (an undeclared name does not compile).
declare module '../../src/runtime' {
  interface ScopeDecorations { connected?: unknown; fromB?: unknown; later?: unknown; test?: unknown; test2?: unknown }
}

describe('boot: ready() called by a plugin while it loads', () => {
  it('does not re-enter boot: each plugin loads once and the callbacks run in call order, before the onReady hooks', async () => {
    const app = server()
    const order: string[] = []
    let loads = 0
    app.register((a: Scope, _opts: unknown, done: () => void) => {
      loads++
      a.ready(() => order.push('ready a'))
      a.addHook('onReady', async () => { order.push('onReady a') })
      a.register((b: Scope, _o: unknown, doneB: () => void) => {
        b.ready(() => order.push('ready b'))
        b.addHook('onReady', async () => { order.push('onReady b') })
        doneB()
      })
      done()
    })
    app.addHook('onReady', async () => { order.push('onReady root') })
    await app.ready()
    order.push('root ready resolved')
    expect(loads).to.equal(1)
    expect(order).to.deep.equal(['ready a', 'ready b', 'onReady root', 'onReady a', 'onReady b', 'root ready resolved'])
  })

  it("a plugin's ready() waits for the whole tree, not only what loaded so far, and resolves with that plugin's scope", async () => {
    const app = server()
    const seen: Array<[string, boolean]> = []
    app.register(async (a) => {
      const own = a
      a.ready().then((scope) => { seen.push(['a', scope === own]) })
      await a.register(async (b) => { b.decorate('fromB', 1) })
      seen.push(['body a', false])
    })
    app.register(async () => { seen.push(['sibling', false]) })
    const booted = await app.ready()
    expect(booted).to.equal(app)
    expect(seen).to.deep.equal([['body a', false], ['sibling', false], ['a', true]])
  })

  it('ready(cb) hands back (null, scope); once booted, ready() resolves at once and onReady hooks ran once', async () => {
    const app = server()
    let hooks = 0
    app.addHook('onReady', async () => { hooks++ })
    const [error, scope] = await new Promise<[Error | null, unknown]>((resolve) => { app.ready((e, s) => resolve([e, s])) })
    expect(error).to.equal(null)
    expect(scope).to.equal(app)
    await app.ready()
    expect(hooks).to.equal(1)
  })

  it('ready() and inject() inside an onReady hook resolve instead of waiting on the hook itself', async () => {
    const app = server()
    app.get('/', async () => 'hi')
    let body = ''
    app.addHook('onReady', async function (this: Scope) {
      await this.ready()
      body = (await this.inject('/')).body
    })
    await app.ready()
    expect(body).to.equal('hi')
  })

  it("a plugin's ready() does not start the boot: after an awaited register(), the next lines still declare", async () => {
    const app = server()
    let called = false
    await app.register(async (a) => { a.ready(() => { called = true }) })
    await new Promise<void>((resolve) => setImmediate(resolve))
    app.get('/later', async () => 'ok')
    expect(called).to.equal(false)
    expect((await app.inject('/later')).body).to.equal('ok')
    expect(called).to.equal(true)
  })

  it('ready() and inject() called from outside while the onReady hooks run still wait for them', async () => {
    const app = server()
    app.get('/', async () => 'hi')
    let release!: () => void
    const gate = new Promise<void>((resolve) => { release = resolve })
    const order: string[] = []
    app.addHook('onReady', async () => { await gate; order.push('onReady done') })
    const first = app.ready()
    await new Promise<void>((resolve) => setImmediate(resolve))
    const second = app.inject('/').then(() => { order.push('inject answered') })
    await new Promise<void>((resolve) => setImmediate(resolve))
    release()
    await Promise.all([first, second])
    expect(order).to.deep.equal(['onReady done', 'inject answered'])
  })

  it('a plugin whose ready() waits on a failing boot gets the error', async () => {
    const app = server()
    let got: unknown = null
    app.register(async (a) => { a.ready((error) => { got = error }) })
    app.register(async () => { throw new Error('kaboom') })
    const error = await bootError(app)
    expect(error.message).to.equal('kaboom')
    expect((got as Error).message).to.equal('kaboom')
  })
})

describe('boot: the onReady phase', () => {
  it('an onReady hook may add an instance decorator (Fastify allows decorate() until started), not a hook', async () => {
    const app = server()
    let late: Error | null = null
    app.addHook('onReady', async function (this: Scope) {
      this.decorate('connected', true)
      late = thrown(() => this.addHook('onReady', async () => {}))
    })
    let seen = false
    app.addHook('onReady', async function (this: Scope) { seen = this.hasDecorator('connected') })
    await app.ready()
    expect(seen).to.equal(true)
    expect((late as unknown as { code: string }).code).to.equal('ENC_ERR_SCOPE_BOOTED')
    expect(thrown(() => app.decorate('later', 1)).code).to.equal('ENC_ERR_SCOPE_BOOTED')
  })

  it('an async onReady hook that also takes done is refused at declaration (ENC_ERR_HOOK_INVALID_HANDLER)', () => {
    const app = createServer()
    // eslint-disable-next-line @typescript-eslint/no-unused-vars
    const error = thrown(() => app.addHook('onReady', (async (_done: unknown) => {}) as never))
    expect(error.code).to.equal('ENC_ERR_HOOK_INVALID_HANDLER')
    expect(error.message).to.include('an async hook must not take a done parameter')
  })
})

describe('boot: after() forms and errors (avvio)', () => {
  it('(error, scope, done) gets the scope after() was called on, with the lifted plugin\'s decorators', async () => {
    const app = server()
    let seen: unknown = null
    app.register(lift(async (s: Scope) => { s.decorate('test', 'value') }))
    app.after((_error: Error | null, scope: Scope, done: () => void) => { seen = scope.test; scope.decorate('test2', 2); done() })
    await app.ready()
    expect(seen).to.equal('value')
    expect(app.test2).to.equal(2)
  })

  it('a failed plugin skips the plugins after it and hands its error to the next after(), which may handle it', async () => {
    const app = server()
    const order: string[] = []
    app.register(async () => { throw new Error('kaboom') })
    app.register(async () => { order.push('skipped plugin') })
    app.after((error) => { order.push(`after: ${error?.message}`) })
    app.register(async () => { order.push('loads again') })
    await app.ready()
    expect(order).to.deep.equal(['after: kaboom', 'loads again'])
  })

  it('an after() without an error parameter leaves the error to ready(); one that passes it to done fails boot', async () => {
    const first = server()
    let ran = false
    first.register(async () => { throw new Error('first') })
    first.after(() => { ran = true })
    expect((await bootError(first)).message).to.equal('first')
    expect(ran).to.equal(true)

    const second = server()
    second.register(async () => { throw new Error('second') })
    second.after((error, done) => { done(error) })
    expect((await bootError(second)).message).to.equal('second')
  })
})

describe('boot: register(plugin, options function)', () => {
  it("calls the function with the plugin's own scope (the registering scope when lifted) and passes its result as options", async () => {
    const app = server()
    const seen: Record<string, unknown> = {}
    app.register(async (child, opts: { value?: string }) => { seen.child = opts.value }, (scope: Scope) => {
      seen.isChild = scope !== app
      return { value: 'from function' }
    })
    app.register(lift(async (_s: Scope, opts: { value?: string }) => { seen.lifted = opts.value }), (scope: Scope) => {
      seen.isRoot = scope === app
      return { value: 'lifted' }
    })
    await app.ready()
    expect(seen).to.deep.equal({ isChild: true, child: 'from function', isRoot: true, lifted: 'lifted' })
  })

  it("takes the registration prefix from the function's own `prefix` property, as Fastify does (@fastify/autoload's autoConfig.prefix)", async () => {
    const app = server()
    const options = Object.assign((_scope: Scope) => ({ value: 'v' }), { prefix: '/from-fn' })
    app.register(async (child, opts: { value?: string }) => { child.get('/x', async () => ({ value: opts.value ?? null })) }, options)
    await app.ready()
    await request(app.server).get('/from-fn/x').expect(200, { value: 'v' })
    await request(app.server).get('/x').expect(404)
  })
})

describe('plugin API: pluginName (Fastify 3 rules)', () => {
  it('is the display name, else the function name, else the first two lines of the source; undefined at the root', async () => {
    const app = server()
    const names: unknown[] = []
    const displayed = async (s: Scope) => { names.push(s.pluginName) }
    ;(displayed as unknown as Record<symbol, string>)[Symbol.for('fastify.display-name')] = 'shown'
    app.register(displayed)
    app.register(async function named(s) { names.push(s.pluginName) })
    app.register(async (s) => {
      // first line
      names.push(s.pluginName)
    })
    await app.ready()
    expect(app.pluginName).to.equal(undefined)
    expect(names.slice(0, 2)).to.deep.equal(['shown', 'named'])
    expect(names[2]).to.match(/^async \(s\) => \{ -- \/\/ first line$/)
  })

  it('a fastify-plugin plugin lifted into a scope appends its name: plugin-A -> plugin-AB', async () => {
    const app = server()
    const names: unknown[] = []
    app.register(fp(async (a: Scope) => {
      names.push(a.pluginName)
      a.register(fp(async (ab: Scope) => { names.push(ab.pluginName) }, { name: 'plugin-AB' }) as never)
    }, { name: 'plugin-A' }))
    app.register(async function child(c) {
      c.register(fp(async () => {}, { name: 'inner' }))
      await c.after()
      names.push(c.pluginName)
    })
    await app.ready()
    expect(names).to.deep.equal(['plugin-A', 'plugin-A -> plugin-AB', 'child -> inner'])
    expect(app.pluginName).to.equal('plugin-A -> plugin-AB')
  })

  it("lift() without a display name leaves the scope's name as it is", async () => {
    const app = server()
    let name: unknown = null
    app.register(async function outer(o) {
      o.register(lift(async function inner() {}))
      await o.after()
      name = o.pluginName
    })
    await app.ready()
    expect(name).to.equal('outer')
  })
})

describe('plugin API: printPlugins() (Fastify 3.27)', () => {
  it('prints the registrations as loaded, nested, with load times; lifted plugins marked, after() steps shown', async () => {
    const app = server()
    app.register(async function auth() {})
    app.register(async function api(s) {
      s.register(async function users() {})
      s.register(lift(async function shared() {}))
    })
    app.after(() => {})
    app.get('/', async () => 'x')
    await app.ready()
    const text = app.printPlugins()
    expect(text.replace(/\d+ ms/g, 'N ms')).to.equal([
      'root N ms',
      '├── auth N ms',
      '├── api N ms',
      '│   ├── users N ms',
      '│   └── shared (lifted) N ms',
      '└── after() N ms',
      '',
    ].join('\n'))
  })

  it('throws before boot (ENC_ERR_INSPECT_NOT_BOOTED), like printRoutes', () => {
    expect(thrown(() => createServer().printPlugins()).code).to.equal('ENC_ERR_INSPECT_NOT_BOOTED')
  })
})
