import { expect } from 'chai'
import request from 'supertest'
import { lift, type RouteOptions, type Scope } from '../../src/runtime'
import { bootError, build, deferred, recordingLogger, server } from './helpers'

describe('runtime: application hooks', () => {
  describe('onRoute', () => {
    it('sees every route of its scope and descendants with the final url and methods (one method as a string, as Fastify gives it)', async () => {
      const seen: Array<{ method: unknown; url: unknown }> = []
      await build((root) => {
        root.addHook('onRoute', (route) => { seen.push({ method: route.method, url: route.url }) })
        root.get('/a', async () => 'a')
        root.register(async (child) => {
          child.route({ method: ['POST', 'put'], path: '/b', handler: async () => 'b' })
        }, { prefix: '/v1' })
      })
      expect(seen).to.deep.equal([{ method: 'GET', url: '/a' }, { method: ['POST', 'PUT'], url: '/v1/b' }])
    })

    it('can amend the route options before it is compiled', async () => {
      const app = await build((root) => {
        root.addHook('onRoute', (route: RouteOptions) => {
          route.config = { ...route.config, tagged: true }
          route.preHandler = async (_req, reply) => { reply.header('x-amended', 'yes') }
        })
        root.get('/x', async (req) => ({ config: req.routeConfig }))
      })
      const res = await request(app.server).get('/x').expect(200, { config: { tagged: true, url: '/x', method: 'GET' } })
      expect(res.headers['x-amended']).to.equal('yes')
    })

    it("runs ancestors' hooks first and does not see routes of a parent or sibling", async () => {
      const calls: string[] = []
      await build((root) => {
        root.addHook('onRoute', (r) => { calls.push(`root:${String(r.url)}`) })
        root.get('/r', async () => 'r')
        root.register(async (a) => {
          a.addHook('onRoute', (r) => { calls.push(`a:${String(r.url)}`) })
          a.get('/a', async () => 'a')
        })
        root.register(async (s) => { s.get('/s', async () => 's') })
      })
      expect(calls).to.deep.equal(['root:/r', 'root:/a', 'a:/a', 'root:/s'])
    })
  })

  describe('onRegister', () => {
    it('is called with each new child scope and its options, also for grandchildren, not for lifted plugins', async () => {
      const seen: Array<[string, unknown]> = []
      await build((root) => {
        root.addHook('onRegister', (child, opts) => { seen.push([child.path, opts.prefix]) })
        root.register(async function a(a) {
          a.register(async function b() { /* grandchild */ }, { prefix: '/b' })
          a.register(lift(async function lifted() { /* runs in a */ }))
        }, { prefix: '/a' })
      })
      expect(seen).to.deep.equal([['root > a', '/a'], ['root > a > b', '/b']])
    })

    it('may give each new child its own copy of an instance decorator the hook\'s scope declared (Fastify\'s onRegister pattern, @fastify/express\'s `express`); elsewhere a re-declaration is still refused', async () => {
      const lists: Record<string, unknown> = {}
      const app = await build((root) => {
        root.decorate('list' as never, [] as never)
        root.addHook('onRegister', (child) => { child.decorate('list' as never, <never>[...(child as unknown as { list: string[] }).list]) })
        ;(root as unknown as { list: string[] }).list.push('root')
        root.register(async function a(a) {
          ;(a as unknown as { list: string[] }).list.push('a')
          a.register(async function b(b) { (b as unknown as { list: string[] }).list.push('b'); lists.b = (b as unknown as { list: string[] }).list })
          lists.a = (a as unknown as { list: string[] }).list
        })
      })
      expect([(app as unknown as { list: string[] }).list, lists.a, lists.b]).to.deep.equal([['root'], ['root', 'a'], ['root', 'a', 'b']])
      // Outside an onRegister hook, and for a name the hook's scope did not declare, a child's re-declaration is refused.
      const plain = server()
      plain.decorate('list' as never, [] as never)
      plain.register(async (child) => { child.decorate('list' as never, [] as never) })
      expect((await bootError(plain)).code).to.equal('ENC_ERR_DEC_ALREADY_PRESENT')
      const other = server()
      other.decorate('theirs' as never, 1 as never)
      other.register(async (mid) => {
        mid.addHook('onRegister', (child) => { child.decorate('theirs' as never, 2 as never) })
        mid.register(async () => undefined)
      })
      expect((await bootError(other)).code).to.equal('ENC_ERR_DEC_ALREADY_PRESENT')
    })
  })

  describe('onReady', () => {
    it('runs once boot is complete (routes compiled), before ready() resolves; async and callback', async () => {
      const order: string[] = []
      const app = server()
      app.addHook('onReady', async function (this: Scope) {
        order.push('async')
        expect(() => this.get('/late', async () => 'x')).to.throw().with.property('code', 'ENC_ERR_SCOPE_BOOTED')
      })
      app.register(async (child) => {
        child.addHook('onReady', (done) => { order.push('callback'); setImmediate(() => (done as () => void)()) })
      })
      app.get('/x', async () => 'x')
      await app.ready()
      order.push('ready')
      expect(order).to.deep.equal(['async', 'callback', 'ready'])
    })

    it('run depth first, each scope before its children and a child before its parent\'s next sibling, as Fastify 3.27.4 walks the plugin tree', async () => {
      const order: string[] = []
      const ready = (name: string) => async (): Promise<void> => { order.push(name) }
      await build((root) => {
        root.addHook('onReady', ready('root'))
        root.register(async (a: Scope) => {
          a.addHook('onReady', ready('a'))
          a.register(async (deep: Scope) => { deep.addHook('onReady', ready('a/deep')) })
        })
        root.register(async (b: Scope) => { b.addHook('onReady', ready('b')) })
      })
      // Fastify 3.27.4 logs the same order for the same app (breadth first would put b before a/deep).
      expect(order).to.deep.equal(['root', 'a', 'a/deep', 'b'])
    })

    it('a failing onReady hook makes ready() reject with its error', async () => {
      const error = new Error('not ready')
      const app = server()
      app.addHook('onReady', async () => { throw error })
      expect(await bootError(app)).to.equal(error)
    })
  })

  describe('onClose', () => {
    it('runs after close(), deepest scopes first, each receiving its scope', async () => {
      const order: string[] = []
      const app = await build((root) => {
        root.addHook('onClose', async (scope) => { order.push(`root:${scope === root}`) })
        root.register(async (child) => {
          child.addHook('onClose', (scope, done) => { order.push(`child:${scope === child}`); (done as () => void)() })
        })
      })
      expect(order).to.deep.equal([])
      await app.close()
      expect(order).to.deep.equal(['child:true', 'root:true'])
    })

    it('a failing onClose hook is logged and the others still run', async () => {
      const order: string[] = []
      const app = await build((root) => {
        root.addHook('onClose', async () => { order.push('root') })
        root.register(async (child) => { child.addHook('onClose', async () => { throw new Error('cleanup failed') }) })
      })
      await app.close()
      expect(order).to.deep.equal(['root'])
    })

    it('an async onClose or preClose hook that never settles is logged with ENC_ERR_PLUGIN_TIMEOUT after pluginTimeout and close() goes on', async () => {
      const logger = recordingLogger()
      const order: string[] = []
      const app = await build((root) => {
        root.addHook('preClose', async () => { order.push('preClose hangs'); await new Promise(() => undefined) })
        root.addHook('onClose', async () => { order.push('onClose runs') })
        root.register(async (child) => { child.addHook('onClose', async () => { order.push('onClose hangs'); await new Promise(() => undefined) }) }, { prefix: '/c' })
      }, { logger, pluginTimeout: 20 })
      await app.close()
      expect(order).to.deep.equal(['preClose hangs', 'onClose hangs', 'onClose runs'])
      const timeouts = logger.entries.filter((e) => e.level === 'error' && (e.obj?.err as { code?: string } | undefined)?.code === 'ENC_ERR_PLUGIN_TIMEOUT')
      expect(timeouts.map((e) => (e.obj.err as Error).message)).to.have.length(2)
      expect((timeouts[0]!.obj.err as Error).message).to.contain('preClose hook in root').and.contain('did not settle within 20 ms (pluginTimeout)')
      expect((timeouts[1]!.obj.err as Error).message).to.contain('onClose hook in root > ').and.contain('did not settle within 20 ms')
    })

    it('pluginTimeout 0 leaves a close hook unbounded, as for plugins', async () => {
      let release!: () => void
      let closed = false
      const started = deferred()
      const app = await build((root) => {
        root.addHook('onClose', () => { started.resolve(); return new Promise<void>((resolve) => { release = resolve }) })
      }, { pluginTimeout: 0 })
      const closing = app.close().then(() => { closed = true })
      await started.promise
      await new Promise((resolve) => setImmediate(resolve))
      expect(closed).to.equal(false)
      release()
      await closing
      expect(closed).to.equal(true)
    })

    it('close() is idempotent: hooks run once', async () => {
      let runs = 0
      const app = await build((root) => { root.addHook('onClose', async () => { runs++ }) })
      await Promise.all([app.close(), app.close()])
      await app.close()
      expect(runs).to.equal(1)
    })
  })
})
