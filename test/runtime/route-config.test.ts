// A route's `config`, typed from what the route gives (test/types/fixtures/route-config.ts): the
// values those types promise, read by the route's handler and its own hooks.
import { expect } from 'chai'
import { server } from './helpers'

describe('route config typed from the route: the handler and the route\'s own hooks read the config the route gave', () => {
  it('request.routeConfig, routeOptions.config and context.config are the route\'s config, in its hooks and handler', async () => {
    const app = server()
    const seen: unknown[] = []
    app.get('/public', {
      config: { public: true, rateLimit: { max: 10 } },
      onRequest: async (request) => { seen.push(request.routeOptions.config.public, request.routeConfig.rateLimit.max) },
    }, (request) => ({ max: request.routeConfig.rateLimit.max, open: request.context.config.public }))
    app.route({ method: 'GET', url: '/items', config: { cache: 60 }, handler: (request) => ({ ttl: request.routeConfig.cache + 1 }) })
    expect((await app.inject('/public')).json()).to.deep.equal({ max: 10, open: true })
    expect(seen).to.deep.equal([true, 10])
    expect((await app.inject('/items')).json()).to.deep.equal({ ttl: 61 })
  })

  it('a route without config reads the untyped record Fastify 3 gives (its url and method only)', async () => {
    const app = server()
    app.get('/plain', (request) => ({ config: request.routeConfig }))
    expect((await app.inject('/plain')).json()).to.deep.equal({ config: { url: '/plain', method: 'GET' } })
  })
})
