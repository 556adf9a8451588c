// A CRUD service on a real PostgreSQL (started by this file on a free loopback port, stopped by
// pid): the orders module the NestJS way (a pg Pool factory provider, migrations in onModuleInit,
// a repository injected by tsyringe, transactions spanning statements), and a customers plugin on
// the runtime API with the real @fastify/postgres (its `pg: { transact: true }` route option: one
// transaction per request). Driver errors reach the client as 4xx through an @ErrorHandler(), never
// as a 500 with SQL in it. Without PostgreSQL installed the test fails with an install hint.
import 'reflect-metadata'
import { Readable } from 'node:stream'
import { expect } from 'chai'
import request from 'supertest'
import { Client, DatabaseError, Pool, type PoolClient } from 'pg'
import fastifyPostgres from '@fastify/postgres'
import {
  Body, Delete, ErrorHandler, Get, HttpCode, HttpError, Module, Params, Post, Put, Query, Reply, Req, Route, SchemaClass,
  createApp, injectable, lift, resolveProvider, type Request, type Reply as ReplyT, type Scope, type SchemaParam,
} from '../../src'
import { track } from '../support/servers'
import { postgresBinaries, startPostgres, stopPostgres, untilOnlyConnection, type Postgres } from './postgres/processes'

class DbConfig { constructor(readonly url: string) {} }

const MIGRATIONS = [
  `create table if not exists customers (id bigserial primary key, email text not null unique, name text not null,
     created_at timestamptz not null default now())`,
  `create table if not exists orders (id bigserial primary key, customer_id bigint not null references customers(id),
     referrer_id bigint references customers(id), status text not null default 'open', total numeric(12,2) not null,
     note text, version integer not null default 1, created_at timestamptz not null default now())`,
  `create table if not exists line_items (order_id bigint not null references orders(id) on delete cascade,
     sku text not null, qty integer not null check (qty > 0), price numeric(12,2) not null)`,
]

@injectable()
class Db {
  constructor(readonly pool: Pool) {}
  async onModuleInit(): Promise<void> { for (const sql of MIGRATIONS) await this.pool.query(sql) }
  async checkHealth(): Promise<boolean> { await this.pool.query('select 1'); return true }
  async tx<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect()
    try {
      await client.query('begin')
      const result = await work(client)
      await client.query('commit')
      return result
    } catch (error) {
      await client.query('rollback')
      throw error
    } finally { client.release() }
  }
}

/** The SQL state says which 4xx; the driver's message (it may quote SQL or values) stays in the log. */
function fromDriver(error: unknown): HttpError | undefined {
  if (!(error instanceof DatabaseError)) return undefined
  if (error.code === '23505') return new HttpError(409, `Already exists (${error.constraint})`, { code: 'DB_UNIQUE' })
  if (error.code === '23503') return new HttpError(409, `Referenced row missing (${error.constraint})`, { code: 'DB_FOREIGN_KEY' })
  if (error.code === '23514') return new HttpError(400, `Check failed (${error.constraint})`, { code: 'DB_CHECK' })
  return undefined
}

// pg gives bigint (int8) and numeric as strings and timestamptz as a Date: the schema says how each is written.
const order = {
  type: 'object', required: ['id', 'customerId', 'referrerId', 'status', 'total', 'note', 'version', 'createdAt'], additionalProperties: false,
  properties: {
    id: { type: 'integer' }, customerId: { type: 'integer' }, referrerId: { type: ['integer', 'null'] },
    status: { type: 'string' }, total: { type: 'string' }, note: { type: 'string', nullable: true },
    version: { type: 'integer' }, createdAt: { type: 'string', format: 'date-time' },
  },
} as const

class NewOrder extends SchemaClass({
  type: 'object', required: ['customerId', 'items'], additionalProperties: false,
  properties: {
    customerId: { type: 'integer', minimum: 1 }, referrerId: { type: 'integer', minimum: 1 }, note: { type: 'string' },
    items: { type: 'array', minItems: 1, items: { type: 'object', required: ['sku', 'qty', 'price'], additionalProperties: false,
      properties: { sku: { type: 'string' }, qty: { type: 'integer' }, price: { type: 'string', pattern: '^\\d+\\.\\d\\d$' } } } },
  },
}) {}
class OrderPatch extends SchemaClass({
  type: 'object', minProperties: 1, additionalProperties: false, properties: { status: { type: 'string', enum: ['open', 'paid'] } },
}) {}

interface OrderRow { id: string; customer_id: string; referrer_id: string | null; status: string; total: string; note: string | null; version: number; created_at: Date }
const toOrder = (r: OrderRow) => ({
  id: r.id, customerId: r.customer_id, referrerId: r.referrer_id, status: r.status, total: r.total, note: r.note, version: r.version, createdAt: r.created_at,
})
const etag = (o: { id: string; version: number }): string => `"${o.id}.${o.version}"`

@injectable()
class OrdersRepository {
  constructor(private readonly db: Db) {}
  async page(limit: number, offset: number, status: string | undefined) {
    const { rows } = await this.db.pool.query<OrderRow>('select * from orders where ($1::text is null or status = $1) order by id limit $2 offset $3', [status ?? null, limit, offset])
    return rows.map(toOrder)
  }
  async find(id: number) {
    const { rows } = await this.db.pool.query<OrderRow>('select * from orders where id = $1', [id])
    return rows[0] === undefined ? undefined : toOrder(rows[0])
  }
  create(input: NewOrder) {
    return this.db.tx(async (client) => {
      const total = input.items.reduce((sum, item) => sum + item.qty * Number(item.price), 0).toFixed(2)
      const { rows } = await client.query<OrderRow>('insert into orders (customer_id, referrer_id, total, note) values ($1, $2, $3, $4) returning *',
        [input.customerId, input.referrerId ?? null, total, input.note ?? null])
      for (const item of input.items) await client.query('insert into line_items values ($1, $2, $3, $4)', [rows[0]!.id, item.sku, item.qty, item.price])
      return toOrder(rows[0]!)
    })
  }
  async update(id: number, version: number, patch: OrderPatch) {
    const { rows } = await this.db.pool.query<OrderRow>('update orders set status = coalesce($3, status), version = version + 1 where id = $1 and version = $2 returning *',
      [id, version, patch.status ?? null])
    return rows[0] === undefined ? undefined : toOrder(rows[0])
  }
  async remove(id: number): Promise<boolean> { return (await this.db.pool.query('delete from orders where id = $1', [id])).rowCount === 1 }
}

// The handlers return rows as pg gives them (digits for bigint, a Date for timestamptz): the
// response schema writes them; `as never` for the digits only: a Date fits a date-time string as it is.
@Route('/orders')
class OrdersController {
  constructor(private readonly orders: OrdersRepository) {}

  @Get('/', { schema: { response: { 200: { type: 'array', items: order } } } })
  list(@Query('limit', { type: 'integer', minimum: 1, maximum: 100, default: 20 }) limit: SchemaParam<number>,
       @Query('offset', { type: 'integer', minimum: 0, default: 0 }) offset: SchemaParam<number>,
       @Query('status', { type: 'string', enum: ['open', 'paid'] }, { optional: true }) status: SchemaParam<string | undefined>) {
    return this.orders.page(limit, offset, status) as never
  }

  @Get('/:id', { schema: { response: { 200: order } } })
  async get(@Params('id', { type: 'integer', minimum: 1, maximum: 2 ** 53 }) id: SchemaParam<number>, @Reply() reply: ReplyT) {
    const found = await this.orders.find(id)
    if (found === undefined) throw new HttpError(404, `No order ${id}`)
    reply.header('etag', etag(found))
    return found as never
  }

  @HttpCode(201) @Post('/', { schema: { response: { 201: order } } })
  create(@Body() input: NewOrder) { return this.orders.create(input) as never }

  @Put('/:id', { schema: { response: { 200: order } } })
  async update(@Params('id', { type: 'integer', minimum: 1 }) id: SchemaParam<number>, @Body() patch: OrderPatch, @Req() req: Request, @Reply() reply: ReplyT) {
    const current = await this.orders.find(id)
    if (current === undefined) throw new HttpError(404, `No order ${id}`)
    if (req.headers['if-match'] !== etag(current)) throw new HttpError(412, 'The order changed: read it again', { details: { etag: etag(current) } })
    const updated = await this.orders.update(id, current.version, patch)
    if (updated === undefined) throw new HttpError(412, 'The order changed: read it again')
    reply.header('etag', etag(updated))
    return updated as never
  }

  @HttpCode(204) @Delete('/:id')
  async remove(@Params('id', { type: 'integer', minimum: 1 }) id: SchemaParam<number>) {
    if (!(await this.orders.remove(id))) throw new HttpError(404, `No order ${id}`)
  }
}

@Module({
  providers: [
    { provide: Pool, useFactory: (config: DbConfig) => new Pool({ connectionString: config.url, max: 4 }), inject: [DbConfig], dispose: (pool: Pool) => pool.end() },
    Db,
  ],
})
class DatabaseModule {}

@Module({ prefix: '/api', providers: [OrdersRepository], controllers: [OrdersController] })
class OrdersModule {}

// @fastify/postgres's own members, read through casts: a `declare module` here would be global to the test build.
type PgScope = Scope & { pg: { query: Pool['query']; pool: Pool } }
type PgRequest = Request & { pg: PoolClient }
const customer = {
  type: 'object', required: ['id', 'email', 'createdAt'], additionalProperties: false,
  properties: { id: { type: 'integer' }, email: { type: 'string' }, createdAt: { type: 'string', format: 'date-time' } },
} as const
interface CustomerRow { id: string; email: string; created_at: Date }

/** The runtime API with @fastify/postgres: its route option `pg: { transact: true }` wraps each request in a transaction. */
function customersPlugin(url: string, pools: Pool[]) {
  return async function customers(scope: Scope): Promise<void> {
    await scope.register(fastifyPostgres, { connectionString: url, max: 2 })
    pools.push((scope as PgScope).pg.pool)
    scope.post('/customers', {
      pg: { transact: true },
      schema: { body: { type: 'object', required: ['email'], properties: { email: { type: 'string' }, fail: { type: 'boolean' } } }, response: { 201: customer } },
    } as never, async (req: Request, reply: ReplyT) => {
      const { email, fail } = req.body as { email: string; fail?: boolean }
      const client = (req as PgRequest).pg
      const { rows } = await client.query<CustomerRow>('insert into customers (email, name) values ($1, $1) returning *', [email])
      // A second statement of the same transaction: when it fails, the insert above is rolled back.
      if (fail === true) await client.query('select 1 / 0')
      reply.code(201)
      return { id: rows[0]!.id, email: rows[0]!.email, createdAt: rows[0]!.created_at }
    })
    scope.get('/customers/export', async (_req: Request, reply: ReplyT) => {
      // A large result without holding it: a cursor read 50 rows at a time, written as NDJSON.
      const client = await (scope as PgScope).pg.pool.connect()
      async function* lines(): AsyncGenerator<string> {
        try {
          await client.query('begin')
          await client.query('declare everyone cursor for select id, email from customers order by id')
          for (let batch = 0; batch < 1000; batch++) {
            const { rows } = await client.query<{ id: string; email: string }>('fetch 50 from everyone')
            if (rows.length === 0) break
            yield rows.map((row) => JSON.stringify(row)).join('\n') + '\n'
          }
          await client.query('commit')
        } finally { client.release() }
      }
      return reply.type('application/x-ndjson').send(Readable.from(lines()))
    })
  }
}

function appModule(url: string, pools: Pool[] = []) {
  @Module({
    providers: [{ provide: DbConfig, useValue: new DbConfig(url) }],
    plugins: [lift(DatabaseModule), OrdersModule, customersPlugin(url, pools)],
  })
  class AppModule {
    @ErrorHandler()
    fromDatabase(error: Error) {
      const mapped = fromDriver(error)
      if (mapped === undefined) throw error
      throw mapped
    }
  }
  return AppModule
}

describe('a CRUD service on a real PostgreSQL (decorator modules with pg, and @fastify/postgres on the runtime API)', function () {
  this.timeout(30_000)
  let pg: Postgres | undefined
  let app: Awaited<ReturnType<typeof createApp>>
  const errors: unknown[] = []

  before(async function () {
    // initdb and the server's start, then the app's boot: 30 s was not enough on a loaded 2-core
    // machine (load ~28 here); every wait inside is bounded on its own (initdb 30 s, start 10 s).
    this.timeout(90_000)
    pg = await startPostgres()
    app = await createApp(appModule(pg.url), { health: true, logger: { level: 'error', stream: { write: (line: string) => { errors.push(JSON.parse(line)) } } } })
  })
  after(async () => {
    if (app !== undefined) await app.close()
    // pool.end() resolves once its clients are told to end, before their sockets close: a server
    // stopped in between sends them an error that nothing listens for any more.
    if (pg !== undefined) await untilOnlyConnection(pg.url)
    await stopPostgres(pg)
  })

  const newCustomer = async (email: string): Promise<number> => Number((await request(app.server).post('/customers').send({ email }).expect(201)).body.id)

  it('runs the migrations at startup and reports the pool in readiness (checkHealth)', async () => {
    await request(app.server).get('/health/ready').expect(200, { status: 'ok', checks: { Db: { status: 'up' } } })
    await request(app.server).get('/api/orders').expect(200, [])
  })

  it('creates an order and its line items in one transaction; bigint, numeric, timestamptz and nullable bigint columns are written per the response schema', async () => {
    const ann = await newCustomer('ann@example.com')
    const bob = await newCustomer('bob@example.com')
    const res = await request(app.server).post('/api/orders').send({ customerId: ann, referrerId: bob, items: [{ sku: 'a', qty: 2, price: '2.55' }, { sku: 'b', qty: 1, price: '0.10' }] }).expect(201)
    expect(res.body).to.include({ customerId: ann, referrerId: bob, status: 'open', total: '5.20', note: null, version: 1 })
    expect(res.body.id).to.be.a('number')
    expect(res.body.createdAt).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    const plain = await request(app.server).post('/api/orders').send({ customerId: ann, items: [{ sku: 'c', qty: 1, price: '1.00' }] }).expect(201)
    expect(plain.body.referrerId).to.equal(null)
  })

  it('a failing statement rolls the whole transaction back (no order row left): a check violation is a 400, a missing reference a 409, from the error handler', async () => {
    const before = (await request(app.server).get('/api/orders?limit=100').expect(200)).body.length
    const ann = await newCustomer('carol@example.com')
    // The second line item violates the qty check after the order row was inserted.
    await request(app.server).post('/api/orders').send({ customerId: ann, items: [{ sku: 'a', qty: 1, price: '1.00' }, { sku: 'b', qty: 0, price: '1.00' }] })
      .expect(400, { statusCode: 400, code: 'DB_CHECK', error: 'Bad Request', message: 'Check failed (line_items_qty_check)' })
    await request(app.server).post('/api/orders').send({ customerId: 999_999, items: [{ sku: 'a', qty: 1, price: '1.00' }] })
      .expect(409, { statusCode: 409, code: 'DB_FOREIGN_KEY', error: 'Conflict', message: 'Referenced row missing (orders_customer_id_fkey)' })
    expect((await request(app.server).get('/api/orders?limit=100').expect(200)).body).to.have.length(before)
  })

  it('pages and filters with validated query parameters; a bad one is a 400, never a driver error', async () => {
    const all = (await request(app.server).get('/api/orders?limit=100').expect(200)).body as Array<{ id: number }>
    const second = (await request(app.server).get('/api/orders?limit=1&offset=1').expect(200)).body as Array<{ id: number }>
    expect(second.map((o) => o.id)).to.deep.equal([all[1]!.id])
    await request(app.server).get('/api/orders?status=paid').expect(200, [])
    await request(app.server).get('/api/orders?limit=0').expect(400)
    await request(app.server).get('/api/orders?status=lost').expect(400)
    await request(app.server).get('/api/orders/abc').expect(400, { statusCode: 400, error: 'Bad Request', message: 'params/id should be integer' })
    // Past int8's range: refused by the schema before the query (`maximum`), not a 500 from the driver.
    await request(app.server).get('/api/orders/99999999999999999999').expect(400)
  })

  it('optimistic concurrency: GET gives an ETag, PUT with a stale If-Match is 412, with the current one 200 and a new ETag', async () => {
    const id = ((await request(app.server).get('/api/orders?limit=1').expect(200)).body as Array<{ id: number }>)[0]!.id
    const read = await request(app.server).get(`/api/orders/${id}`).expect(200)
    const stale = read.headers.etag as string
    const changed = await request(app.server).put(`/api/orders/${id}`).set('if-match', stale).send({ status: 'paid' }).expect(200)
    expect(changed.body).to.include({ status: 'paid', version: read.body.version + 1 })
    expect(changed.headers.etag).to.not.equal(stale)
    await request(app.server).put(`/api/orders/${id}`).set('if-match', stale).send({ status: 'open' })
      .expect(412, { statusCode: 412, error: 'Precondition Failed', message: 'The order changed: read it again', details: { etag: changed.headers.etag } })
    await request(app.server).get('/api/orders?status=paid').expect(200).expect((res) => { expect(res.body.map((o: { id: number }) => o.id)).to.deep.equal([id]) })
  })

  it('not found is a 404 for reads, updates and deletes; a delete answers 204 once', async () => {
    const created = await request(app.server).post('/api/orders').send({ customerId: await newCustomer('dan@example.com'), items: [{ sku: 'x', qty: 1, price: '9.99' }] }).expect(201)
    await request(app.server).delete(`/api/orders/${created.body.id}`).expect(204, '')
    await request(app.server).delete(`/api/orders/${created.body.id}`).expect(404, { statusCode: 404, error: 'Not Found', message: `No order ${created.body.id}` })
    await request(app.server).get(`/api/orders/${created.body.id}`).expect(404)
    await request(app.server).put(`/api/orders/${created.body.id}`).set('if-match', '"x"').send({ status: 'paid' }).expect(404)
  })

  it('@fastify/postgres on the runtime API: a unique violation is a 409 from the root error handler, without the driver\'s text', async () => {
    await newCustomer('eve@example.com')
    const res = await request(app.server).post('/customers').send({ email: 'eve@example.com' })
      .expect(409, { statusCode: 409, code: 'DB_UNIQUE', error: 'Conflict', message: 'Already exists (customers_email_key)' })
    expect(res.text).to.not.match(/insert|duplicate key|customers \(/i)
  })

  it('@fastify/postgres\'s per-request transaction (pg: { transact: true }) commits on success and rolls back when a later statement fails (a 500 without the SQL)', async () => {
    errors.length = 0
    const res = await request(app.server).post('/customers').send({ email: 'frank@example.com', fail: true })
      .expect(500, { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
    expect(res.text).to.not.match(/division/)
    expect(JSON.stringify(errors)).to.match(/division by zero/)      // the cause is in the log
    // Rolled back: the same email is free.
    await newCustomer('frank@example.com')
  })

  it('streams a large result set row by row (a cursor), as NDJSON', async () => {
    const direct = new Pool({ connectionString: pg!.url, max: 1 })
    try {
      await direct.query(`insert into customers (email, name) select 'bulk' || n || '@example.com', 'bulk' from generate_series(1, 500) n`)
    } finally { await direct.end() }
    const res = await request(app.server).get('/customers/export').buffer(true).parse((r, done) => { let text = ''; r.on('data', (c: Buffer) => { text += c }); r.on('end', () => done(null, text)) }).expect(200)
    expect(res.headers['content-type']).to.match(/^application\/x-ndjson/)
    const lines = (res.body as string).trim().split('\n').map((line) => JSON.parse(line) as { email: string })
    expect(lines.filter((line) => line.email.startsWith('bulk'))).to.have.length(500)
  })

  it('close() ends both pools (the factory provider\'s dispose and @fastify/postgres\'s onClose hook)', async () => {
    const pluginPools: Pool[] = []
    const local = track(await createApp(appModule(pg!.url, pluginPools), { health: true }))
    const pool = resolveProvider(local, Pool)
    await request(local.server).get('/api/orders?limit=1').expect(200)
    await request(local.server).post('/customers').send({ email: 'gina@example.com' }).expect(201)
    expect(pool.totalCount).to.be.greaterThan(0)
    expect(pluginPools).to.have.length(1)
    await local.close()
    expect((pool as Pool & { ended: boolean }).ended).to.equal(true)
    expect((pluginPools[0] as Pool & { ended: boolean }).ended).to.equal(true)
    expect(pool.totalCount).to.equal(0)
  })
})

/** Waits (bounded: 100 × 20 ms) until the server has no client connection but this one. */
describe('the PostgreSQL service test without PostgreSQL installed', () => {
  it('fails (never skips) with the install hint when initdb and postgres are found neither under /usr/lib/postgresql/*/bin nor on PATH', () => {
    expect(() => postgresBinaries('/nonexistent/postgresql', '/nonexistent/bin')).to.throw(/apt-get install -y --no-install-recommends postgresql/)
  })
})
