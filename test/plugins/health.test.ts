// The health contract (docs/operations.md, "Health"): liveness and readiness paths, statuses, payload shape;
// readiness 503 while closing; checks from options and from providers with checkHealth().
import 'reflect-metadata'
import { expect } from 'chai'
import { injectable } from 'tsyringe'
import { Module } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { health } from '../../src/plugins'
import { server, recordingLogger } from '../support/servers'
import { rawClient, sleep, within } from '../support/raw-http'

async function withHealth(options: Parameters<typeof health>[0], logger = recordingLogger()) {
  const app = server({ logger })
  app.register(health(options))
  await app.ready()
  return app
}

describe('health: liveness and readiness', () => {
  it('liveness answers 200 { status: "ok", checks: {} } and runs no check', async () => {
    let ran = 0
    const app = await withHealth({ checks: { db: () => { ran++; return false } } })
    const res = await app.inject('/health/live')
    expect(res.statusCode).to.equal(200)
    expect(res.json()).to.deep.equal({ status: 'ok', checks: {} })
    expect(ran).to.equal(0)
    await app.close()
  })

  it('every health answer is cache-control: no-store, the 200s of liveness and readiness too (and only they)', async () => {
    const app = server({ logger: recordingLogger() })
    app.register(health({ checks: { db: () => true } }))
    app.get('/other', async () => ({ other: true }))
    await app.ready()
    expect((await app.inject('/other')).headers['cache-control']).to.equal(undefined)
    for (const url of ['/health/live', '/health/ready']) {
      const res = await app.inject(url)
      expect(res.statusCode, url).to.equal(200)
      expect(res.headers['cache-control'], url).to.equal('no-store')
    }
    await app.close()
  })

  it('readiness answers 200 with every check up (sync, async, true and undefined all count as up)', async () => {
    const app = await withHealth({ checks: { a: () => undefined, b: async () => 'pong', c: () => true } })
    const res = await app.inject('/health/ready')
    expect(res.statusCode).to.equal(200)
    expect(res.json()).to.deep.equal({ status: 'ok', checks: { a: { status: 'up' }, b: { status: 'up' }, c: { status: 'up' } } })
    await app.close()
  })

  it('readiness answers 503 ENC_ERR_HEALTH_NOT_READY naming the failed checks; the error is logged, not sent', async () => {
    const logger = recordingLogger()
    const app = await withHealth({ checks: { db: async () => { throw new Error('password authentication failed for user app') }, cache: () => false, queue: () => 1 } }, logger)
    const res = await app.inject('/health/ready')
    expect(res.statusCode).to.equal(503)
    expect(res.headers['cache-control']).to.equal('no-store')
    expect(res.json()).to.deep.equal({
      statusCode: 503, code: 'ENC_ERR_HEALTH_NOT_READY', error: 'Service Unavailable', message: 'Not ready: db, cache failed.',
      status: 'down', checks: { db: { status: 'down', message: 'check failed' }, cache: { status: 'down', message: 'check returned false' }, queue: { status: 'up' } },
    })
    expect(res.payload).to.not.contain('password')
    const logged = logger.entries.find((e) => e.obj.check === 'db')
    expect((logged?.obj.err as Error).message).to.contain('password authentication failed')
    await app.close()
  })

  it('a check named like an Object.prototype member (__proto__, constructor, from a parsed config) is listed under its name', async () => {
    const checks = JSON.parse('{ "__proto__": 0, "constructor": 0 }') as Record<string, () => boolean>
    checks['__proto__'] = () => false
    checks.constructor = () => true
    const app = await withHealth({ checks })
    const res = await app.inject('/health/ready')
    expect(res.statusCode).to.equal(503)
    expect(JSON.parse(res.payload).message).to.equal('Not ready: __proto__ failed.')
    expect(JSON.parse(res.payload).checks).to.deep.equal(JSON.parse('{ "__proto__": { "status": "down", "message": "check returned false" }, "constructor": { "status": "up" } }'))
    expect(res.payload).to.contain('"__proto__":{"status":"down"')
    await app.close()
  })

  it('a check that does not settle within checkTimeout counts as down', async () => {
    const app = await withHealth({ checkTimeout: 30, checks: { slow: () => new Promise(() => undefined) } })
    const res = await app.inject('/health/ready')
    expect(res.statusCode).to.equal(503)
    expect(res.json<{ checks: unknown }>().checks).to.deep.equal({ slow: { status: 'down', message: 'timed out after 30 ms' } })
    await app.close()
  })

  it('takes custom paths', async () => {
    const app = await withHealth({ readinessPath: '/readyz', livenessPath: '/livez' })
    expect((await app.inject('/readyz')).statusCode).to.equal(200)
    expect((await app.inject('/livez')).statusCode).to.equal(200)
    expect((await app.inject('/health/ready')).statusCode).to.equal(404)
    await app.close()
  })

  it('refuses bad options with ENC_ERR_HEALTH_INVALID_OPTIONS', () => {
    for (const options of [{ readinessPath: 'ready' }, { livenessPath: '/x', readinessPath: '/x' }, { checkTimeout: 0 }, { checks: { db: 'select 1' } }, { check: {} }]) {
      expect(() => health(options as never), JSON.stringify(options)).to.throw().with.property('code', 'ENC_ERR_HEALTH_INVALID_OPTIONS')
    }
  })
})

describe('health: while closing', () => {
  it('readiness answers 503 ENC_ERR_HEALTH_CLOSING and runs no check from the moment close() begins; liveness still 200', async () => {
    let release!: () => void
    let ran = 0
    const app = server()
    app.register(health({ checks: { db: () => { ran++ } } }))
    app.addHook('onClose', () => new Promise<void>((resolve) => { release = resolve }))
    await app.ready()
    expect((await app.inject('/health/ready')).statusCode).to.equal(200)
    const closing = app.close()
    expect(app.closing).to.equal(true)
    for (let i = 0; i < 500 && release === undefined; i++) await sleep(5)
    const res = await app.inject('/health/ready')
    expect(res.statusCode).to.equal(503)
    expect(res.json()).to.deep.equal({ statusCode: 503, code: 'ENC_ERR_HEALTH_CLOSING', error: 'Service Unavailable', message: 'The server is closing.', status: 'closing', checks: {} })
    expect((await app.inject('/health/live')).statusCode).to.equal(200)
    expect(ran).to.equal(1)
    release()
    await closing
  })

  it('over HTTP, a request in flight when close() begins is answered with Connection: close', async () => {
    let release!: () => void
    const app = server({ keepAliveTimeout: 60_000 })
    app.register(health({ checks: { slow: () => new Promise<void>((resolve) => { release = resolve }) } }))
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const client = await rawClient(address)
    client.write('GET /health/ready HTTP/1.1\r\nHost: x\r\n\r\n')
    for (let i = 0; i < 500 && release === undefined; i++) await sleep(5)
    const closing = app.close()
    release()
    const res = await client.next()
    expect(res.headers.connection).to.equal('close')
    await client.waitClosed()
    await within(closing, 5_000, 'close()')
  })
})

describe('health: createApp({ health }) and providers that contribute checks', () => {
  it('mounts the routes, with checks from options and from every instance with checkHealth()', async () => {
    let dbUp = true
    @injectable() class Db { checkHealth() { return dbUp } }
    @injectable() class Plain {}
    @Module({ providers: [Db, Plain] }) class Child {}
    @Module({ plugins: [Child], providers: [Db] }) class Root {}
    const app = await createApp(Root, { health: { checks: { disk: () => true } } })
    let res = await app.inject('/health/ready')
    expect(res.json()).to.deep.equal({ status: 'ok', checks: { Db: { status: 'up' }, 'Db#2': { status: 'up' }, disk: { status: 'up' } } })
    dbUp = false
    res = await app.inject('/health/ready')
    expect(res.statusCode).to.equal(503)
    expect(res.json<{ message: string }>().message).to.equal('Not ready: Db, Db#2 failed.')
    await app.close()
  })

  it("openapi() documents readiness's 503 (not ready, closing) next to its 200, and liveness's 200, with their body shapes", async () => {
    const app = await withHealth({ checks: { db: () => true } })
    const paths = app.openapi().paths as unknown as Record<string, { get: { responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }> } }>
    const ready = paths['/health/ready'].get.responses
    expect(Object.keys(ready)).to.include.members(['200', '503'])
    const unavailable = ready['503'].content?.['application/json'].schema as { properties: Record<string, { enum?: unknown[] }> }
    expect(unavailable.properties.code.enum).to.deep.equal(['ENC_ERR_HEALTH_NOT_READY', 'ENC_ERR_HEALTH_CLOSING'])
    expect(unavailable.properties.status.enum).to.deep.equal(['down', 'closing'])
    expect(Object.keys(paths['/health/live'].get.responses)).to.include('200')
    await app.close()
  })

  it('health: true mounts the defaults; no option mounts nothing', async () => {
    @Module({}) class Root {}
    const on = await createApp(Root, { health: true })
    expect((await on.inject('/health/live')).statusCode).to.equal(200)
    await on.close()
    const off = await createApp(Root)
    expect((await off.inject('/health/live')).statusCode).to.equal(404)
    await off.close()
  })
})

describe('health: while draining (startDraining(), closeOnSignals\' shutdownDelay)', () => {
  it('readiness answers 503 ENC_ERR_HEALTH_CLOSING, liveness 200; routes are still served, on new connections too, each answer with Connection: close', async () => {
    const app = server({ keepAliveTimeout: 60_000 })
    app.register(health({}))
    app.get('/work', async () => ({ done: true }))
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const before = await rawClient(address)
    before.write('GET /work HTTP/1.1\r\nHost: x\r\n\r\n')
    expect((await before.next()).headers.connection).to.not.equal('close')
    app.startDraining()
    expect(app.closing).to.equal(true)
    // The kept-alive connection's next answer asks it to leave.
    before.write('GET /work HTTP/1.1\r\nHost: x\r\n\r\n')
    const last = await before.next()
    expect([last.status, last.headers.connection]).to.deep.equal([200, 'close'])
    await before.waitClosed()
    // A new connection is accepted and served in full.
    const fresh = await rawClient(address)
    fresh.write('GET /work HTTP/1.1\r\nHost: x\r\n\r\nGET /health/ready HTTP/1.1\r\nHost: x\r\n\r\n')
    const work = await fresh.next()
    expect([work.status, work.body, work.headers.connection]).to.deep.equal([200, '{"done":true}', 'close'])
    const ready = await app.inject('/health/ready')
    expect(ready.statusCode).to.equal(503)
    expect(ready.json()).to.include({ code: 'ENC_ERR_HEALTH_CLOSING', status: 'closing' })
    expect((await app.inject('/health/live')).statusCode).to.equal(200)
    await within(app.close(), 5_000, 'close()')
  })
})
