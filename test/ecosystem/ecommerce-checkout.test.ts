// A shop's checkout on a real PostgreSQL (started by this file, stopped by pid), written the way a
// team coming from Hono writes it: the runtime API, zod schemas through fastify-type-provider-zod's
// compilers, `reply.code(201)` for Hono's `c.json(data, 201)`. What it proves about Enclave:
// concurrent checkouts for the last item (row lock and serializable + retry) give exactly one 201
// and coded 409s, an Idempotency-Key replays the first answer (and two at once make one order), an
// invalid state transition is a coded 409, and a payment provider that fails or hangs is a coded
// 502 / 504 within its timeout, never a hang. docs/recipes-ecommerce.md explains each piece.
import 'reflect-metadata'
import { createHash } from 'node:crypto'
import { createServer as createHttpServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect } from 'chai'
import request from 'supertest'
import { DatabaseError, Pool, type PoolClient } from 'pg'
import { z } from 'zod'
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import { HttpError, createServer, type Scope } from '../../src'
import { startPostgres, stopPostgres, untilOnlyConnection, type Postgres } from './postgres/processes'

const Checkout = z.object({ sku: z.string().min(1), qty: z.number().int().min(1).max(10) })
const Order = z.object({ id: z.number(), status: z.enum(['pending', 'paid', 'shipped', 'cancelled']), total: z.string() })
const OrderId = z.object({ id: z.coerce.number().int().positive() })
type Status = z.output<typeof Order>['status']
const NEXT: Record<Status, readonly Status[]> = { pending: ['paid', 'cancelled'], paid: ['shipped'], shipped: [], cancelled: [] }

/** One transaction; under `serializable`, a serialization failure (40001) or deadlock (40P01) runs it again, at most 10 times. */
async function inTransaction<T>(pool: Pool, isolation: 'read committed' | 'serializable', work: (client: PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect()
    try {
      await client.query(`begin isolation level ${isolation}`)
      const result = await work(client)
      await client.query('commit')
      return result
    } catch (error) {
      await client.query('rollback').catch(() => undefined)
      const retry = error instanceof DatabaseError && (error.code === '40001' || error.code === '40P01') && attempt < 10
      if (!retry) throw error
    } finally { client.release() }
  }
}

interface Provider { server: Server; url: string; mode: 'ok' | 'down' | 'hang'; calls: number; held: Array<() => void> }

/** A payment provider on loopback that answers, fails with 503, or never answers. */
async function startProvider(): Promise<Provider> {
  const provider: Provider = { server: createHttpServer(), url: '', mode: 'ok', calls: 0, held: [] }
  provider.server.on('request', (req, res) => {
    provider.calls++
    if (provider.mode === 'down') { res.writeHead(503).end(); return }
    if (provider.mode === 'hang') { provider.held.push(() => res.destroy()); return }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: `ch_${provider.calls}` }))
  })
  await new Promise<void>((resolve) => provider.server.listen(0, '127.0.0.1', resolve))
  provider.url = `http://127.0.0.1:${(provider.server.address() as AddressInfo).port}`
  return provider
}

/** Outbound call with a timeout per attempt and one retry on a 5xx or no answer; the request's signal ends it early. */
async function charge(provider: Provider, orderId: number, total: string, signal: AbortSignal): Promise<string> {
  let lastStatus = 0
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const res = await fetch(`${provider.url}/charges`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ orderId, total }),
        signal: AbortSignal.any([signal, AbortSignal.timeout(300)]),
      })
      if (res.status < 500) return ((await res.json()) as { id: string }).id
      lastStatus = res.status
    } catch (error) {
      if (signal.aborted) throw error
      lastStatus = 0
    }
  }
  throw lastStatus === 0
    ? new HttpError(504, 'The payment provider did not answer in time', { code: 'PAYMENT_PROVIDER_TIMEOUT', headers: { 'retry-after': '5' } })
    : new HttpError(502, `The payment provider answered ${lastStatus}`, { code: 'PAYMENT_PROVIDER_UNAVAILABLE', headers: { 'retry-after': '5' } })
}

function shop(pool: Pool, provider: Provider) {
  return async function orders(scope: Scope): Promise<void> {
    scope.setValidatorCompiler(validatorCompiler)
    scope.setSerializerCompiler(serializerCompiler)

    for (const [path, isolation] of [['/orders', 'read committed'], ['/orders-serializable', 'serializable']] as const) {
      scope.post(path, { schema: { body: Checkout, response: { 201: Order } } }, async (request, reply) => {
        const { sku, qty } = request.body
        const key = request.headers['idempotency-key']
        const fingerprint = createHash('sha256').update(JSON.stringify({ path, sku, qty })).digest('hex')
        const order = await inTransaction(pool, isolation, async (client) => {
          if (typeof key === 'string') {
            // Claims the key in this transaction: a second request with it waits on the row until this commits.
            const claim = await client.query<{ order_id: number | null; fingerprint: string }>(
              `insert into idempotency (key, fingerprint) values ($1, $2) on conflict (key) do update set key = excluded.key
               returning order_id, fingerprint`, [key, fingerprint])
            const { order_id: done, fingerprint: first } = claim.rows[0]!
            if (first !== fingerprint) throw new HttpError(422, 'This Idempotency-Key was used with another request', { code: 'IDEMPOTENCY_KEY_REUSED' })
            if (done !== null) return (await client.query<z.output<typeof Order>>('select id, status, total from orders where id = $1', [done])).rows[0]!
          }
          // read committed: the row lock serializes the two checkouts; serializable: the losing one fails with 40001 and is run again.
          const lock = isolation === 'read committed' ? ' for update' : ''
          const { rows } = await client.query<{ stock: number; price: string }>(`select stock, price from products where sku = $1${lock}`, [sku])
          const product = rows[0]
          if (product === undefined) throw new HttpError(404, `No product ${sku}`, { code: 'CATALOG_NO_PRODUCT' })
          if (product.stock < qty) throw new HttpError(409, `Only ${product.stock} of ${sku} left`, { code: 'CHECKOUT_OUT_OF_STOCK', details: { available: product.stock } })
          await client.query('update products set stock = stock - $2 where sku = $1', [sku, qty])
          const inserted = await client.query<z.output<typeof Order>>(
            "insert into orders (status, total) values ('pending', $1::numeric * $2) returning id, status, total", [product.price, qty])
          const created = inserted.rows[0]!
          if (typeof key === 'string') await client.query('update idempotency set order_id = $2 where key = $1', [key, created.id])
          return created
        })
        return reply.code(201).send(order)
      })
    }

    scope.post('/orders/:id/pay', { schema: { params: OrderId, response: { 200: Order } } }, async (request) => {
      const { id } = request.params
      const { rows } = await pool.query<z.output<typeof Order>>('select id, status, total from orders where id = $1', [id])
      const order = rows[0]
      if (order === undefined) throw new HttpError(404, `No order ${id}`, { code: 'ORDER_NOT_FOUND' })
      if (!NEXT[order.status].includes('paid')) throw new HttpError(409, `An order that is ${order.status} cannot be paid`, { code: 'ORDER_INVALID_TRANSITION', details: { status: order.status } })
      await charge(provider, id, order.total, request.signal)
      // The transition is conditional: a concurrent payment of the same order makes this update change no row.
      const paid = await pool.query<z.output<typeof Order>>("update orders set status = 'paid' where id = $1 and status = 'pending' returning id, status, total", [id])
      if (paid.rows[0] === undefined) throw new HttpError(409, 'The order changed meanwhile', { code: 'ORDER_INVALID_TRANSITION' })
      return paid.rows[0]
    })
  }
}

describe('e-commerce checkout on a real PostgreSQL: the last item, idempotency keys, order states, a failing payment provider', function () {
  this.timeout(20_000)
  let pg: Postgres | undefined
  let pool: Pool
  let provider: Provider
  let app: Scope

  before(async function () {
    this.timeout(90_000)   // initdb and the server's start on a loaded machine; each wait inside is bounded
    pg = await startPostgres()
    pool = new Pool({ connectionString: pg.url, max: 8 })
    pool.on('error', () => undefined)   // an idle client losing its server must not end the process
    await pool.query(`create table products (sku text primary key, price numeric(12,2) not null, stock int not null check (stock >= 0));
      create table orders (id serial primary key, status text not null, total numeric(12,2) not null);
      create table idempotency (key text primary key, fingerprint text not null, order_id int references orders(id))`)
    provider = await startProvider()
    app = createServer({ logger: false })
    await app.register(shop(pool, provider))
    await app.ready()
  })
  after(async () => {
    if (app !== undefined) await app.close()
    for (const release of provider?.held ?? []) release()
    provider?.server.close()
    await pool?.end()
    if (pg !== undefined) await untilOnlyConnection(pg.url)
    await stopPostgres(pg)
  })

  const stock = async (sku: string): Promise<number> => (await pool.query<{ stock: number }>('select stock from products where sku = $1', [sku])).rows[0]!.stock

  for (const path of ['/orders', '/orders-serializable']) {
    it(`${path}: of eight checkouts at once for the last two items, exactly two succeed (201) and six get a coded 409; stock ends at 0, never below`, async () => {
      const sku = `last-${path.length}`
      await pool.query('insert into products (sku, price, stock) values ($1, 19.99, 2)', [sku])
      const answers = await Promise.all(Array.from({ length: 8 }, () => request(app.server).post(path).send({ sku, qty: 1 })))
      const statuses = answers.map((res) => res.status).sort()
      expect(statuses).to.deep.equal([201, 201, 409, 409, 409, 409, 409, 409])
      for (const res of answers.filter((r) => r.status === 201)) expect(res.body).to.include({ status: 'pending', total: '19.99' })
      for (const res of answers.filter((r) => r.status === 409)) {
        expect(res.body).to.deep.equal({ statusCode: 409, code: 'CHECKOUT_OUT_OF_STOCK', error: 'Conflict', message: `Only 0 of ${sku} left`, details: { available: 0 } })
      }
      expect(await stock(sku)).to.equal(0)
    })
  }

  it('an Idempotency-Key replays the first answer (same order, stock taken once), also for two requests at once; the key with another body is a coded 422', async () => {
    await pool.query("insert into products (sku, price, stock) values ('mug', 12.50, 10)")
    const first = await request(app.server).post('/orders').set('idempotency-key', 'k-1').send({ sku: 'mug', qty: 2 }).expect(201)
    expect(first.body).to.include({ status: 'pending', total: '25.00' })
    const replay = await request(app.server).post('/orders').set('idempotency-key', 'k-1').send({ sku: 'mug', qty: 2 }).expect(201)
    expect(replay.body).to.deep.equal(first.body)
    const twins = await Promise.all([1, 2].map(() => request(app.server).post('/orders').set('idempotency-key', 'k-2').send({ sku: 'mug', qty: 3 })))
    expect(twins.map((res) => res.status)).to.deep.equal([201, 201])
    expect(twins[0]!.body).to.deep.equal(twins[1]!.body)
    expect(await stock('mug')).to.equal(5)   // 10 - 2 - 3: each key charged the stock once
    await request(app.server).post('/orders').set('idempotency-key', 'k-1').send({ sku: 'mug', qty: 1 })
      .expect(422, { statusCode: 422, code: 'IDEMPOTENCY_KEY_REUSED', error: 'Unprocessable Entity', message: 'This Idempotency-Key was used with another request' })
  })

  it('a body zod refuses is a 400 in Enclave\'s shape (zod\'s message), and a bad order id in the path too; nothing reaches the database', async () => {
    const before = (await pool.query<{ n: number }>('select count(*)::int as n from orders')).rows[0]!.n
    const bad = await request(app.server).post('/orders').send({ sku: 'mug', qty: 0 }).expect(400)
    expect(bad.body).to.deep.equal({ statusCode: 400, error: 'Bad Request', message: 'body/qty Too small: expected number to be >=1' })
    const path = await request(app.server).post('/orders/abc/pay').expect(400)
    expect(path.body.message).to.match(/^params\/id /)
    expect((await pool.query<{ n: number }>('select count(*)::int as n from orders')).rows[0]!.n).to.equal(before)
  })

  it('pays a pending order once: paying it again is a coded 409 naming its status; a missing order is a coded 404', async () => {
    await pool.query("insert into products (sku, price, stock) values ('pen', 2.10, 5)")
    const order = await request(app.server).post('/orders').send({ sku: 'pen', qty: 3 }).expect(201)
    expect(order.body.total).to.equal('6.30')
    provider.mode = 'ok'
    const paid = await request(app.server).post(`/orders/${order.body.id}/pay`).expect(200)
    expect(paid.body).to.deep.equal({ id: order.body.id, status: 'paid', total: '6.30' })
    await request(app.server).post(`/orders/${order.body.id}/pay`).expect(409, {
      statusCode: 409, code: 'ORDER_INVALID_TRANSITION', error: 'Conflict', message: 'An order that is paid cannot be paid', details: { status: 'paid' },
    })
    await request(app.server).post('/orders/999999/pay').expect(404, { statusCode: 404, code: 'ORDER_NOT_FOUND', error: 'Not Found', message: 'No order 999999' })
  })

  it('a payment provider answering 503 is a coded 502 after one retry; one that never answers is a coded 504 within the timeouts; the order stays pending and is paid later', async () => {
    await pool.query("insert into products (sku, price, stock) values ('cup', 7.00, 5)")
    const order = await request(app.server).post('/orders').send({ sku: 'cup', qty: 1 }).expect(201)
    try {
      provider.mode = 'down'
      const callsBefore = provider.calls
      const down = await request(app.server).post(`/orders/${order.body.id}/pay`).expect(502)
      expect(down.body).to.deep.equal({ statusCode: 502, code: 'PAYMENT_PROVIDER_UNAVAILABLE', error: 'Bad Gateway', message: 'The payment provider answered 503' })
      expect(down.headers['retry-after']).to.equal('5')
      expect(provider.calls - callsBefore).to.equal(2)
      provider.mode = 'hang'
      const started = process.hrtime.bigint()
      const hang = await request(app.server).post(`/orders/${order.body.id}/pay`).timeout(10_000).expect(504)
      expect(hang.body).to.deep.equal({ statusCode: 504, code: 'PAYMENT_PROVIDER_TIMEOUT', error: 'Gateway Timeout', message: 'The payment provider did not answer in time' })
      // Two attempts of 300 ms: well under the 10 s the client gives it (a generous bound, not a timing claim).
      expect(Number(process.hrtime.bigint() - started) / 1e6).to.be.below(8_000)
    } finally { provider.mode = 'ok' }
    expect((await request(app.server).post(`/orders/${order.body.id}/pay`).expect(200)).body.status).to.equal('paid')
  })
})
