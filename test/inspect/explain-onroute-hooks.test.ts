import 'reflect-metadata'
import { expect } from 'chai'
import rateLimit from '@fastify/rate-limit'
import fp from 'fastify-plugin'
import { Get, Module, Route, usePlugin } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { createServer, type RouteOptions, type Scope } from '../../src/runtime'

describe('explain(): hooks a plugin adds through its onRoute hook are attributed to that plugin (leftovers §4)', () => {
  it('names @fastify/rate-limit (its registered name) for the onRequest it adds to each route, and keeps the route\'s own as a route option', async () => {
    const app = createServer()
    await app.register(rateLimit, { max: 2 })
    app.get('/x', { onRequest: async function ownGuard() {} }, async () => 'x')
    await app.ready()
    try {
      const hooks = app.explain('GET /x', { json: true }).hooks.map(({ name, fn, origin, routeOption, onRoute }) => ({ name, fn, origin, routeOption, onRoute }))
      expect(hooks).to.deep.equal([
        { name: 'onRequest', fn: 'ownGuard', origin: 'root', routeOption: true, onRoute: false },
        { name: 'onRequest', fn: 'anonymous', origin: 'plugin @fastify/rate-limit', routeOption: true, onRoute: true },
      ])
      expect(app.explain('GET /x')).to.include('2. onRequest anonymous  [added by the onRoute hook of plugin @fastify/rate-limit, scope root]')
    } finally { await app.close() }
  })

  it('names the module\'s usePlugin(rateLimit) the same way in an app', async () => {
    @Route('/') class Ping { @Get('/ping') ping() { return { pong: true } } }
    @Module({ plugins: [usePlugin(rateLimit, { useFactory: () => ({ max: 5 }) })], controllers: [Ping] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      const added = app.explain('GET /ping', { json: true }).hooks.filter((h) => h.onRoute)
      expect(added.map((h) => [h.name, h.origin])).to.deep.equal([['onRequest', 'plugin @fastify/rate-limit']])
    } finally { await app.close() }
  })

  it('attributes a hook any plugin adds in its onRoute hook, by the plugin\'s name (its function name when fastify-plugin only made one up)', async () => {
    const app = createServer()
    const stamp = async function stamp() {}
    await app.register(fp(function addsStamp(scope: Scope, _opts: unknown, done: () => void) {
      scope.addHook('onRoute', (route: RouteOptions) => { route.preHandler = [...[route.preHandler ?? []].flat(), stamp] })
      done()
    }))
    app.get('/y', async () => 'y')
    await app.ready()
    try {
      const [hook] = app.explain('GET /y', { json: true }).hooks
      expect([hook.fn, hook.origin, hook.onRoute]).to.deep.equal(['stamp', 'plugin addsStamp', true])
    } finally { await app.close() }
  })
})
