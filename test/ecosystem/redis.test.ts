// @fastify/redis against a real redis-server that this file starts on a free loopback port and
// stops by pid (as redis-rate-limit.test.ts does). Without redis-server the test fails, never skips.
import { expect } from 'chai'
import request from 'supertest'
import Redis from 'ioredis'
import fastifyRedis from '@fastify/redis'
import { createServer, type Reply, type Request, type Scope } from '../../src/runtime'
import { track } from '../support/servers'
import { affected, modes, topology, unaffected } from './helpers'
import { startRedis, stop, type Child } from './redis/processes'

/** Resolves when the client's connection has ended (ioredis reports it after quit() resolves). */
const endOf = (client: Redis): Promise<void> => new Promise((resolve) => client.once('end', () => resolve()))

type RedisScope = Scope & { redis: Redis & Record<string, Redis> }

// @fastify/redis README: `fastify.redis` is an ioredis client connected before the plugin
// finishes loading, quit in an onClose hook; `namespace` puts several under `fastify.redis.<name>`;
// a `client` passed in is left open unless `closeClient: true`.
describe('@fastify/redis in Enclave', function () {
  this.timeout(20_000)
  let server: Child | undefined
  let port = 0

  before(async () => {
    const started = await startRedis()
    server = started.child
    port = started.port
  })
  after(async () => { await stop(server) })

  const probe = async (req: Request, _reply: Reply) => {
    const redis = (req.server as Partial<RedisScope>).redis
    if (redis === undefined) return { redis: false }
    const hits = await redis.incr(`hits:${req.url}`)
    return { hits, pong: await redis.ping() }
  }

  for (const mode of modes) {
    describe(`registered in a ${mode}`, () => {
      it('gives the registering context and its descendants a connected client, and not its parent or siblings', async () => {
        const app = await topology(mode, { plugin: fastifyRedis, options: { host: '127.0.0.1', port, keyPrefix: `${mode}:` }, probe })
        expect((app as Partial<RedisScope>).redis).to.equal(undefined)
        for (const path of affected) {
          await request(app.server).get(path).expect(200, { hits: 1, pong: 'PONG' })
          await request(app.server).get(path).expect(200, { hits: 2, pong: 'PONG' })
        }
        for (const path of unaffected) await request(app.server).get(path).expect(200, { redis: false })
        const direct = new Redis({ host: '127.0.0.1', port })
        try {
          expect(await direct.get(`${mode}:hits:/inside/probe`)).to.equal('2')
        } finally { await direct.quit() }
      })

      it('quits the client when the app closes (its onClose hook gets the instance)', async () => {
        let client: Redis | undefined
        const app = await topology(mode, {
          plugin: fastifyRedis,
          options: { host: '127.0.0.1', port },
          inside: (scope) => { client = (scope as RedisScope).redis },
        })
        expect(client!.status).to.equal('ready')
        const ended = endOf(client!)
        await app.close()
        await ended
      })
    })
  }

  it('registers named clients with namespace, and leaves a client it was given open unless closeClient', async () => {
    const given = new Redis({ host: '127.0.0.1', port })
    const app = track(createServer())
    await app.register(fastifyRedis, { host: '127.0.0.1', port, namespace: 'cache' })
    await app.register(fastifyRedis, { client: given, namespace: 'given' })
    app.get('/both', async function (this: Scope) {
      const redis = (this as RedisScope).redis
      await redis.cache.set('k', 'from-cache')
      return { cache: await redis.given.get('k') }
    })
    await app.ready()
    await request(app.server).get('/both').expect(200, { cache: 'from-cache' })
    const ended = endOf((app as RedisScope).redis.cache)
    await app.close()
    await ended
    expect(given.status).to.equal('ready')
    await given.quit()
  })

  it('fails boot with the plugin\'s error when a namespace is registered twice', async () => {
    const twice = track(createServer())
    twice.register(fastifyRedis, { host: '127.0.0.1', port, namespace: 'a' })
    twice.register(fastifyRedis, { host: '127.0.0.1', port, namespace: 'a' })
    let error: Error | undefined
    try { await twice.ready() } catch (e) { error = e as Error }
    expect(error?.message).to.equal("Redis 'a' instance namespace has already been registered")

  })
})
