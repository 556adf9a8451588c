// One transaction per request on a real PostgreSQL (started by this file on a free loopback port,
// stopped by pid), the NestJS way with request-scoped providers: a pg Pool singleton, a `Tx`
// request-scoped factory (BEGIN when built; COMMIT or ROLLBACK in its dispose(client, end), once
// the route's handler settled), a tenant context read from REQUEST, and a repository that injects
// both (so it, and the controller, are built per request). docs/request-scope.md, "Request-scoped providers".
import 'reflect-metadata'
import { expect } from 'chai'
import { Client, Pool, type PoolClient } from 'pg'
import {
  Body, Get, HttpCode, HttpError, Module, Post, REQUEST, RequestScoped, Route, SchemaClass, createApp, inject, injectable, resolveProvider,
  type Request, type RequestEnd,
} from '../../src'
import { startPostgres, stopPostgres, untilOnlyConnection, type Postgres } from './postgres/processes'

const Tx = Symbol('Tx')

@RequestScoped()
class Tenant {
  readonly name: string
  constructor(@inject(REQUEST) request: Request) {
    const given = request.headers['x-tenant']
    // A request without a tenant never reaches the database: a 400 through the error handlers.
    if (typeof given !== 'string' || given === '') throw new HttpError(400, 'x-tenant header required', { code: 'TENANT_MISSING' })
    this.name = given
  }
}

@injectable()
class Notes {
  constructor(@inject(Tx) private readonly tx: PoolClient, private readonly tenant: Tenant) {}
  async add(text: string): Promise<{ id: number; txid: string }> {
    const { rows } = await this.tx.query<{ id: number; txid: string }>('insert into notes (tenant, text) values ($1, $2) returning id, txid_current()::text as txid', [this.tenant.name, text])
    return rows[0]!
  }
  async list(): Promise<string[]> {
    const { rows } = await this.tx.query<{ text: string }>('select text from notes where tenant = $1 order by id', [this.tenant.name])
    return rows.map((r) => r.text)
  }
  async txid(): Promise<string> { return (await this.tx.query<{ txid: string }>('select txid_current()::text as txid')).rows[0]!.txid }
}

/** A second consumer of Tx within the same request: it must see the same transaction. */
@injectable()
class Audit {
  constructor(@inject(Tx) private readonly tx: PoolClient) {}
  async txid(): Promise<string> { return (await this.tx.query<{ txid: string }>('select txid_current()::text as txid')).rows[0]!.txid }
}

class NewNote extends SchemaClass({
  type: 'object', required: ['text'], additionalProperties: false,
  properties: { text: { type: 'string', minLength: 1 }, fail: { type: 'boolean' }, twice: { type: 'boolean' } },
}) {}

@Route('/notes')
class NotesController {
  constructor(private readonly notes: Notes, private readonly audit: Audit) {}

  @Post('/') @HttpCode(201)
  async create(@Body() body: NewNote) {
    const note = await this.notes.add(body.text)
    if (body.twice === true) await this.notes.add(body.text)
    if (body.fail === true) throw new HttpError(422, 'refused after the insert', { code: 'REFUSED' })
    return { id: note.id, sameTx: note.txid === await this.audit.txid() && note.txid === await this.notes.txid() }
  }

  @Get('/')
  async list() { return this.notes.list() }
}

function appModule(url: string, ends: RequestEnd[]): Function {
  @Module({
    providers: [
      { provide: Pool, useFactory: async () => {
        const pool = new Pool({ connectionString: url, max: 5 })
        // Unique per tenant, checked at COMMIT: a duplicate fails the commit, not the insert.
        await pool.query(`create table if not exists notes (id serial primary key, tenant text not null, text text not null,
          constraint one_text_per_tenant unique (tenant, text) deferrable initially deferred)`)
        return pool
      }, dispose: (pool: Pool) => pool.end() },
      {
        provide: Tx, scope: 'request', inject: [Pool],
        useFactory: async (pool: Pool) => {
          const client = await pool.connect()
          try { await client.query('begin') } catch (error) { client.release(); throw error }
          return client
        },
        dispose: async (client: PoolClient, end: RequestEnd) => {
          ends.push(end)
          try { await client.query(end.failed ? 'rollback' : 'commit') } finally { client.release() }
        },
      },
      Tenant, Notes, Audit,
    ],
    controllers: [NotesController],
  })
  class AppModule {}
  return AppModule
}

describe('a transaction per request on a real PostgreSQL (request-scoped providers)', function () {
  this.timeout(30_000)
  let pg: Postgres | undefined
  let app: Awaited<ReturnType<typeof createApp>>
  let reader: Client
  const ends: RequestEnd[] = []

  before(async () => {
    pg = await startPostgres()
    app = await createApp(appModule(pg.url, ends))
    reader = new Client({ connectionString: pg.url })
    await reader.connect()
  })
  after(async () => {
    await reader?.end()
    if (app !== undefined) await app.close()
    if (pg !== undefined) await untilOnlyConnection(pg.url)
    await stopPostgres(pg)
  })

  const committed = async (tenant: string): Promise<string[]> =>
    (await reader.query<{ text: string }>('select text from notes where tenant = $1 order by id', [tenant])).rows.map((r) => r.text)
  const post = (tenant: string | undefined, body: object) =>
    app.inject({ method: 'POST', url: '/notes', headers: tenant === undefined ? {} : { 'x-tenant': tenant }, payload: body })

  it('commits when the handler succeeds: every consumer in the request used the one transaction', async () => {
    const response = await post('acme', { text: 'first' })
    expect(response.statusCode).to.equal(201)
    expect(response.json()).to.include({ sameTx: true })
    expect(await committed('acme')).to.deep.equal(['first'])
    expect(ends.pop()).to.deep.equal({ failed: false, error: undefined })
  })

  it('rolls back when the handler throws: the insert it made is gone, and the error is the answer', async () => {
    const response = await post('acme', { text: 'refused', fail: true })
    expect(response.statusCode).to.equal(422)
    expect(response.json()).to.include({ code: 'REFUSED' })
    expect(await committed('acme')).to.deep.equal(['first'])
    const end = ends.pop()!
    expect(end.failed).to.equal(true)
    expect((end.error as Error).message).to.equal('refused after the insert')
  })

  it('answers 500 when the COMMIT itself fails (a deferred constraint), never the 201 it would have confirmed', async () => {
    const response = await post('acme', { text: 'dup', twice: true })
    expect(response.statusCode).to.equal(500)
    expect(response.body).to.not.contain('one_text_per_tenant').and.not.contain('at ')
    expect(await committed('acme')).to.deep.equal(['first'])
  })

  it('keeps tenants and concurrent requests apart: 20 overlapping requests, each its own transaction, all committed', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => post(i % 2 === 0 ? 'even' : 'odd', { text: `n${i}` })))
    expect(answers.map((a) => a.statusCode)).to.deep.equal(Array.from({ length: 20 }, () => 201))
    expect((await committed('even')).sort()).to.deep.equal(Array.from({ length: 10 }, (_, i) => `n${i * 2}`).sort())
    expect((await committed('odd')).sort()).to.deep.equal(Array.from({ length: 10 }, (_, i) => `n${i * 2 + 1}`).sort())
    const listed = await app.inject({ url: '/notes', headers: { 'x-tenant': 'acme' } })
    expect(listed.json()).to.deep.equal(['first'])
  })

  it('refuses a request without a tenant with a 400; the transaction begun before the tenant was read is rolled back', async () => {
    const before = ends.length
    const response = await post(undefined, { text: 'nobody' })
    expect(response.statusCode).to.equal(400)
    expect(response.json()).to.include({ code: 'TENANT_MISSING' })
    // The graph is built in constructor order: Notes takes Tx (BEGIN) before Tenant, whose throw
    // ends the build; the Tx already built is released with failed: true (a rollback).
    expect(ends.slice(before).map((end) => end.failed)).to.deep.equal([true])
    expect(await committed('')).to.deep.equal([])
  })

  it('returns every pool client: after the requests above none is checked out', async () => {
    const pool = resolveProvider(app, Pool)
    expect(pool.totalCount - pool.idleCount).to.equal(0)
    expect(pool.waitingCount).to.equal(0)
  })
})
