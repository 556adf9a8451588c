// Spec §5 "Authentication" (the bearer-token plugin) and §6 "Events" (lifecycle hooks).
import { expect } from 'chai'
import { bearerAuth, type Request, type Scope } from '../../src'
import { build, http, thrown } from './helpers'

describe('conformance §5: authentication', () => {
  it('§5.1-no-builtin-auth: the framework has no built-in authentication', async () => {
    const app = await build((root) => { root.get('/open', async () => ({ open: true })) })
    await http(app).get('/open').expect(200, { open: true })
    await http(app).get('/open').set('authorization', 'Bearer anything').expect(200, { open: true })
    await http(app).get('/open').set('authorization', 'garbage').expect(200, { open: true })
  })

  it('§5.2-bearer-keys: the bearer plugin takes a list of keys; authorization: Bearer <token> passes when the token is one of them', async () => {
    const app = await build((root) => {
      root.register(bearerAuth({ keys: ['key-one', 'key-two'] }))
      root.get('/secret', async () => ({ secret: true }))
    })
    await http(app).get('/secret').set('authorization', 'Bearer key-one').expect(200, { secret: true })
    await http(app).get('/secret').set('authorization', 'Bearer key-two').expect(200, { secret: true })
    await http(app).get('/secret').set('authorization', 'Bearer key-three').expect(401)
  })

  it('§5.2-keys-option: keys must be a non-empty array of strings (a coded error otherwise)', () => {
    for (const options of [{}, { keys: [] }, { keys: [''] }, { keys: 'key' }]) {
      expect(thrown(() => bearerAuth(options as never)).code).to.equal('ENC_ERR_AUTH_INVALID_OPTIONS')
    }
  })

  it('§5.3-siblings-open: the plugin protects only its context; routes of sibling contexts stay open', async () => {
    const app = await build((root) => {
      root.register(async (authenticated: Scope) => {
        authenticated.register(bearerAuth({ keys: ['k'] }))
        authenticated.get('/one', async () => ({ one: true }))
      })
      root.register(async (sibling: Scope) => {
        sibling.get('/two', async () => ({ two: true }))
        sibling.register(async (child: Scope) => { child.get('/three', async () => ({ three: true })) })
      })
    })
    await http(app).get('/one').expect(401)
    await http(app).get('/one').set('authorization', 'Bearer k').expect(200, { one: true })
    await http(app).get('/two').expect(200, { two: true })
    await http(app).get('/three').expect(200, { three: true })
  })

  it('§5.4-failure: a missing or wrong token (not shown) is answered 401 Unauthorized with WWW-Authenticate: Bearer; the handler does not run', async () => {
    let handled = 0
    const app = await build((root) => {
      root.register(bearerAuth({ keys: ['k'] }))
      root.get('/secret', async () => { handled++; return { secret: true } })
    })
    // The framework's error shape: { statusCode, code?, error, message } (docs/errors.md, "Errors").
    const shape = (body: Record<string, unknown>): void => {
      expect(Object.keys(body).filter((key) => key !== 'code')).to.deep.equal(['statusCode', 'error', 'message'])
      expect(body).to.include({ statusCode: 401, error: 'Unauthorized' })
      if ('code' in body) expect(body.code).to.equal('ENC_ERR_AUTH_UNAUTHORIZED')
    }
    const missing = await http(app).get('/secret').expect(401).expect('www-authenticate', 'Bearer')
    shape(missing.body)
    expect(missing.body.message).to.contain('authorization: Bearer')
    const wrong = await http(app).get('/secret').set('authorization', 'Bearer nope').expect(401).expect('www-authenticate', 'Bearer')
    shape(wrong.body)
    expect(wrong.body.message).to.equal('Invalid bearer token.')
    expect(handled).to.equal(0)
  })
})

describe('conformance §6: events (lifecycle hooks)', () => {
  it('§6.1-preHandler: preHandler runs after validation has completed and is the place for asynchronous work', async () => {
    const order: string[] = []
    const app = await build((root) => {
      root.addHook('preValidation', async () => { order.push('preValidation') })
      root.addHook('preHandler', async (req: Request) => {
        order.push(`preHandler sees ${typeof req.query.n}`)
        await new Promise((resolve) => setImmediate(resolve))
        req.query.looked = 'up'
        order.push('preHandler done')
      })
      root.get('/n', { schema: { querystring: { n: { type: 'integer' } } } }, async (req: Request) => {
        order.push('handler')
        return { looked: req.query.looked }
      })
    })
    await http(app).get('/n?n=1').expect(200, { looked: 'up' })
    expect(order).to.deep.equal(['preValidation', 'preHandler sees number', 'preHandler done', 'handler'])
    order.length = 0
    await http(app).get('/n?n=x').expect(400)
    expect(order).to.deep.equal(['preValidation'])
  })

  it('§6.2-hooks-encapsulated: hooks registered in a context apply to that context and its descendants only', async () => {
    const ran: string[] = []
    const app = await build((root) => {
      root.get('/root', async () => ({}))
      root.register(async (a: Scope) => {
        a.addHook('onRequest', async (req: Request) => { ran.push(`a-hook ${req.url}`) })
        a.get('/a', async () => ({}))
        a.register(async (a1: Scope) => { a1.get('/a1', async () => ({})) })
      })
      root.register(async (b: Scope) => { b.get('/b', async () => ({})) })
    })
    for (const path of ['/root', '/a', '/a1', '/b']) await http(app).get(path).expect(200)
    expect(ran).to.deep.equal(['a-hook /a', 'a-hook /a1'])
  })

  it('§6.3-hook-order: (not shown) the request hooks run onRequest, preParsing, preValidation, preHandler, handler, preSerialization, onSend, onResponse; ancestors first', async () => {
    const order: string[] = []
    let responded: () => void = () => undefined
    const done = new Promise<void>((resolve) => { responded = resolve })
    const app = await build((root) => {
      const names = ['onRequest', 'preParsing', 'preValidation', 'preHandler'] as const
      for (const name of names) root.addHook(name, async () => { order.push(`root ${name}`) })
      root.addHook('preSerialization', async (_req: Request, _reply, payload: unknown) => { order.push('root preSerialization'); return payload })
      root.addHook('onSend', async (_req: Request, _reply, payload: unknown) => { order.push('root onSend'); return payload })
      root.addHook('onResponse', async () => { order.push('root onResponse'); responded() })
      root.register(async (child: Scope) => {
        child.addHook('onRequest', async () => { order.push('child onRequest') })
        child.addHook('preHandler', async () => { order.push('child preHandler') })
        child.post('/h', async () => { order.push('handler'); return { ok: true } })
      })
    })
    await http(app).post('/h').send({ a: 1 }).expect(200, { ok: true })
    await done
    expect(order).to.deep.equal([
      'root onRequest', 'child onRequest', 'root preParsing', 'root preValidation', 'root preHandler', 'child preHandler',
      'handler', 'root preSerialization', 'root onSend', 'root onResponse',
    ])
  })

  it('§6.3-hook-args: (not shown) request hooks get (request, reply), payload hooks also the payload, onError also the error', async () => {
    const seen: Record<string, unknown> = {}
    const app = await build((root) => {
      root.addHook('preHandler', async (req: Request, reply) => { seen.preHandler = [req.url, typeof reply.send] })
      root.addHook('onSend', async (_req: Request, _reply, payload: unknown) => { seen.onSend = payload; return payload })
      root.addHook('onError', async (_req: Request, _reply, error: Error) => { seen.onError = error.message })
      root.get('/ok', async () => ({ ok: 1 }))
      root.get('/fail', async () => { throw new Error('failed here') })
    })
    await http(app).get('/ok').expect(200)
    expect(seen.preHandler).to.deep.equal(['/ok', 'function'])
    expect(seen.onSend).to.equal('{"ok":1}')
    await http(app).get('/fail').expect(500)
    expect(seen.onError).to.equal('failed here')
  })
})
