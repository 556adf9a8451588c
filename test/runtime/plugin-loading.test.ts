import { expect } from 'chai'
import request from 'supertest'
import { lift, type Scope } from '../../src/runtime'
import { bootError, build, server, thrown } from './helpers'

// What these tests decorate on a scope: Scope has no catch-all (an undeclared name does not compile).
declare module '../../src/runtime' {
  interface ScopeDecorations { late?: unknown }
}

describe('runtime: plugins', () => {
  describe('plugin styles', () => {
    it('§4.2 an async plugin creates a child scope and may await before declaring', async () => {
      let child: Scope | null = null
      const app = await build((root) => {
        root.register(async (scope) => {
          await Promise.resolve()
          child = scope
          scope.get('/async', async () => 'async')
        })
      })
      expect(child).to.not.equal(null)
      expect(child).to.not.equal(app)
      expect((child as unknown as Scope).parent).to.equal(app)
      await request(app.server).get('/async').expect(200, 'async')
    })

    it('§4.2 a callback plugin runs until it calls done()', async () => {
      const app = await build((root) => {
        root.register((scope, _opts, done) => {
          setImmediate(() => {
            scope.get('/callback', async () => 'callback')
            done()
          })
        })
      })
      await request(app.server).get('/callback').expect(200, 'callback')
    })

    it('passes the registration options to the plugin', async () => {
      let received: unknown = null
      await build((root) => { root.register(async (_s, opts) => { received = opts }, { prefix: '/p', keys: ['k'] }) })
      expect(received).to.deep.equal({ prefix: '/p', keys: ['k'] })
    })
  })

  describe('prefix', () => {
    it('prefixes the routes of the plugin', async () => {
      const app = await build((root) => {
        root.register(async (scope) => { scope.get('/users', async () => 'users') }, { prefix: '/v1' })
      })
      await request(app.server).get('/v1/users').expect(200, 'users')
      await request(app.server).get('/users').expect(404)
    })

    it('joins nested prefixes, with or without slashes', async () => {
      const app = await build((root) => {
        root.register(async (a) => {
          expect(a.prefix).to.equal('/a')
          a.register(async (b) => {
            expect(b.prefix).to.equal('/a/b')
            b.register(async (c) => {
              expect(c.prefix).to.equal('/a/b/c')
              c.get('/leaf', async () => 'leaf')
              c.get('leaf2', async () => 'leaf2')
            }, { prefix: 'c' })
          }, { prefix: '/b/' })
        }, { prefix: '/a' })
      })
      await request(app.server).get('/a/b/c/leaf').expect(200, 'leaf')
      await request(app.server).get('/a/b/c/leaf2').expect(200, 'leaf2')
    })

    it("a route '/' in a prefixed plugin answers at the prefix itself", async () => {
      const app = await build((root) => {
        root.register(async (s) => { s.get('/', async () => 'index') }, { prefix: '/docs' })
      })
      await request(app.server).get('/docs').expect(200, 'index')
    })

    it('a child without a prefix option inherits its parent prefix', async () => {
      const app = await build((root) => {
        root.register(async (a) => {
          a.register(async (b) => { b.get('/x', async () => 'x') })
        }, { prefix: '/a' })
      })
      await request(app.server).get('/a/x').expect(200, 'x')
    })
  })

  describe('registration order', () => {
    it("a plugin's own registrations run after its body and before its next sibling", async () => {
      const order: string[] = []
      await build((root) => {
        root.register(async (a) => {
          order.push('a:body-start')
          a.register(async (a1) => {
            order.push('a1:body')
            a1.register(async () => { order.push('a1x:body') })
          })
          a.register(async () => { order.push('a2:body') })
          order.push('a:body-end')
        })
        root.register((b, _opts, done) => {
          order.push('b:body')
          b.register(async () => { order.push('b1:body') })
          done()
        })
        root.register(async () => { order.push('c:body') })
        order.push('root:declared')
      })
      expect(order).to.deep.equal([
        'root:declared', 'a:body-start', 'a:body-end', 'a1:body', 'a1x:body', 'a2:body', 'b:body', 'b1:body', 'c:body',
      ])
    })

    it('a route declared in the root after a plugin is still served (declaration order does not hide it)', async () => {
      const app = await build((root) => {
        root.register(async (s) => { s.get('/in-plugin', async () => 'p') })
        root.get('/after', async () => 'after')
      })
      await request(app.server).get('/in-plugin').expect(200, 'p')
      await request(app.server).get('/after').expect(200, 'after')
    })
  })

  describe('lift()', () => {
    it('§3.3.5 runs the plugin in the registering scope itself', async () => {
      let parent: Scope | null = null
      let inside: Scope | null = null
      await build((root) => {
        root.register(async (p) => {
          parent = p
          p.register(lift(async (s: Scope) => { inside = s }))
        })
      })
      expect(inside).to.not.equal(null)
      expect(inside).to.equal(parent)
    })

    it('keeps the callback style of a lifted plugin', async () => {
      let calledDone = false
      await build((root) => {
        root.register(lift((_s: Scope, _o: unknown, done: (e?: Error) => void) => { calledDone = true; done() }))
      })
      expect(calledDone).to.equal(true)
    })

    it("a lifted plugin's registrations create children of the registering scope", async () => {
      let grandchildParent: Scope | null = null
      let registering: Scope | null = null
      await build((root) => {
        root.register(async (p) => {
          registering = p
          p.register(lift(async (s: Scope) => {
            s.register(async (g) => { grandchildParent = g.parent })
          }))
        })
      })
      expect(grandchildParent).to.equal(registering)
    })
  })

  describe('failures make ready() reject', () => {
    it('with the error a plugin throws synchronously', async () => {
      const error = new Error('plugin exploded')
      const app = server()
      app.register(async () => { throw error })
      expect(await bootError(app)).to.equal(error)
    })

    it('with the error a plugin rejects with, even when nested', async () => {
      const error = new Error('nested rejection')
      const app = server()
      app.register(async (a) => { a.register(async () => { await Promise.resolve(); throw error }) })
      expect(await bootError(app)).to.equal(error)
    })

    it('with the error a callback plugin passes to done()', async () => {
      const error = new Error('done with error')
      const app = server()
      app.register((_s, _o, done) => { setImmediate(() => done(error)) })
      expect(await bootError(app)).to.equal(error)
    })

    it('with the error a non-async plugin function throws', async () => {
      const error = new Error('sync throw')
      const app = server()
      app.register(((_s: Scope, _o: unknown, _done: unknown) => { throw error }) as never)
      expect(await bootError(app)).to.equal(error)
    })

    it('with the rejection of an async plugin that also declares done (never an unhandled rejection)', async () => {
      const error = new Error('async with done')
      const app = server()
      app.register(async (_s, _o, _done) => { throw error })
      expect(await bootError(app)).to.equal(error)
    })

    it('an async plugin that declares done but only resolves has finished (as in avvio)', async () => {
      let loaded = false
      const app = server({ pluginTimeout: 1000 })
      app.register(async (s, _o, _done) => { s.get('/x', async () => 'x'); loaded = true })
      await app.ready()
      expect(loaded).to.equal(true)
    })

    it('with ENC_ERR_PLUGIN_TIMEOUT when a callback plugin never calls done()', async () => {
      const app = server({ pluginTimeout: 20 })
      app.register(async function outer(o) { o.register(function forgetful(_s, _opts, _done) { /* never calls done */ }) })
      const error = await bootError(app)
      expect(error.code).to.equal('ENC_ERR_PLUGIN_TIMEOUT')
      expect(error.message).to.contain('root > outer > forgetful').and.contain('done()')
    })

    it('with ENC_ERR_PLUGIN_TIMEOUT naming the plugin path when an async plugin never settles', async () => {
      const app = server({ pluginTimeout: 20 })
      app.register(async function outer(o) { o.register(async function hangs() { await new Promise(() => undefined) }) })
      const error = await bootError(app)
      expect(error.code).to.equal('ENC_ERR_PLUGIN_TIMEOUT')
      expect(error.message).to.contain('root > outer > hangs').and.contain('did not settle').and.contain('pluginTimeout')
    })

    it('with ENC_ERR_PLUGIN_TIMEOUT when an async plugin that declares done neither calls it nor settles', async () => {
      const app = server({ pluginTimeout: 20 })
      app.register(async function stuck(_s, _o, _done) { await new Promise(() => undefined) })
      const error = await bootError(app)
      expect(error.code).to.equal('ENC_ERR_PLUGIN_TIMEOUT')
      expect(error.message).to.contain('stuck').and.contain('done()')
    })

    it('with ENC_ERR_PLUGIN_TIMEOUT when an async after() callback never settles', async () => {
      const app = server({ pluginTimeout: 20 })
      app.register(async () => undefined)
      app.after(async () => { await new Promise(() => undefined) })
      const error = await bootError(app)
      expect(error.code).to.equal('ENC_ERR_PLUGIN_TIMEOUT')
      expect(error.message).to.contain('after() callback in root')
    })

    it('with ENC_ERR_PLUGIN_TIMEOUT when an async onReady hook never settles', async () => {
      const app = server({ pluginTimeout: 20 })
      app.addHook('onReady', async () => { await new Promise(() => undefined) })
      const error = await bootError(app)
      expect(error.code).to.equal('ENC_ERR_PLUGIN_TIMEOUT')
      expect(error.message).to.contain('onReady hook in root')
    })

    it('pluginTimeout 0 sets no limit: a slow async plugin still loads', async () => {
      const app = server({ pluginTimeout: 0 })
      // Longer than any timer a 0 could have armed (setTimeout 0 fires on the next turn).
      app.register(async (s) => { await new Promise((resolve) => setTimeout(resolve, 30)); s.get('/slow', async () => 'slow') })
      app.register((s, _o, done) => { setTimeout(() => { s.get('/cb', async () => 'cb'); done() }, 30) })
      await app.ready()
      await request(app.server).get('/slow').expect(200, 'slow')
      await request(app.server).get('/cb').expect(200, 'cb')
    })

    it('an async plugin that settles after its timeout is harmless: its declarations refused, its rejection not unhandled', async () => {
      const unhandled: unknown[] = []
      const onUnhandled = (reason: unknown): void => { unhandled.push(reason) }
      process.on('unhandledRejection', onUnhandled)
      try {
        let release!: () => void
        const released = new Promise<void>((resolve) => { release = resolve })
        let lateError: unknown = null
        const app = server({ pluginTimeout: 20 })
        app.register(async function late(s) {
          await released
          try { s.get('/late', async () => 'late') } catch (error) { lateError = error; throw error }
        })
        const error = await bootError(app)
        expect(error.code).to.equal('ENC_ERR_PLUGIN_TIMEOUT')
        release()
        await new Promise((resolve) => setImmediate(resolve))
        await new Promise((resolve) => setImmediate(resolve))
        expect((lateError as { code?: string } | null)?.code).to.equal('ENC_ERR_SCOPE_BOOTED')
        expect(await bootError(app)).to.equal(error)
        expect(unhandled).to.deep.equal([])
      } finally {
        process.off('unhandledRejection', onUnhandled)
      }
    })

    it('a later plugin does not run after an earlier one failed', async () => {
      let ranLater = false
      const app = server()
      app.register(async () => { throw new Error('first') })
      app.register(async () => { ranLater = true })
      await bootError(app)
      expect(ranLater).to.equal(false)
    })

    it('ready() rejects with the same error every time it is asked', async () => {
      const error = new Error('once')
      const app = server()
      app.register(async () => { throw error })
      expect(await bootError(app)).to.equal(error)
      expect(await bootError(app)).to.equal(error)
    })
  })

  describe('coded declaration errors', () => {
    for (const [label, value] of [['a string', 'plugin'], ['null', null], ['an object', {}], ['undefined', undefined]] as const) {
      it(`register(${label}) throws ENC_ERR_PLUGIN_INVALID naming the scope`, () => {
        const app = server()
        const error = thrown(() => app.register(value as never))
        expect(error.code).to.equal('ENC_ERR_PLUGIN_INVALID')
        expect(error.message).to.contain('root')
      })
    }

    it('register(a class) throws ENC_ERR_PLUGIN_INVALID saying a module class goes in createApp() or a module\'s plugins', () => {
      class AppModule {}
      const error = thrown(() => server().register(AppModule as never))
      expect(error.code).to.equal('ENC_ERR_PLUGIN_INVALID')
      expect(error.message).to.contain('the class AppModule').and.contain('createApp()')
    })

    it('declarations after boot throw ENC_ERR_SCOPE_BOOTED', async () => {
      let child: Scope | null = null
      const app = await build((root) => { root.register(async (s) => { child = s }) })
      const late: Array<[string, (s: Scope) => unknown]> = [
        ['register', (s) => s.register(async () => undefined)],
        ['route', (s) => s.route({ method: 'GET', url: '/late', handler: async () => 'x' })],
        ['get', (s) => s.get('/late', async () => 'x')],
        ['addHook', (s) => s.addHook('onRequest', async () => undefined)],
        ['decorate', (s) => s.decorate('late', 1)],
        ['decorateRequest', (s) => s.decorateRequest('late', 1)],
        ['decorateReply', (s) => s.decorateReply('late' as string, 1)],
        ['setErrorHandler', (s) => s.setErrorHandler(() => undefined)],
        ['setNotFoundHandler', (s) => s.setNotFoundHandler(() => undefined)],
        ['addContentTypeParser', (s) => s.addContentTypeParser('text/x-late', (_r, b) => b)],
        ['addSchema', (s) => s.addSchema({ $id: 'late', type: 'string' })],
      ]
      for (const scope of [app, child as unknown as Scope]) {
        for (const [name, declare] of late) {
          const error = thrown(() => declare(scope))
          expect(error.code, name).to.equal('ENC_ERR_SCOPE_BOOTED')
          expect(error.message, name).to.contain(scope.path)
          // Named as called (newcomer finding 13): app.get('/late') after boot says get(), not route().
          if (name === 'get' || name === 'route') expect(error.message, name).to.contain(`${name}()`)
        }
      }
    })
  })
})
