// reply.callNotFound() hands the request to the not-found route. Fastify 3 keeps the same request
// object (it swaps its context), so what an auth hook or the handler set is still there; a
// Fastify service ported with only its import changed relies on it (newcomer12).
import { expect } from 'chai'
import { createServer, type Reply, type Request, type Scope } from '../../src'

type Loose = Record<string, unknown>
const loose = (request: Request): Loose => request as unknown as Loose

describe('reply.callNotFound() keeps what the request carried', () => {
  it("the not-found handler and its preHandler hooks see a decorator value and a property the calling route's hooks set", async () => {
    const app = createServer()
    app.decorateRequest('user' as never, null as never)
    app.register(async (api: Scope) => {
      api.addHook('onRequest', async (request: Request) => {
        loose(request).user = 'ada'
        loose(request).trace = ['onRequest']
      })
      api.addHook('preHandler', async (request: Request) => { (loose(request).trace as string[]).push('preHandler') })
      api.setNotFoundHandler((request: Request, reply: Reply) => {
        reply.code(404).send({ user: loose(request).user, trace: loose(request).trace })
      })
      api.delete('/items/:id', async (_request: Request, reply: Reply) => reply.callNotFound())
    }, { prefix: '/api' })
    const res = await app.inject({ method: 'DELETE', url: '/api/items/2' })
    expect(res.statusCode).to.equal(404)
    // preHandler twice: the route's, then the not-found route's (Fastify 3 runs the 404 context's preHandler hooks too).
    expect(res.json()).to.deep.equal({ user: 'ada', trace: ['onRequest', 'preHandler', 'preHandler'] })
    await app.close()
  })

  it("the not-found handler reads the calling route's params and query, as Fastify 3's one request keeps them", async () => {
    const app = createServer()
    app.setNotFoundHandler((request: Request, reply: Reply) => { reply.code(404).send({ params: request.params, query: request.query }) })
    app.get('/x/:id', async (_request: Request, reply: Reply) => reply.callNotFound())
    const res = await app.inject('/x/7?a=1')
    expect(res.json()).to.deep.equal({ params: { id: '7' }, query: { a: '1' } })
    await app.close()
  })

  it("a decorator only the calling route's scope declares stays unseen by an ancestor's not-found handler", async () => {
    const app = createServer()
    app.setNotFoundHandler((request: Request, reply: Reply) => { reply.code(404).send({ tenant: loose(request).tenant ?? 'unseen' }) })
    app.register(async (child: Scope) => {
      child.decorateRequest('tenant' as never, null as never)
      child.addHook('onRequest', async (request: Request) => { loose(request).tenant = 't1' })
      child.get('/x', async (_request: Request, reply: Reply) => reply.callNotFound())
    })
    const res = await app.inject('/x')
    expect(res.json()).to.deep.equal({ tenant: 'unseen' })
    await app.close()
  })

  it("reply.elapsedTime in the not-found handler counts from the request's arrival, not from callNotFound() (Fastify 3 keeps the one request and its start)", async () => {
    const app = createServer()
    app.setNotFoundHandler((request: Request, reply: Reply) => {
      const now = performance.now()
      const mark = loose(request).mark as { elapsed: number; at: number }
      // Counted from the arrival, the elapsed time covers what passed before the hand-over plus since.
      reply.code(404).send({ fromArrival: reply.elapsedTime >= mark.elapsed + (now - mark.at) })
    })
    app.get('/x', async (request: Request, reply: Reply) => {
      loose(request).mark = { elapsed: reply.elapsedTime, at: performance.now() }
      return reply.callNotFound()
    })
    const res = await app.inject('/x')
    expect(res.json()).to.deep.equal({ fromArrival: true })
    await app.close()
  })
})

describe("reply.callNotFound() answers with the calling route's scope's not-found handler (Fastify 3)", () => {
  it('a sibling plugin at the same prefix with its own handler is not the route\'s: the nearest ancestor\'s handler answers; a URL nobody matches still goes by prefix', async () => {
    const app = createServer()
    app.setNotFoundHandler((_request: Request, reply: Reply) => { reply.code(404).send({ by: 'root' }) })
    app.register(async (a: Scope) => {
      a.setNotFoundHandler((_request: Request, reply: Reply) => { reply.code(404).send({ by: 'A' }) })
      a.register(async (c: Scope) => { c.get('/x', (_request: Request, reply: Reply) => { reply.callNotFound() }) }, { prefix: '/c' })
    }, { prefix: '/v1' })
    app.register(async (b: Scope) => { b.get('/y', (_request: Request, reply: Reply) => { reply.callNotFound() }) }, { prefix: '/v1' })
    app.get('/r', (_request: Request, reply: Reply) => { reply.callNotFound() })
    // The figures Fastify 3.27.4 gives for the same app.
    const answers: Record<string, unknown> = {}
    for (const url of ['/v1/y', '/v1/c/x', '/r', '/v1/zz']) answers[url] = (await app.inject({ url })).json()
    expect(answers).to.deep.equal({ '/v1/y': { by: 'root' }, '/v1/c/x': { by: 'A' }, '/r': { by: 'root' }, '/v1/zz': { by: 'A' } })
    await app.close()
  })
})
