// Liveness vs readiness with a dependency that goes down (docs/operations.md, "Health", docs/deploy.md "When
// the shared store is down"): a real redis-server started by this test and stopped mid-run, an
// app whose Store provider (ioredis, configured as docs/deploy.md says) reports checkHealth().
// Readiness must fail fast with a body naming the check, liveness must stay up (a restart would
// not bring Redis back), a route using the store must fail with a clear 5xx, not hang, and
// everything must recover without a restart once Redis is back.
import 'reflect-metadata'
import { expect } from 'chai'
import Redis from 'ioredis'
import { injectable } from 'tsyringe'
import { Get, Module, Route } from '../../src/decorators'
import { createApp, type App } from '../../src/modules'
import { redisServerBinary, start, startRedis, stop, waitForOutput, type Child } from '../ecosystem/redis/processes'
import { within } from '../support/raw-http'

let redisPort = 0

@injectable()
class Store {
  readonly redis = new Redis({ port: redisPort, host: '127.0.0.1', maxRetriesPerRequest: 1, connectTimeout: 500, retryStrategy: () => 100, lazyConnect: false })
  constructor() { this.redis.on('error', () => undefined) }
  async checkHealth(): Promise<boolean> { return (await this.redis.ping()) === 'PONG' }
  async dispose(): Promise<void> { this.redis.disconnect() }
}

@Route('/visits') class Visits {
  constructor(readonly store: Store) {}
  @Get('/') async count() { return { visits: await this.store.redis.incr('visits') } }
}

@Module({ controllers: [Visits], providers: [Store] }) class ServiceModule {}

function restartRedis(port: number): Promise<Child> {
  const child = start(redisServerBinary(), ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'])
  return waitForOutput(child, /Ready to accept connections/, `redis-server again on 127.0.0.1:${port}`).then(() => child)
}

describe('readiness with Redis stopped mid-run (real redis-server, ioredis)', function () {
  this.timeout(40_000)
  const children: Child[] = []
  let app: App

  before(async () => {
    const started = await startRedis()
    children.push(started.child)
    redisPort = started.port
    app = await createApp(ServiceModule, { health: { checkTimeout: 1_000 } })
  })

  after(async () => {
    await app?.close()
    for (const child of children) await stop(child)
  })

  it('up: readiness 200 naming the check, the route answers', async () => {
    const ready = await app.inject('/health/ready')
    expect([ready.statusCode, ready.json()]).to.deep.equal([200, { status: 'ok', checks: { Store: { status: 'up' } } }])
    expect((await app.inject('/visits')).json()).to.deep.equal({ visits: 1 })
  })

  it('Redis stopped: readiness 503 ENC_ERR_HEALTH_NOT_READY naming Store within checkTimeout, liveness 200, the route a 500 in the error shape (no hang)', async () => {
    await stop(children[0])
    const ready = await within(app.inject('/health/ready'), 5_000, 'readiness with Redis down')
    expect(ready.statusCode).to.equal(503)
    expect(ready.json()).to.deep.include({ code: 'ENC_ERR_HEALTH_NOT_READY', status: 'down' })
    const body = ready.json<{ message: string, checks: Record<string, { status: string }> }>()
    expect(body.checks.Store.status).to.equal('down')
    expect(body.message).to.contain('Store')
    const live = await app.inject('/health/live')
    expect([live.statusCode, live.json()]).to.deep.equal([200, { status: 'ok', checks: {} }])
    const visits = await within(app.inject('/visits'), 5_000, 'a route using Redis while it is down')
    expect(visits.statusCode).to.equal(500)
    expect(visits.json()).to.have.keys('statusCode', 'error', 'message')
  })

  it('Redis back on its port: readiness and the route recover without a restart', async () => {
    children.push(await restartRedis(redisPort))
    let status = 0
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await app.inject('/health/ready')).statusCode
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(status).to.equal(200)
    expect((await app.inject('/visits')).statusCode).to.equal(200)
  })
})
