// A payments API's Idempotency-Key (docs/recipes-payments.md, "Payments-style APIs"), on a real redis-server this test
// starts on a free loopback port (stopped by pid): a @PreHandler hook class claims the key (SET NX,
// after validation, with a fingerprint of the parsed body) and an @OnSend one stores the serialized
// payload, status and content type; a retry replays them, a concurrent duplicate is a 409, the same
// key with another body a 422, a 5xx releases the key, and a streamed reply is not stored.
import 'reflect-metadata'
import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import { expect } from 'chai'
import Redis from 'ioredis'
import { Body, DecorateRequest, Get, HttpError, Module, OnSend, Post, PreHandler, Reply, Route, inject, injectable, type Request } from '../../src'
import type { Reply as ReplyType } from '../../src'
import { createApp } from '../../src/modules'
import { startRedis, stop, type Child } from './redis/processes'

declare module '../../src/runtime' {
  interface RequestDecorations { idempotencyClaim: { redisKey: string; fingerprint: string } | null }
}

const REDIS = Symbol('redis')
const TTL_S = 60

interface Stored { state: 'pending' | 'done'; fingerprint: string; status?: number; type?: string; body?: string }

/** Claims the key after validation, or answers from what an earlier request with it stored. */
@injectable()
class IdempotencyClaim {
  constructor(@inject(REDIS) private readonly redis: Redis) {}
  async handle(request: Request, reply: ReplyType) {
    const key = request.headers['idempotency-key']
    if (key === undefined) return
    if (typeof key !== 'string' || key.length > 255) throw new HttpError(400, 'Idempotency-Key must be one value of at most 255 characters', { code: 'IDEMPOTENCY_KEY_INVALID' })
    const fingerprint = createHash('sha256').update(`${request.method} ${request.url} ${JSON.stringify(request.body)}`).digest('hex')
    const redisKey = `idem:${key}`
    const pending: Stored = { state: 'pending', fingerprint }
    if (await this.redis.set(redisKey, JSON.stringify(pending), 'EX', TTL_S, 'NX') === 'OK') {
      request.idempotencyClaim = { redisKey, fingerprint }   // this request owns the key: the onSend hook stores its answer
      reply.header('idempotency-key', key)
      return
    }
    const stored = JSON.parse(await this.redis.get(redisKey) ?? 'null') as Stored | null
    if (stored === null) throw new HttpError(409, 'the request with this key just finished; retry', { code: 'IDEMPOTENCY_IN_FLIGHT' })
    if (stored.fingerprint !== fingerprint) throw new HttpError(422, 'this Idempotency-Key was used with another request', { code: 'IDEMPOTENCY_KEY_REUSED' })
    if (stored.state === 'pending') throw new HttpError(409, 'a request with this Idempotency-Key is in progress', { code: 'IDEMPOTENCY_IN_FLIGHT' })
    return reply.code(stored.status as number).type(stored.type as string).header('idempotency-key', key).header('idempotent-replayed', 'true').send(stored.body)
  }
}

/** Stores the answer a claimed request gets: the serialized payload as it goes out. */
@injectable()
class IdempotencyStore {
  constructor(@inject(REDIS) private readonly redis: Redis) {}
  async handle(request: Request, reply: ReplyType, payload: unknown) {
    const claim = request.idempotencyClaim
    if (claim === null) return payload
    const { redisKey, fingerprint } = claim
    // A 5xx, or a stream (which cannot be stored without buffering it), releases the key: a retry runs again.
    if (reply.statusCode >= 500 || typeof payload !== 'string') { await this.redis.del(redisKey); return payload }
    const done: Stored = { state: 'done', fingerprint, status: reply.statusCode, type: String(reply.getHeader('content-type')), body: payload }
    await this.redis.set(redisKey, JSON.stringify(done), 'EX', TTL_S)
    return payload
  }
}

const newPayment = { type: 'object', required: ['amount', 'currency'], additionalProperties: false,
  properties: { amount: { type: 'integer', minimum: 1 }, currency: { type: 'string', pattern: '^[a-z]{3}$' }, fail: { type: 'boolean' } } } as const
const payment = { type: 'object', properties: { id: { type: 'string' }, amount: { type: 'integer' }, currency: { type: 'string' } } } as const

let created = 0
@PreHandler(IdempotencyClaim) @OnSend(IdempotencyStore)
@Route('/payments')
class PaymentsController {
  @Post('/', { schema: { body: newPayment, response: { 201: payment } } })
  async create(@Body() body: { amount: number; currency: string; fail?: boolean }, @Reply() reply: ReplyType) {
    await new Promise((resolve) => setTimeout(resolve, 150))   // long enough for a concurrent duplicate to arrive
    if (body.fail === true) throw new Error('the card network timed out')
    created++
    reply.code(201)
    return { id: `pay_${created}`, amount: body.amount, currency: body.currency }
  }

  @Post('/export') export() { return Readable.from(['id,amount\n', `pay_1,100\n`]) }

  @Get('/count') count() { return { created } }
}

@DecorateRequest('idempotencyClaim', { factory: () => null })
@Module({ prefix: '/v1', controllers: [PaymentsController], providers: [IdempotencyClaim, IdempotencyStore] })
class PaymentsModule {}

describe('payments API: Idempotency-Key on Redis (docs/recipes-payments.md, "Payments-style APIs")', function () {
  this.timeout(10_000)
  let redisChild: Child | undefined
  let redis: Redis
  let app: Awaited<ReturnType<typeof createApp>>

  before(async () => {
    const started = await startRedis()
    redisChild = started.child
    redis = new Redis({ host: '127.0.0.1', port: started.port, maxRetriesPerRequest: 1 })
    @Module({ plugins: [PaymentsModule], providers: [{ provide: REDIS, useValue: redis }] })
    class AppModule {}
    app = await createApp(AppModule)
  })
  after(async () => {
    await app?.close()
    await redis?.quit()
    await stop(redisChild)
  })

  const pay = (key: string, body: object) => app.inject({ method: 'POST', url: '/v1/payments', payload: body, headers: { 'idempotency-key': key } })

  it('replays the stored answer (status, content type, serialized body) for a retry, without running the handler again', async () => {
    const first = await pay('k-replay', { amount: 100, currency: 'usd' })
    expect(first.statusCode).to.equal(201)
    const before = (await app.inject('/v1/payments/count')).json() as { created: number }
    const retry = await pay('k-replay', { amount: 100, currency: 'usd' })
    expect([retry.statusCode, retry.headers['content-type'], retry.headers['idempotent-replayed'], retry.body])
      .to.deep.equal([201, 'application/json; charset=utf-8', 'true', first.body])
    expect((await app.inject('/v1/payments/count')).json()).to.deep.equal(before)
  })

  it('answers a concurrent duplicate 409 while the first is in progress', async () => {
    const [a, b] = await Promise.all([pay('k-race', { amount: 5, currency: 'eur' }), pay('k-race', { amount: 5, currency: 'eur' })])
    expect([a.statusCode, b.statusCode].sort()).to.deep.equal([201, 409])
    const conflict = a.statusCode === 409 ? a : b
    expect(conflict.json()).to.deep.equal({ statusCode: 409, code: 'IDEMPOTENCY_IN_FLIGHT', error: 'Conflict', message: 'a request with this Idempotency-Key is in progress' })
  })

  it('answers the same key with another body 422', async () => {
    expect((await pay('k-reuse', { amount: 100, currency: 'usd' })).statusCode).to.equal(201)
    const other = await pay('k-reuse', { amount: 200, currency: 'usd' })
    expect([other.statusCode, (other.json() as { code: string }).code]).to.deep.equal([422, 'IDEMPOTENCY_KEY_REUSED'])
  })

  it('claims nothing for a body the schema refuses, and releases the key after a 5xx so a retry runs', async () => {
    const invalid = await pay('k-invalid', { amount: -1, currency: 'usd' })
    expect(invalid.statusCode).to.equal(400)
    expect(await redis.exists('idem:k-invalid')).to.equal(0)
    const failed = await pay('k-5xx', { amount: 1, currency: 'usd', fail: true })
    expect(failed.statusCode).to.equal(500)
    expect(await redis.exists('idem:k-5xx')).to.equal(0)
  })

  it('does not store a streamed reply (the onSend payload is the stream): the key is released', async () => {
    const res = await app.inject({ method: 'POST', url: '/v1/payments/export', headers: { 'idempotency-key': 'k-stream' } })
    expect([res.statusCode, res.body]).to.deep.equal([200, 'id,amount\npay_1,100\n'])
    expect(await redis.exists('idem:k-stream')).to.equal(0)
  })
})
