import { expect } from 'chai'
import request from 'supertest'
import { lift, type Scope } from '../../src/runtime'
import { bootError, build, server, thrown } from './helpers'

// What these tests decorate: Request and Reply have no catch-all (an undeclared name does not compile).
declare module '../../src/runtime' {
  interface ScopeDecorations { config?: unknown; x?: unknown }
  interface RequestDecorations { answer: number; foo: string; bar: string; user: unknown; bag: unknown; where: unknown; late: unknown; shared: unknown }
  interface ReplyDecorations { trace: unknown; teapot: unknown }
}

describe('runtime: decorators', () => {
  describe('§4.1 the example application', () => {
    function exampleApp(liftGrandchild: boolean) {
      return build((root) => {
        root.decorateRequest('answer', 42)
        root.register(async function authenticatedContext(ctx) {
          ctx.addHook('onRequest', async (req, reply) => {
            if (req.headers.authorization !== 'Bearer token-1') reply.code(401).send({ error: 'unauthorized' })
          })
          ctx.get('/one', async (req) => ({ answer: req.answer, foo: req.foo, bar: req.bar }))
        })
        root.register(async function publicContext(ctx) {
          ctx.decorateRequest('foo', 'foo')
          ctx.get('/two', async (req) => ({ answer: req.answer, foo: req.foo, bar: req.bar }))
          const grandchild = async function grandchildContext(g: Scope) {
            g.decorateRequest('bar', 'bar')
            g.get('/three', async (req) => ({ answer: req.answer, foo: req.foo, bar: req.bar }))
          }
          ctx.register(liftGrandchild ? lift(grandchild) : grandchild)
        })
      })
    }

    it('/one sees only the root decorator; /two adds foo; /three adds bar', async () => {
      const app = await exampleApp(false)
      await request(app.server).get('/one').set('authorization', 'Bearer token-1').expect(200, { answer: 42 })
      await request(app.server).get('/two').expect(200, { answer: 42, foo: 'foo' })
      await request(app.server).get('/three').expect(200, { answer: 42, foo: 'foo', bar: 'bar' })
    })

    it('§3.3.7 the authentication hook guards its own context only', async () => {
      const app = await exampleApp(false)
      await request(app.server).get('/one').expect(401)
      await request(app.server).get('/two').expect(200)
      await request(app.server).get('/three').expect(200)
    })

    it('§3.3.5 with the grandchild lifted, /two also returns bar and /three is unchanged', async () => {
      const app = await exampleApp(true)
      await request(app.server).get('/one').set('authorization', 'Bearer token-1').expect(200, { answer: 42 })
      await request(app.server).get('/two').expect(200, { answer: 42, foo: 'foo', bar: 'bar' })
      await request(app.server).get('/three').expect(200, { answer: 42, foo: 'foo', bar: 'bar' })
    })
  })

  describe('coded errors at declaration', () => {
    for (const method of ['decorate', 'decorateRequest', 'decorateReply'] as const) {
      it(`${method}: redefining a name visible in the scope throws ENC_ERR_DEC_ALREADY_PRESENT`, async () => {
        const errors: Array<Error & { code?: string }> = []
        await build((root) => {
          root[method]('dup' as string, 1)
          errors.push(thrown(() => root[method]('dup' as string, 2)))
          root.register(async (child) => {
            errors.push(thrown(() => child[method]('dup' as string, 3)))
            child[method]('childOnly' as string, 1)
          })
          root.register(async (sibling) => { sibling[method]('childOnly' as string, 2) }) // not visible there: allowed
        })
        expect(errors.map((e) => e.code)).to.deep.equal(['ENC_ERR_DEC_ALREADY_PRESENT', 'ENC_ERR_DEC_ALREADY_PRESENT'])
        expect(errors[1].message).to.contain("'dup'").and.contain('root > ')
      })
    }

    for (const method of ['decorateRequest', 'decorateReply'] as const) {
      for (const [label, value] of [['an object', { a: 1 }], ['an array', [1, 2]], ['a Map', new Map()]] as const) {
        it(`${method} with ${label} as initial value throws ENC_ERR_DEC_REFERENCE_TYPE and offers a way out`, () => {
          const error = thrown(() => server()[method]('shared' as string, value))
          expect(error.code).to.equal('ENC_ERR_DEC_REFERENCE_TYPE')
          expect(error.message).to.contain('factory').and.contain('getter')
        })
      }
    }

    it('decorate (instance) accepts an object: one scope-level value is meant to be shared', async () => {
      const config = { db: 'x' }
      let read: unknown = null
      await build((root) => {
        root.decorate('config', config)
        root.register(async (child) => { read = child.config })
      })
      expect(read).to.equal(config)
    })

    const reserved: Array<['decorate' | 'decorateRequest' | 'decorateReply', string]> = [
      ['decorateRequest', 'body'], ['decorateRequest', 'params'], ['decorateRequest', 'headers'], ['decorateRequest', 'raw'],
      ['decorateReply', 'send'], ['decorateReply', 'code'], ['decorateReply', 'statusCode'], ['decorateReply', 'raw'], ['decorateReply', 'then'],
      ['decorate', 'register'], ['decorate', 'route'], ['decorate', 'server'], ['decorate', 'prefix'],
    ]
    for (const [method, name] of reserved) {
      it(`${method}('${name}') throws ENC_ERR_DEC_RESERVED`, () => {
        const error = thrown(() => server()[method](name, 1))
        expect(error.code).to.equal('ENC_ERR_DEC_RESERVED')
        expect(error.message).to.contain(name)
      })
    }
  })

  describe('forms of value', () => {
    it('a { getter } request decorator computes per read, with `this` the request', async () => {
      const app = await build((root) => {
        root.decorateRequest('user', { getter(this: { headers: Record<string, string> }) { return this.headers['x-user'] ?? 'anonymous' } })
        root.get('/me', async (req) => ({ user: req.user }))
      })
      await request(app.server).get('/me').set('x-user', 'ada').expect(200, { user: 'ada' })
      await request(app.server).get('/me').expect(200, { user: 'anonymous' })
    })

    it('a { factory } request decorator gives a fresh object per request', async () => {
      const made: object[] = []
      const app = await build((root) => {
        root.decorateRequest('bag', { factory: () => ({ count: 0 }) })
        root.get('/count', async (req) => {
          const bag = req.bag as { count: number }
          made.push(bag)
          bag.count++
          return { count: bag.count }
        })
      })
      await request(app.server).get('/count').expect(200, { count: 1 })
      await request(app.server).get('/count').expect(200, { count: 1 })
      expect(made).to.have.length(2)
      expect(made[0]).to.not.equal(made[1])
    })

    it('a { factory } reply decorator receives the reply and runs per request', async () => {
      const app = await build((root) => {
        root.decorateReply('trace', { factory: (reply: { request: { id: string } }) => ({ id: reply.request.id }) })
        root.get('/trace', async (req, reply) => ({ same: (reply.trace as { id: string }).id === req.id }))
      })
      await request(app.server).get('/trace').expect(200, { same: true })
    })

    it("a plain-value request/reply decorator is each object's own property from the start, so assigning it in a hook keeps every request's property order (one V8 shape, as Fastify 3: same-shape.test.js)", async () => {
      const seen: Array<{ own: boolean; keys: string[]; replyKeys: string[] }> = []
      const app = await build((root) => {
        root.decorateRequest('user', undefined)
        root.decorateReply('trace', null)
        root.decorateRequest('where', function (this: { url: string }) { return this.url })
        root.addHook('preHandler', async (req, reply) => { if (req.headers['x-user'] !== undefined) { req.user = req.headers['x-user']; reply.trace = 'set' } })
        root.get('/me', async (req, reply) => {
          seen.push({ own: Object.prototype.hasOwnProperty.call(req, 'user'), keys: Object.keys(req), replyKeys: Object.keys(reply) })
          return { user: req.user ?? null, own: Object.prototype.hasOwnProperty.call(req, 'where') }
        })
      })
      await request(app.server).get('/me').expect(200, { user: null, own: false })
      await request(app.server).get('/me').set('x-user', 'ada').expect(200, { user: 'ada', own: false })
      expect(seen[0]!.own).to.equal(true)
      expect(seen[1]!.keys).to.deep.equal(seen[0]!.keys)
      expect(seen[1]!.replyKeys).to.deep.equal(seen[0]!.replyKeys)
    })

    it('a function request/reply decorator is a method with `this` the request/reply', async () => {
      const app = await build((root) => {
        root.decorateRequest('where', function (this: { url: string }) { return this.url })
        root.decorateReply('teapot', function (this: { code(n: number): { send(p: unknown): unknown } }) { return this.code(418).send('tea') })
        root.get('/where', async (req) => ({ where: (req.where as () => string)() }))
        root.get('/tea', async (_req, reply) => { (reply.teapot as () => void)(); return reply })
      })
      await request(app.server).get('/where?x=1').expect(200, { where: '/where?x=1' })
      await request(app.server).get('/tea').expect(418, 'tea')
    })

    it('a primitive request decorator can be overwritten per request without leaking to the next', async () => {
      const app = await build((root) => {
        root.decorateRequest('user', null)
        root.addHook('onRequest', async (req) => { if (req.headers['x-user'] !== undefined) req.user = req.headers['x-user'] })
        root.get('/me', async (req) => ({ user: req.user }))
      })
      await request(app.server).get('/me').set('x-user', 'ada').expect(200, { user: 'ada' })
      await request(app.server).get('/me').expect(200, { user: null })
    })

    it('a decorator declared in a lifted plugin after the parent declared its routes still applies to them', async () => {
      const app = await build((root) => {
        root.get('/early', async (req) => ({ late: req.late }))
        root.register(lift(async (s: Scope) => { s.decorateRequest('late', 'yes') }))
      })
      await request(app.server).get('/early').expect(200, { late: 'yes' })
    })
  })

  describe('has*() checks', () => {
    it('are false before, true after the declaration, per kind', () => {
      const app = server()
      expect([app.hasDecorator('x'), app.hasRequestDecorator('x'), app.hasReplyDecorator('x')]).to.deep.equal([false, false, false])
      app.decorateRequest('x' as string, 1)
      expect([app.hasDecorator('x'), app.hasRequestDecorator('x'), app.hasReplyDecorator('x')]).to.deep.equal([false, true, false])
      app.decorateReply('x' as string, 1)
      app.decorate('x', 1)
      expect([app.hasDecorator('x'), app.hasRequestDecorator('x'), app.hasReplyDecorator('x')]).to.deep.equal([true, true, true])
    })

    it('are true for a built-in member of the scope, request or reply, as in Fastify 3 (`name in instance`); `use` only once decorated', () => {
      const app = server()
      // Fastify 3.27.4 answers each of these true (test/differential, the plugin-api family).
      expect(['log', 'addHook', 'prefix'].map((n) => app.hasDecorator(n))).to.deep.equal([true, true, true])
      expect(['body', 'headers', 'query', 'params', 'id', 'raw'].map((n) => app.hasRequestDecorator(n))).to.deep.equal([true, true, true, true, true, true])
      expect(['send', 'code', 'statusCode', 'request'].map((n) => app.hasReplyDecorator(n))).to.deep.equal([true, true, true, true])
      expect([app.hasRequestDecorator('send'), app.hasReplyDecorator('body'), app.hasDecorator('nope')]).to.deep.equal([false, false, false])
      // A middleware plugin's `if (!hasDecorator('use')) decorate('use', ...)` still declares it.
      expect(app.hasDecorator('use')).to.equal(false)
    })

    it('a decorator may depend on a built-in member (Fastify 3 checks `dependencies` the same way)', async () => {
      const app = server()
      app.decorate('a', 1, ['log'])
      app.decorateRequest('b' as string, 1, ['headers'])
      app.decorateReply('c' as string, 1, ['send'])
      expect(thrown(() => app.decorateRequest('d' as string, 1, ['nope'])).code).to.equal('ENC_ERR_DEC_MISSING_DEPENDENCY')
      await app.ready()
      await app.close()
    })
  })

  it('a plugin that redefines an inherited decorator fails boot with that coded error', async () => {
    const app = server()
    app.decorateRequest('user', null)
    app.register(async (child) => { child.decorateRequest('user', null) })
    expect((await bootError(app)).code).to.equal('ENC_ERR_DEC_ALREADY_PRESENT')
  })
})
