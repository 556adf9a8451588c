import { expect } from 'chai'
import request from 'supertest'
import { lift, type Scope } from '../../src/runtime'
import { bootError, build, deferred, server } from './helpers'

declare module '../../src/runtime' {
  interface RequestDecorations { marked: boolean }
}

const lifecycle = ['onRequest', 'preParsing', 'preValidation', 'preHandler', 'preSerialization', 'onSend', 'onResponse'] as const

describe('runtime: request hooks', () => {
  it('a normal request meets every hook in order, around the handler (async style)', async () => {
    const order: string[] = []
    const responded = deferred()
    const app = await build((root) => {
      for (const name of lifecycle) root.addHook(name as 'onRequest', async () => { order.push(name) })
      root.addHook('onResponse', async () => { responded.resolve() })
      root.post('/x', async () => { order.push('handler'); return { ok: true } })
    })
    await request(app.server).post('/x').send({ a: 1 }).expect(200, { ok: true })
    await responded.promise
    expect(order).to.deep.equal(['onRequest', 'preParsing', 'preValidation', 'preHandler', 'handler', 'preSerialization', 'onSend', 'onResponse'])
  })

  it('the same order in callback style (done)', async () => {
    const order: string[] = []
    const responded = deferred()
    const app = await build((root) => {
      for (const name of ['onRequest', 'preParsing', 'preValidation', 'preHandler', 'onResponse'] as const) {
        root.addHook(name, (_req, _reply, done) => { order.push(name); (done as () => void)() })
      }
      for (const name of ['preSerialization', 'onSend'] as const) {
        root.addHook(name, (_req, _reply, payload, done) => { order.push(name); (done as (e: null, p: unknown) => void)(null, payload) })
      }
      root.addHook('onResponse', (_req, _reply, done) => { responded.resolve(); (done as () => void)() })
      root.get('/x', async () => { order.push('handler'); return { ok: true } })
    })
    await request(app.server).get('/x').expect(200, { ok: true })
    await responded.promise
    expect(order).to.deep.equal(['onRequest', 'preParsing', 'preValidation', 'preHandler', 'handler', 'preSerialization', 'onSend', 'onResponse'])
  })

  it('a synchronous hook (no done, no promise) continues the chain', async () => {
    const app = await build((root) => {
      root.addHook('preHandler', (req) => { req.marked = true })
      root.decorateRequest('marked', false)
      root.get('/x', async (req) => ({ marked: req.marked }))
    })
    await request(app.server).get('/x').expect(200, { marked: true })
  })

  it('ancestors first, then the scope, then route-level hooks, each in declaration order', async () => {
    const order: string[] = []
    const app = await build((root) => {
      root.addHook('preHandler', async () => { order.push('root-1') })
      root.register(async (a) => {
        a.addHook('preHandler', async () => { order.push('a-1') })
        a.register(async (b) => {
          b.addHook('preHandler', async () => { order.push('b-1') })
          b.get('/x', { preHandler: [async () => { order.push('route-1') }, async () => { order.push('route-2') }] }, async () => {
            order.push('handler')
            return 'ok'
          })
          b.addHook('preHandler', async () => { order.push('b-2') }) // declared after the route: still applies
        })
        a.addHook('preHandler', async () => { order.push('a-2') })
      })
      root.addHook('preHandler', async () => { order.push('root-2') })
    })
    await request(app.server).get('/x').expect(200, 'ok')
    expect(order).to.deep.equal(['root-1', 'root-2', 'a-1', 'a-2', 'b-1', 'b-2', 'route-1', 'route-2', 'handler'])
  })

  it('route-level hooks of every request stage are accepted as a function or an array', async () => {
    const order: string[] = []
    const app = await build((root) => {
      root.get('/x', {
        onRequest: async () => { order.push('onRequest') },
        preParsing: [async () => { order.push('preParsing') }],
        preValidation: async () => { order.push('preValidation') },
        preHandler: async () => { order.push('preHandler') },
        preSerialization: async (_q, _r, payload) => { order.push('preSerialization'); return payload },
        onSend: async (_q, _r, payload) => { order.push('onSend'); return payload },
      }, async () => ({ ok: true }))
    })
    await request(app.server).get('/x').expect(200, { ok: true })
    expect(order).to.deep.equal(['onRequest', 'preParsing', 'preValidation', 'preHandler', 'preSerialization', 'onSend'])
  })

  describe('ending the chain', () => {
    for (const stage of ['onRequest', 'preParsing', 'preValidation', 'preHandler'] as const) {
      it(`a ${stage} hook that sends ends the chain: later hooks and the handler do not run`, async () => {
        const ran: string[] = []
        const app = await build((root) => {
          root.addHook(stage, async (_req, reply) => { reply.code(403).send({ stoppedAt: stage }) })
          for (const later of ['onRequest', 'preParsing', 'preValidation', 'preHandler'] as const) {
            root.addHook(later, async () => { ran.push(later) })
          }
          root.get('/x', async () => { ran.push('handler'); return 'handler' })
        })
        await request(app.server).get('/x').expect(403, { stoppedAt: stage })
        const earlier = ['onRequest', 'preParsing', 'preValidation', 'preHandler'].slice(0, ['onRequest', 'preParsing', 'preValidation', 'preHandler'].indexOf(stage))
        expect(ran).to.deep.equal(earlier)
      })
    }

    it('a callback hook that sends and never calls done ends the chain', async () => {
      let handled = false
      const app = await build((root) => {
        root.addHook('onRequest', (_req, reply, _done) => { reply.send('early') })
        root.get('/x', async () => { handled = true; return 'late' })
      })
      await request(app.server).get('/x').expect(200, 'early')
      expect(handled).to.equal(false)
    })
  })

  describe('failing hooks go to the error handler', () => {
    const failures: Array<[string, (root: Scope, error: Error) => void]> = [
      ['throws', (root, error) => root.addHook('preHandler', () => { throw error })],
      ['rejects', (root, error) => root.addHook('preHandler', async () => { throw error })],
      ['calls done(error)', (root, error) => root.addHook('onRequest', (_q, _r, done) => { (done as (e: Error) => void)(error) })],
      // Fails on the handler's payload only: the error handler's answer passes the same hook.
      ['fails in preSerialization', (root, error) => root.addHook('preSerialization', async (_q, _r, p) => { if ((p as { ok?: boolean }).ok) throw error; return p })],
      ['fails in onSend', (root, error) => root.addHook('onSend', async (_q, _r, p) => { if (p === '{"ok":true}') throw error; return p })],
    ]
    for (const [how, add] of failures) {
      it(`a hook that ${how}`, async () => {
        const error = Object.assign(new Error('hook failed'), { statusCode: 409 })
        let received: unknown = null
        let handled = false
        const app = await build((root) => {
          add(root, error)
          root.setErrorHandler(async (e, _req, reply) => { received = e; reply.code(409).send({ handledBy: 'error handler' }) })
          root.get('/x', async () => { handled = true; return { ok: true } })
        })
        await request(app.server).get('/x').expect(409, { handledBy: 'error handler' })
        expect(received).to.equal(error)
        if (how.startsWith('fails in')) expect(handled).to.equal(true)
        else expect(handled).to.equal(false)
      })
    }
  })

  for (const name of ['preSerialization', 'onSend'] as const) {
    it(`a ${name} hook that fails on every payload still gets the client the default error reply`, async () => {
      let calls = 0
      const app = await build((root) => {
        root.addHook(name, async () => { calls++; throw new Error('always fails') })
        root.get('/x', async () => ({ ok: true }))
      })
      const res = await request(app.server).get('/x').expect(500)
      expect(res.text).to.equal('{"statusCode":500,"error":"Internal Server Error","message":"Internal Server Error"}')
      // onSend: the handler's payload, then the default error payload; then it is written directly.
      // preSerialization never sees the built-in error payload (issue 12, as Fastify): once.
      expect(calls).to.equal(name === 'onSend' ? 2 : 1)
    })
  }

  describe('payload hooks', () => {
    it('preSerialization replaces the object before it is serialized', async () => {
      const app = await build((root) => {
        root.addHook('preSerialization', async (_q, _r, payload) => ({ wrapped: payload }))
        root.get('/x', async () => ({ a: 1 }))
      })
      await request(app.server).get('/x').expect(200, { wrapped: { a: 1 } })
    })

    it('preSerialization does not run for a string payload', async () => {
      let ran = false
      const app = await build((root) => {
        root.addHook('preSerialization', async (_q, _r, p) => { ran = true; return p })
        root.get('/x', async () => 'plain')
      })
      await request(app.server).get('/x').expect(200, 'plain')
      expect(ran).to.equal(false)
    })

    it('onSend sees the serialized string and can replace it', async () => {
      let seen: unknown = null
      const app = await build((root) => {
        root.addHook('onSend', async (_q, reply, payload) => {
          seen = payload
          reply.header('content-type', 'text/plain; charset=utf-8')
          return 'replaced'
        })
        root.get('/x', async () => ({ a: 1 }))
      })
      const res = await request(app.server).get('/x').expect(200, 'replaced')
      expect(seen).to.equal('{"a":1}')
      expect(res.headers['content-length']).to.equal('8')
    })

    it('onSend hooks chain: each gets the previous one\'s payload (callback style too)', async () => {
      const app = await build((root) => {
        root.addHook('onSend', async (_q, _r, payload) => `${String(payload)}-1`)
        root.addHook('onSend', (_q, _r, payload, done) => { (done as (e: null, p: unknown) => void)(null, `${String(payload)}-2`) })
        root.get('/x', async () => 'start')
      })
      await request(app.server).get('/x').expect(200, 'start-1-2')
    })
  })

  describe('onResponse and onError', () => {
    it('onResponse runs after the response was written', async () => {
      const finished = deferred<boolean>()
      const app = await build((root) => {
        root.addHook('onResponse', async (_req, reply) => { finished.resolve(reply.raw.writableFinished) })
        root.get('/x', async () => 'ok')
      })
      await request(app.server).get('/x').expect(200, 'ok')
      expect(await finished.promise).to.equal(true)
    })

    it('onResponse runs for error replies too, and a failing onResponse hook changes nothing', async () => {
      const statuses: number[] = []
      const done = deferred()
      const app = await build((root) => {
        root.addHook('onResponse', async () => { throw new Error('logging broke') })
        root.addHook('onResponse', async (_req, reply) => { statuses.push(reply.statusCode); done.resolve() })
        root.get('/x', async () => { throw Object.assign(new Error('gone'), { statusCode: 410 }) })
      })
      await request(app.server).get('/x').expect(410)
      await done.promise
      expect(statuses).to.deep.equal([410])
    })

    // Issue 12 (deliberate change): Fastify 3's order. onError runs after the error handler, and
    // only when the error goes on to the built-in reply; a handler that answers has handled it.
    it('onError runs after the error handler, when the handler sends the error on, and receives the error', async () => {
      const order: string[] = []
      const error = new Error('boom')
      let seen: unknown = null
      const app = await build((root) => {
        root.addHook('onError', async (_req, _reply, e) => { seen = e; order.push('onError') })
        root.setErrorHandler(async (e, req, reply) => { order.push('errorHandler'); if (req.url === '/x') reply.code(500).send({ handled: true }); else reply.send(e) })
        root.get('/x', async () => { throw error })
        root.get('/on', async () => { throw error })
      })
      await request(app.server).get('/x').expect(500, { handled: true })
      expect(order).to.deep.equal(['errorHandler'])
      await request(app.server).get('/on').expect(500)
      expect(order).to.deep.equal(['errorHandler', 'errorHandler', 'onError'])
      expect(seen).to.equal(error)
    })

    // Found by the differential tester (errors family): the handler returned while the async
    // onError hooks still ran, was taken for one that sent nothing, and a bare 500 went out first.
    it('a synchronous error handler that sends the error on answers with that error, its headers kept, while async onError hooks run', async () => {
      let onErrorCalls = 0
      const app = await build((root) => {
        root.addHook('onError', async () => { onErrorCalls++ })
        root.setErrorHandler((e, _req, reply) => { reply.header('x-seen', 'yes'); reply.send(e) })
        root.get('/x', async () => { throw Object.assign(new Error('slow down'), { statusCode: 429 }) })
        root.get('/exposed', async () => { throw Object.assign(new Error('later'), { statusCode: 503, expose: true }) })
      })
      const res = await request(app.server).get('/x').expect(429)
      expect(res.headers['x-seen']).to.equal('yes')
      expect(res.body).to.deep.equal({ statusCode: 429, error: 'Too Many Requests', message: 'slow down' })
      await request(app.server).get('/exposed').expect(503, { statusCode: 503, error: 'Service Unavailable', message: 'later' })
      expect(onErrorCalls).to.equal(2)
    })

    it('onError runs once even when the error handler itself fails', async () => {
      let calls = 0
      const app = await build((root) => {
        root.addHook('onError', async () => { calls++ })
        root.register(async (child) => {
          child.setErrorHandler(async () => { throw new Error('handler broke') })
          child.get('/x', async () => { throw new Error('first') })
        })
      })
      await request(app.server).get('/x').expect(500)
      expect(calls).to.equal(1)
    })

    // README differences: Fastify 3.27.4 runs the onError hooks again for the failed error reply.
    it('onError runs once even when an onSend hook fails on the payload and again on the error reply (Fastify 3 runs it per failed error reply)', async () => {
      const seen: string[] = []
      const app = await build((root) => {
        root.addHook('onError', async (_req, _reply, error) => { seen.push(error.message) })
        root.addHook('onSend', async () => { throw new Error('onSend failed') })
        root.get('/x', async () => ({ plain: 1 }))
      })
      await request(app.server).get('/x').expect(500)
      expect(seen).to.deep.equal(['onSend failed'])
    })

    it('onError does not run for a successful request', async () => {
      let calls = 0
      const app = await build((root) => {
        root.addHook('onError', async () => { calls++ })
        root.get('/x', async () => 'ok')
      })
      await request(app.server).get('/x').expect(200)
      expect(calls).to.equal(0)
    })
  })

  describe('lifted hooks', () => {
    it('apply to the parent routes, also to routes declared before the lifted plugin', async () => {
      const app = await build((root) => {
        root.register(async (parent) => {
          parent.get('/before', async () => 'before')
          parent.register(lift(async (s: Scope) => {
            s.addHook('onRequest', async (_req, reply) => { reply.header('x-lifted', 'yes') })
          }))
          parent.get('/after', async () => 'after')
          parent.register(async (child) => { child.get('/child', async () => 'child') })
        }, { prefix: '/p' })
        root.get('/root', async () => 'root')
      })
      for (const path of ['/p/before', '/p/after', '/p/child']) {
        const res = await request(app.server).get(path).expect(200)
        expect(res.headers['x-lifted'], path).to.equal('yes')
      }
      const res = await request(app.server).get('/root').expect(200)
      expect(res.headers['x-lifted']).to.equal(undefined)
    })

    it('a scope hook added after a route applies to it (hooks resolve at boot)', async () => {
      const app = await build((root) => {
        root.get('/x', async () => 'x')
        root.addHook('onRequest', async (_req, reply) => { reply.header('x-late', 'yes') })
      })
      const res = await request(app.server).get('/x').expect(200)
      expect(res.headers['x-late']).to.equal('yes')
    })
  })

  it('hooks run with `this` bound to the scope that declared them', async () => {
    let self: unknown = null
    let declaring: Scope | null = null
    const app = await build((root) => {
      root.register(async (child) => {
        declaring = child
        child.addHook('onRequest', async function (this: Scope) { self = this })
        child.get('/x', async () => 'x')
      })
    })
    await request(app.server).get('/x').expect(200)
    expect(self).to.equal(declaring)
  })

  describe('coded declaration errors', () => {
    it('addHook with an unknown name or a non-function throws a coded error', () => {
      const app = server()
      expect(() => app.addHook('preSomething' as 'onRequest', async () => undefined)).to.throw().with.property('code', 'ENC_ERR_HOOK_INVALID_NAME')
      expect(() => app.addHook('onRequest', 'nope' as never)).to.throw().with.property('code', 'ENC_ERR_HOOK_INVALID_HANDLER')
    })

    it('an async hook that also takes done is refused (it would hang when done is forgotten)', async () => {
      const app = server()
      for (const name of ['onRequest', 'preHandler', 'onResponse'] as const) {
        expect(() => app.addHook(name, async (_q, _r, _done) => undefined), name).to.throw().with.property('code', 'ENC_ERR_HOOK_INVALID_HANDLER')
      }
      for (const name of ['onSend', 'preSerialization'] as const) {
        expect(() => app.addHook(name, async (_q, _r, _p, _done) => undefined), name).to.throw().with.property('code', 'ENC_ERR_HOOK_INVALID_HANDLER')
      }
      expect(() => app.addHook('onError', async (_q, _r, _e, _done) => undefined)).to.throw().with.property('code', 'ENC_ERR_HOOK_INVALID_HANDLER')
      app.get('/x', { preHandler: async (_q, _r, _done) => undefined }, async () => 'x')
      expect((await bootError(app)).code).to.equal('ENC_ERR_HOOK_INVALID_HANDLER')
    })
  })
})
