import { expect } from 'chai'
import request from 'supertest'
import { createApp, override, resolveProvider, type App } from '../../src'
import { AppModule, CLOCK, CatsModule, Gate, LifecycleLog, LoggingInterceptor, MeModule, MemoryNotifier, Notifier, TIMEOUT_MS } from './nest-cats/app'

// A NestJS 12 cats service ported onto Enclave (test/examples/nest-cats/app.ts; docs/migrating-from-nestjs.md),
// driven over real HTTP with supertest. Each expectation is what the NestJS app answered to the same
// request, except where a comment names the difference the guide lists (400 texts, no weak ETag,
// empty redirect bodies, HttpError details).
describe('examples/nest-cats: a NestJS service ported whole', () => {
  const admin = { authorization: 'Bearer tok-admin' }
  const user = { authorization: 'Bearer tok-user' }
  let app: App
  beforeEach(async () => {
    // NestJS: Test.createTestingModule({ imports: [AppModule] }).overrideProvider(CLOCK).useValue({ now: () => 42 })
    // The timeout interceptor gets 2 s here (the app's own is 100 ms): a 5 ms handler must not 408 on a loaded machine.
    app = await createApp(AppModule, { overrides: [override(CLOCK, { useValue: { now: () => 42 } }), override(TIMEOUT_MS, { useValue: 2_000 })] })
    await app.listen(0, '127.0.0.1')
  })
  afterEach(() => app.close())

  it('serves the public health route with its no-store header and the overridden clock (@Header, overrideProvider)', async () => {
    const response = await request(app.server).get('/api/health').expect(200)
    expect(response.body).to.deep.equal({ status: 'ok', greeting: 'hello', at: 42 })
    expect(response.headers['cache-control']).to.equal('no-store')
    expect(response.headers.etag, 'Express adds a weak ETag, Fastify none: @fastify/etag for one').to.equal(undefined)
  })

  it('sets x-request-id on every answer, 404s included (the configure(consumer) middleware, as an onRequest hook)', async () => {
    expect((await request(app.server).get('/api/health').set('x-request-id', 'rid-7')).headers['x-request-id']).to.equal('rid-7')
    const missing = await request(app.server).get('/api/nothing').set(admin).expect(404)
    expect(missing.headers['x-request-id']).to.equal('generated-id')
    expect(missing.body).to.deep.equal({ statusCode: 404, error: 'Not Found', message: 'Cannot GET /api/nothing', path: '/api/nothing' })
  })

  it('guards every route: 401 without a token, 403 for a role the route does not allow, public routes open (APP_GUARD, @Roles, @Public)', async () => {
    await request(app.server).get('/api/v1/cats').expect(401, { statusCode: 401, error: 'Unauthorized', message: 'Missing or bad token', path: '/api/v1/cats' })
    await request(app.server).post('/api/v1/cats').set(user).send({ name: 'Nope', age: 1 })
      .expect(403, { statusCode: 403, error: 'Forbidden', message: 'Forbidden resource', path: '/api/v1/cats' })
    await request(app.server).post('/api/health/ping').send({ a: 1 }).expect(201, { pong: { a: 1 } })
  })

  it('lists cats with query defaults, coercion and an envelope, then answers from the cache (DTO query, map and cache interceptors)', async () => {
    const first = await request(app.server).get('/api/v1/cats?limit=1&offset=1&sort=name').set(admin).expect(200)
    expect(first.body).to.deep.equal({ data: { items: [{ id: 1, name: 'Tom', age: 3, tags: ['grey'], ownerId: 1 }], limit: 1, offset: 1, total: 2 } })
    const all = await request(app.server).get('/api/v1/cats').set(admin).expect(200)
    expect(all.body.data).to.include({ limit: 10, offset: 0, total: 2 })
    await request(app.server).post('/api/v1/cats').set(admin).send({ name: 'Garfield', age: 7 }).expect(201)
    const cached = await request(app.server).get('/api/v1/cats').set(admin).expect(200)
    expect(cached.body.data.total, 'the clock stands still: the cached page').to.equal(2)
  })

  it('refuses a bad query, path or body with one 400 message (a difference the guide lists: NestJS sends every message in an array)', async () => {
    const bad = [
      ['/api/v1/cats?limit=abc', 'querystring/limit should be integer'], ['/api/v1/cats?limit=500', 'querystring/limit should be <= 50'],
      ['/api/v1/cats?sort=color', 'querystring/sort should be equal to one of the allowed values'], ['/api/v1/cats/abc', 'params/id should be integer'],
    ] as const
    for (const [url, message] of bad) {
      await request(app.server).get(url).set(admin).expect(400, { statusCode: 400, error: 'Bad Request', message, path: url })
    }
    const body = await request(app.server).post('/api/v1/cats').set(admin).send({ name: '', age: -1 }).expect(400)
    expect(body.body.message).to.equal('body/name should NOT be shorter than 1 characters')
  })

  it('creates a cat as the current user, strips unknown properties, answers 201, then 409 for the same name (@Body DTO, @CurrentUser, a controller filter)', async () => {
    const created = await request(app.server).post('/api/v1/cats').set(admin).send({ name: 'Garfield', age: 7, tags: ['orange'], extra: 1 }).expect(201)
    expect(created.body).to.deep.equal({ data: { id: 3, name: 'Garfield', age: 7, tags: ['orange'], ownerId: 1 } })
    await request(app.server).post('/api/v1/cats').set(admin).send({ name: 'Garfield', age: 7 })
      .expect(409, { statusCode: 409, error: 'Conflict', message: 'Cat Garfield exists' })
    const notifier = resolveProvider(app, Notifier, CatsModule)                    // provided in CatsModule, not visible from the root
    expect(notifier).to.be.instanceOf(MemoryNotifier)
    expect((notifier as MemoryNotifier).sent).to.deep.equal(['created Garfield'])
  })

  it('reads, updates and deletes by id: 404 with the cat id in details, 204 with no body (ParseIntPipe, NotFoundException subclass, @HttpCode)', async () => {
    await request(app.server).get('/api/v1/cats/1').set(user).expect(200, { data: { id: 1, name: 'Tom', age: 3, tags: ['grey'], ownerId: 1 } })
    await request(app.server).put('/api/v1/cats/1').set(admin).send({ age: 4 }).expect(200, { data: { id: 1, name: 'Tom', age: 4, tags: ['grey'], ownerId: 1 } })
    const removed = await request(app.server).delete('/api/v1/cats/2').set(admin).expect(204)
    expect(removed.text).to.equal('')
    await request(app.server).delete('/api/v1/cats/2').set(admin)
      .expect(404, { statusCode: 404, error: 'Not Found', message: 'No cat 2', details: { catId: 2 }, path: '/api/v1/cats/2' })
  })

  it('resolves providers that inject each other, and sets a header beside the returned value (forwardRef, @Res({ passthrough: true }))', async () => {
    await request(app.server).get('/api/v1/cats/1/owner').set(user).expect(200, { data: { owner: 'ada', cats: ['Tom'] } })
    const tagged = await request(app.server).get('/api/v1/cats/1/etag').set(user).expect(200, { data: { id: 1 } })
    expect(tagged.headers.etag).to.equal('"cat-1-3"')
  })

  it('redirects with the status and the URL chosen per call, with an empty body (@Redirect; Express writes a text body)', async () => {
    const legacy = await request(app.server).get('/api/v1/cats/legacy').expect(301)
    expect([legacy.headers.location, legacy.text]).to.deep.equal(['/api/v1/cats', ''])
    expect((await request(app.server).get('/api/v1/cats/docs').expect(302)).headers.location).to.equal('https://docs.example/cats')
    expect((await request(app.server).get('/api/v1/cats/docs?version=2').expect(302)).headers.location).to.equal('https://docs.example/v2/cats')
  })

  it('builds the request-scoped context per request and reads headers (Scope.REQUEST + @Inject(REQUEST), @Headers, @Req)', async () => {
    const seen = await request(app.server).get('/api/v1/me/request').set({ ...user, 'x-request-id': 'rid-1', 'user-agent': 'ua/1', 'accept-language': 'fr' }).expect(200)
    expect(seen.body).to.deep.equal({ requestId: 'rid-1', userAgent: 'ua/1', lang: 'fr', method: 'GET' })
    await request(app.server).get('/api/v1/me').set(user).expect(200, { id: 2, name: 'bob', roles: ['user'] })
  })

  it('answers a handler that finishes within the timeout interceptor, and logs every controller route (APP_INTERCEPTOR)', async () => {
    await request(app.server).get('/api/v1/me/slow?ms=5').set(user).expect(200, { waited: 5 })
    expect(resolveProvider(app, LoggingInterceptor).lines).to.deep.equal(['GET /api/v1/me/slow?ms=5'])
  })

  it('answers 408 when the handler outlives the timeout interceptor (rxjs timeout), whatever the machine\'s speed: the handler waits on a gate only the test opens', async () => {
    // Its own app, with a short timeout: the held handler cannot finish before the gate is opened,
    // so the 408 does not depend on how fast anything runs.
    const short = await createApp(AppModule, { overrides: [override(TIMEOUT_MS, { useValue: 50 })] })
    try {
      await short.listen(0, '127.0.0.1')
      await request(short.server).get('/api/v1/me/held').set(user)
        .expect(408, { statusCode: 408, error: 'Request Timeout', message: 'Request Timeout', path: '/api/v1/me/held' })
    } finally {
      resolveProvider(short, Gate, MeModule).open()
      await short.close()
    }
  })

  it('calls the lifecycle methods at boot and at close, in NestJS order (OnModuleInit ... beforeApplicationShutdown)', async () => {
    const log = resolveProvider(app, LifecycleLog)
    expect(log.events).to.deep.equal(['onModuleInit', 'onApplicationBootstrap'])
    await app.close()
    expect(log.events).to.deep.equal(['onModuleInit', 'onApplicationBootstrap', 'onModuleDestroy', 'beforeApplicationShutdown:undefined'])
  })
})
