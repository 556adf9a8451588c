// A shop's catalog on a real PostgreSQL (started by this file on a free loopback port, stopped by
// pid): cursor pagination with opaque cursors (a bad one is a coded 400, never a driver error or a
// 500), Link / X-Total-Count, ETag / If-None-Match 304 with Cache-Control, money as decimal strings
// or minor units, and a CSV export streamed from a PostgreSQL cursor that stops reading when the
// client stops reading and closes the cursor when the client leaves. docs/recipes-ecommerce.md
// explains each piece; this file is its proof.
import 'reflect-metadata'
import { createHash } from 'node:crypto'
import { get, type IncomingMessage } from 'node:http'
import { Readable } from 'node:stream'
import { expect } from 'chai'
import request from 'supertest'
import { Client, Pool } from 'pg'
import {
  Get, HttpError, Module, Query, Reply, Req, Route, createApp, injectable, lift, resolveProvider,
  type Reply as ReplyT, type Request, type SchemaParam,
} from '../../src'
import { untilSettled } from '../support/settled'
import { startPostgres, stopPostgres, untilOnlyConnection, type Postgres } from './postgres/processes'

class DbConfig { constructor(readonly url: string) {} }

const PRODUCTS = 45
/** Far more rows than any socket or stream buffer holds (~30 bytes each): only a stream that stops can stop early. */
const HUGE = 10_000_000
const BATCH = 500

@Module({
  providers: [{
    provide: Pool,
    useFactory: (config: DbConfig) => {
      const pool = new Pool({ connectionString: config.url, max: 4 })
      pool.on('error', () => { /* an idle client lost (server restart): pg emits it on the pool, unhandled it would end the process */ })
      return pool
    },
    inject: [DbConfig], dispose: (pool: Pool) => pool.end(),
  }],
})
class DatabaseModule {}

const product = {
  type: 'object', required: ['id', 'name', 'price', 'priceMinor'], additionalProperties: false,
  properties: { id: { type: 'integer' }, name: { type: 'string' }, price: { type: 'string' }, priceMinor: { type: 'integer' } },
} as const
const page = {
  type: 'object', required: ['items', 'nextCursor'],
  properties: { items: { type: 'array', items: product }, nextCursor: { type: ['string', 'null'] } },
} as const
const listQuery = {
  type: 'object', additionalProperties: false,
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
    sort: { type: 'string', enum: ['id', 'price'], default: 'id' },
    cursor: { type: 'string', maxLength: 200 },
  },
} as const

interface Cursor { sort: 'id' | 'price'; after: [number, number] }

/** Opaque to clients: base64url JSON bound to the sort it was made for. Anything else is the same coded 400. */
function decodeCursor(raw: string | undefined, sort: Cursor['sort']): Cursor | undefined {
  if (raw === undefined) return undefined
  const refuse = (why: string): never => { throw new HttpError(400, `Invalid cursor: ${why}; start again without one`, { code: 'CATALOG_INVALID_CURSOR' }) }
  let value: unknown
  try { value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) } catch { return refuse('not one this API gave') }
  const cursor = value as Partial<Cursor> | null
  if (typeof cursor !== 'object' || cursor === null || !Array.isArray(cursor.after) || cursor.after.length !== 2 ||
    !cursor.after.every((n) => Number.isSafeInteger(n) && n >= 0)) return refuse('not one this API gave')
  if (cursor.sort !== sort) return refuse(`made for sort=${String(cursor.sort)}, not sort=${sort}`)
  return cursor as Cursor
}
const encodeCursor = (cursor: Cursor): string => Buffer.from(JSON.stringify(cursor)).toString('base64url')

interface Row { id: number; name: string; price: string; price_minor: string }
const toProduct = (row: Row) => ({ id: row.id, name: row.name, price: row.price, priceMinor: BigInt(row.price_minor) })

@injectable()
class Catalog {
  /** What the export routes did, for the tests: batches fetched, and whether the cursor was closed and the client released. */
  readonly exports: Array<{ batches: number; released: boolean; cancelled: boolean }> = []
  constructor(readonly pool: Pool) {}

  async onModuleInit(): Promise<void> {
    await this.pool.query('create table if not exists products (id serial primary key, name text not null, price numeric(12,2) not null)')
    await this.pool.query(`insert into products (name, price) select 'Mug ' || g, (g * 1.11)::numeric(12,2) from generate_series(1, ${PRODUCTS}) g`)
    // A catalog far larger than any buffer: rows the cursor computes as it is read.
    await this.pool.query(`create or replace view huge_catalog as select g as id, 'Item ' || g as name, (g % 10000)::numeric / 100 as price from generate_series(1, ${HUGE}) g`)
  }

  /**
   * CSV lines from a cursor, BATCH rows a fetch, inside a transaction. The head line goes out before
   * the database is asked (the client sees the download start). When the reply's stream is destroyed
   * (the client left), Readable.from calls the generator's return(), which waits for the statement in
   * flight (and only then emits 'close'): `request.signal`, which aborts when the client leaves before
   * the streamed reply has ended, cancels that statement from another connection, so a slow or blocked
   * query stops too.
   */
  csv(relation: 'products' | 'huge_catalog', signal: AbortSignal): Readable {
    const pool = this.pool
    const record = { batches: 0, released: false, cancelled: false }
    this.exports.push(record)
    let backend: number | undefined
    let inFlight = false
    async function* lines(): AsyncGenerator<string> {
      yield 'id,name,price\r\n'
      const client = await pool.connect()
      try {
        backend = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid
        await client.query('begin read only')
        inFlight = true
        await client.query(`declare export_rows no scroll cursor for select id, name, price from ${relation}${relation === 'products' ? ' order by id' : ''}`)
        for (;;) {
          const { rows } = await client.query<{ id: number; name: string; price: string }>(`fetch ${BATCH} from export_rows`)
          inFlight = false
          record.batches++
          if (rows.length === 0) break
          yield rows.map((row) => `${row.id},"${row.name.replace(/"/g, '""')}",${row.price}\r\n`).join('')
          inFlight = true
        }
        await client.query('commit')
      } finally {
        inFlight = false
        await client.query('rollback').catch(() => undefined)   // a no-op after commit; closes the cursor otherwise
        client.release()
        record.released = true
      }
    }
    signal.addEventListener('abort', () => {
      if (!inFlight || backend === undefined) return
      record.cancelled = true
      pool.query('select pg_cancel_backend($1)', [backend]).catch(() => undefined)
    }, { once: true })
    return Readable.from(lines())
  }
}

@Route('/products')
class CatalogController {
  constructor(private readonly catalog: Catalog) {}

  @Get('/', { schema: { querystring: listQuery, response: { 200: page } } })
  async list(@Query() query: SchemaParam<{ limit: number; sort: 'id' | 'price'; cursor?: string }>, @Req() request: Request, @Reply() reply: ReplyT) {
    const cursor = decodeCursor(query.cursor, query.sort)
    const key = query.sort === 'price' ? '(price * 100)::bigint' : 'id'
    const { rows } = await this.catalog.pool.query<Row>(
      `select id, name, price, (price * 100)::bigint as price_minor from products
       where ($1::bigint is null or (${key}, id) > ($1::bigint, $2::int)) order by ${key}, id limit $3`,
      [cursor?.after[0] ?? null, cursor?.after[1] ?? null, query.limit + 1])
    const total = (await this.catalog.pool.query<{ n: string }>('select count(*) as n from products')).rows[0]!.n
    const items = rows.slice(0, query.limit).map(toProduct)
    const last = items[items.length - 1]
    const nextCursor = rows.length > query.limit && last !== undefined
      ? encodeCursor({ sort: query.sort, after: [query.sort === 'price' ? Number(last.priceMinor) : last.id, last.id] })
      : null
    // A strong validator of what is sent: the same rows give the same ETag on every instance.
    const etag = `"${createHash('sha256').update(JSON.stringify(rows)).digest('base64url').slice(0, 27)}"`
    reply.header('x-total-count', total).header('etag', etag).header('cache-control', 'public, max-age=60')
    if (nextCursor !== null) reply.header('link', `</products?limit=${query.limit}&sort=${query.sort}&cursor=${nextCursor}>; rel="next"`)
    const match = request.headers['if-none-match']
    if (match !== undefined && (match === '*' || match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag))) return reply.code(304).send()
    return { items, nextCursor }
  }

  @Get('/export.csv')
  exportCsv(@Query('huge', { type: 'boolean', default: false }) huge: SchemaParam<boolean>, @Req() request: Request, @Reply() reply: ReplyT) {
    return reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="catalog.csv"')
      .send(this.catalog.csv(huge ? 'huge_catalog' : 'products', request.signal))
  }
}

function appModule(url: string) {
  @Module({ providers: [{ provide: DbConfig, useValue: new DbConfig(url) }, Catalog], plugins: [lift(DatabaseModule)], controllers: [CatalogController] })
  class ShopModule {}
  return ShopModule
}

/** Opens the export over a real connection and hands back the response once its first body chunk arrived, paused. */
function openExport(url: string): Promise<{ res: IncomingMessage; first: string }> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      res.once('data', (chunk: Buffer) => { res.pause(); resolve({ res, first: chunk.toString('utf8') }) })
    }).once('error', reject)
  })
}

describe('e-commerce catalog on a real PostgreSQL: cursor pages, 304s, money, a streamed CSV export', function () {
  this.timeout(30_000)
  let pg: Postgres | undefined
  let app: Awaited<ReturnType<typeof createApp>>
  const errors: Array<{ err?: { code?: string } }> = []
  let address: string | undefined
  const listening = async (): Promise<string> => (address ??= await app.listen({ port: 0, host: '127.0.0.1' }))

  before(async function () {
    this.timeout(90_000)   // initdb and the server's start on a loaded machine; each wait inside is bounded
    pg = await startPostgres()
    app = await createApp(appModule(pg.url), { logger: { level: 'error', stream: { write: (line: string) => { errors.push(JSON.parse(line)) } } } })
  })
  after(async () => {
    if (app !== undefined) await app.close()
    if (pg !== undefined) await untilOnlyConnection(pg.url)
    await stopPostgres(pg)
  })

  it('pages by opaque cursor with a Link rel="next" and X-Total-Count, in id and price order, until nextCursor is null', async () => {
    for (const sort of ['id', 'price'] as const) {
      const seen: number[] = []
      let url: string | undefined = `/products?limit=20&sort=${sort}`
      for (let pages = 0; url !== undefined && pages < 10; pages++) {
        const res: request.Response = await request(app.server).get(url).expect(200)
        expect(res.headers['x-total-count']).to.equal(String(PRODUCTS))
        seen.push(...res.body.items.map((item: { id: number }) => item.id))
        const next = /^<([^>]+)>; rel="next"$/.exec(res.headers.link ?? '')
        expect(next === null).to.equal(res.body.nextCursor === null)
        url = next?.[1]
      }
      expect(seen).to.deep.equal(Array.from({ length: PRODUCTS }, (_, i) => i + 1))   // prices rise with ids: one order
    }
  })

  it('a cursor that is not one the API gave is a 400 with a code (never a driver error or a 500); a bad limit or an over-long cursor is the schema\'s 400', async () => {
    const first = await request(app.server).get('/products?limit=5&sort=id').expect(200)
    const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
    const bad = ['%%%', 'bm90IGpzb24', forged(null), forged({ sort: 'id', after: [1] }), forged({ sort: 'id', after: [-1, 2] }),
      forged({ sort: 'id', after: ['1; drop table products', 1] }), forged({ sort: 'id', after: [1e300, 1] })]
    for (const cursor of bad) {
      await request(app.server).get('/products').query({ cursor }).expect(400,
        { statusCode: 400, code: 'CATALOG_INVALID_CURSOR', error: 'Bad Request', message: 'Invalid cursor: not one this API gave; start again without one' })
    }
    // A real cursor under another sort than it was made for.
    await request(app.server).get('/products').query({ cursor: first.body.nextCursor, sort: 'price' }).expect(400,
      { statusCode: 400, code: 'CATALOG_INVALID_CURSOR', error: 'Bad Request', message: 'Invalid cursor: made for sort=id, not sort=price; start again without one' })
    const tooLong = await request(app.server).get('/products').query({ cursor: 'a'.repeat(201) }).expect(400)
    expect(tooLong.body.message).to.equal('querystring/cursor should NOT be longer than 200 characters')
    expect((await request(app.server).get('/products?limit=0').expect(400)).body.message).to.equal('querystring/limit should be >= 1')
    expect((await request(app.server).get('/products?cursor=a&cursor=b').expect(400)).body.message).to.equal('querystring/cursor should be string')
    expect(errors).to.deep.equal([])   // nothing reached the log as a 500
  })

  it('answers 304 with no body to a matching If-None-Match (a list, a weak form or *), with the ETag and Cache-Control again; another page has another ETag', async () => {
    const res = await request(app.server).get('/products?limit=3').expect(200)
    const etag = res.headers.etag as string
    expect(etag).to.match(/^"[\w-]{27}"$/)
    expect(res.headers['cache-control']).to.equal('public, max-age=60')
    for (const match of [etag, `"other", W/${etag}`, '*']) {
      const again = await request(app.server).get('/products?limit=3').set('if-none-match', match).expect(304)
      expect(again.text).to.equal('')
      expect(again.headers).to.include({ etag, 'cache-control': 'public, max-age=60' })
      expect(again.headers['content-length']).to.equal(undefined)
      expect(again.headers['content-type']).to.equal(undefined)
    }
    const other = await request(app.server).get('/products?limit=4').set('if-none-match', etag).expect(200)
    expect(other.headers.etag).to.not.equal(etag)
  })

  it('writes money exactly: numeric columns as decimal strings ("1.10", "49.95"), minor units as integers (a BigInt from an int8 column)', async () => {
    const res = await request(app.server).get('/products?limit=45').expect(200)
    const byId = new Map(res.body.items.map((item: { id: number }) => [item.id, item]))
    expect(byId.get(1)).to.deep.equal({ id: 1, name: 'Mug 1', price: '1.11', priceMinor: 111 })
    expect(byId.get(10)).to.deep.equal({ id: 10, name: 'Mug 10', price: '11.10', priceMinor: 1110 })
    expect(byId.get(45)).to.deep.equal({ id: 45, name: 'Mug 45', price: '49.95', priceMinor: 4995 })
    expect(res.text).to.contain('"price":"11.10","priceMinor":1110')
  })

  it('streams the CSV export from a PostgreSQL cursor: every row of a small catalog with its decimals, in order', async () => {
    const res = await request(app.server).get('/products/export.csv').expect(200)
    expect(res.headers['content-type']).to.equal('text/csv; charset=utf-8')
    expect(res.headers['content-disposition']).to.equal('attachment; filename="catalog.csv"')
    expect(res.headers['transfer-encoding']).to.equal('chunked')   // no Content-Length: nothing was buffered to measure it
    const lines = res.text.split('\r\n')
    expect(lines[0]).to.equal('id,name,price')
    expect(lines[1]).to.equal('1,"Mug 1",1.11')
    expect(lines[45]).to.equal('45,"Mug 45",49.95')
    expect(lines).to.have.length(PRODUCTS + 2)
    const record = resolveProvider(app, Catalog).exports.at(-1)
    expect(record).to.deep.equal({ batches: 2, released: true, cancelled: false })
  })

  it('fetches no further than the client reads (backpressure), and a client that leaves ends the cursor\'s transaction and returns the connection', async () => {
    const pool = resolveProvider(app, Pool)
    const catalog = resolveProvider(app, Catalog)
    const address = await listening()
    const { res, first } = await openExport(`${address}/products/export.csv?huge=true`)
    expect(first.startsWith('id,name,price\r\n')).to.equal(true)   // the head line is its own first chunk
    const record = catalog.exports.at(-1)!
    await untilSettled(() => record.batches, 300, 10_000)   // the buffers between the cursor and the paused client are full
    const stalled = record.batches
    expect(stalled * BATCH).to.be.below(HUGE / 4)   // socket buffers' worth (~10 MB here) of ~280 MB: the query waits for the client
    expect(pool.totalCount - pool.idleCount).to.equal(1)   // the export holds its connection while the client is there

    res.destroy()   // the client leaves mid-export
    for (let i = 0; i < 100 && !record.released; i++) await new Promise((resolve) => setTimeout(resolve, 20))
    expect(record.released).to.equal(true)
    expect(record.batches - stalled).to.be.at.most(2)   // at most what was asked before the server saw the client leave
    expect(record.cancelled).to.equal(false)   // it was waiting for the client, not for the database
    expect(pool.idleCount).to.equal(pool.totalCount)
    const probe = new Pool({ connectionString: pg!.url, max: 1 })
    try {
      const { rows } = await probe.query<{ n: number }>(`select count(*)::int as n from pg_stat_activity
        where backend_type = 'client backend' and pid <> pg_backend_pid() and state <> 'idle'`)
      expect(rows[0]!.n).to.equal(0)   // no open transaction or running query left behind
    } finally { await probe.end() }
  })

  it('a client that leaves while the export\'s statement waits on the database cancels that statement (pg_cancel_backend) and returns the connection', async () => {
    const pool = resolveProvider(app, Pool)
    const catalog = resolveProvider(app, Catalog)
    const address = await listening()
    // A migration holding the table: the export's cursor waits for the lock, as a slow query would run.
    const holder = new Client({ connectionString: pg!.url })
    await holder.connect()
    try {
      await holder.query('begin')
      await holder.query('lock table products in access exclusive mode')
      const { res, first } = await openExport(`${address}/products/export.csv`)
      expect(first).to.equal('id,name,price\r\n')
      const record = catalog.exports.at(-1)!
      const waiting = async (): Promise<number> => (await holder.query<{ n: number }>(`select count(*)::int as n from pg_stat_activity
        where wait_event_type = 'Lock' and pid <> pg_backend_pid()`)).rows[0]!.n
      for (let i = 0; i < 100 && (await waiting()) === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20))
      expect(await waiting()).to.equal(1)
      res.destroy()
      for (let i = 0; i < 100 && !record.released; i++) await new Promise((resolve) => setTimeout(resolve, 20))
      expect(record).to.deep.equal({ batches: 0, released: true, cancelled: true })
      expect(await waiting()).to.equal(0)   // cancelled while the lock is still held: nothing waits for it
      expect(pool.idleCount).to.equal(pool.totalCount)
    } finally {
      await holder.query('rollback')
      await holder.end()
    }
  })
})
