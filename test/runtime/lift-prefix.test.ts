import 'reflect-metadata'
import { expect } from 'chai'
import { createServer, lift, type PluginOptions, type Scope } from '../../src/runtime'
import { Get, Module, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'

declare module '../../src/runtime' {
  interface ScopeDecorations { answer?: unknown }
  interface RequestDecorations { who: string }
}

async function status(app: Scope, url: string): Promise<number> {
  return (await app.inject(url)).statusCode
}

describe('lift() with a prefix: the prefix applies to the lifted plugin\'s routes (issue 11 decision)', () => {
  describe('plugin form: register(lift(plugin), { prefix })', () => {
    it('serves the plugin\'s routes under the prefix, and not without it', async () => {
      const app = createServer()
      app.register(lift(async (scope: Scope) => { scope.get('/x', () => ({ x: true })) }), { prefix: '/p' })
      expect(await status(app, '/p/x')).to.equal(200)
      expect(await status(app, '/x')).to.equal(404)
    })

    it('still lands hooks and decorators in the registering scope: routes outside the plugin see them', async () => {
      const app = createServer()
      app.register(lift(async (scope: Scope) => {
        scope.decorateRequest('who', 'lifted')
        scope.addHook('onRequest', async (_request, reply) => { reply.header('x-lifted', 'yes') })
        scope.get('/inside', (request) => ({ who: request.who }))
      }), { prefix: '/p' })
      app.get('/outside', (request) => ({ who: request.who }))
      const outside = await app.inject('/outside')
      expect(outside.json()).to.deep.equal({ who: 'lifted' })
      expect(outside.headers['x-lifted']).to.equal('yes')
      expect((await app.inject('/p/inside')).json()).to.deep.equal({ who: 'lifted' })
      expect(app.hasRequestDecorator('who')).to.equal(true)
    })

    it('shows the prefix as scope.prefix, keeps it through chained calls, and runs handlers with the registering scope as this', async () => {
      const app = createServer()
      let seenPrefix = ''
      app.register(lift(async (scope: Scope) => {
        seenPrefix = scope.prefix
        scope.decorate('answer', 42).get('/chained', function () { return { path: this.path, answer: this.answer } })
      }), { prefix: '/p/' })
      expect((await app.inject('/p/chained')).json()).to.deep.equal({ path: app.path, answer: 42 })
      expect(seenPrefix).to.equal('/p')
    })

    it('applies to what the lifted plugin registers: child plugins and further lifted plugins nest under it', async () => {
      const app = createServer()
      let childPrefix = ''
      app.register(async (outer: Scope) => {
        outer.register(lift(async (scope: Scope) => {
          scope.register(async (child: Scope) => { childPrefix = child.prefix; child.get('/y', () => 'y') }, { prefix: '/c' })
          scope.register(lift(async (inner: Scope) => { inner.get('/z', () => 'z') }), { prefix: '/q' })
          scope.register(lift(async (same: Scope) => { same.get('/w', () => 'w') }))
        }), { prefix: '/l' })
      }, { prefix: '/outer' })
      expect(await status(app, '/outer/l/c/y')).to.equal(200)
      expect(await status(app, '/outer/l/q/z')).to.equal(200)
      expect(await status(app, '/outer/l/w')).to.equal(200)
      expect(childPrefix).to.equal('/outer/l/c')
    })

    it('a lifted plugin without a prefix declares at the registering scope\'s prefix', async () => {
      const app = createServer()
      app.register(async (child: Scope) => { child.register(lift(async (scope: Scope) => { scope.get('/x', () => 'x') })) }, { prefix: '/c' })
      expect(await status(app, '/c/x')).to.equal(200)
    })
  })

  describe('module form: lift(Module) and plugins listed by modules', () => {
    it('a lifted module\'s prefix applies to its controllers and its children, joined with every ancestor\'s', async () => {
      @Route('/c') class C { @Get('/') c() { return { c: true } } }
      @Route() class D { @Get('/d') d() { return { d: true } } }
      @Module({ controllers: [D], prefix: '/child' }) class Child {}
      @Module({ controllers: [C], plugins: [Child], prefix: '/lm' }) class Lifted {}
      @Module({ plugins: [lift(Lifted)], prefix: '/root' }) class Root {}
      const app = await createApp(Root)
      try {
        expect(await status(app, '/root/lm/c')).to.equal(200)
        expect(await status(app, '/root/lm/child/d')).to.equal(200)
        expect(await status(app, '/lm/c')).to.equal(404)
      } finally {
        await app.close()
      }
    })

    it('a plugin listed in a module gets its own options (prefix unjoined) and runs under the module\'s prefix', async () => {
      let seen: PluginOptions | undefined
      const plugin = async (scope: Scope, options: PluginOptions) => { seen = options; scope.get('/x', () => 'x') }
      const liftedPlugin = lift(async (scope: Scope) => { scope.get('/y', () => 'y') })
      @Module({ plugins: [[plugin, { prefix: '/plug' }], [liftedPlugin, { prefix: '/lp' }]], prefix: '/root' }) class Root {}
      const app = await createApp(Root)
      try {
        expect(await status(app, '/root/plug/x')).to.equal(200)
        expect(await status(app, '/root/lp/y')).to.equal(200)
        expect(seen).to.deep.equal({ prefix: '/plug' })
      } finally {
        await app.close()
      }
    })
  })
})
