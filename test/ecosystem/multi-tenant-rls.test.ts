// A multi-tenant B2B API on a real PostgreSQL and redis-server (each started by this file on a free
// loopback port, stopped by pid) (docs/recipes-multi-tenant.md, "Multi-tenant services"): the tenant from the principal a
// module guard set, as a request-scoped TenantContext; a request-scoped transaction that sets
// `app.tenant_id` (SET LOCAL) for an RLS policy, so a repository query with no tenant filter still
// sees only its tenant's rows; per-tenant rate limits (@fastify/rate-limit, Redis store, keyed by
// tenant and plan: its hook runs after the module's guard); an audit entry per mutating request
// written at onResponse and flushed by the log's onClose(), so close() loses none in flight.
import 'reflect-metadata'
import { expect } from 'chai'
import Redis from 'ioredis'
import rateLimit from '@fastify/rate-limit'
import { Client, Pool, type PoolClient } from 'pg'
import {
  Body, DecorateRequest, Get, HttpCode, HttpError, Module, OnRequest, OnResponse, Params, Post, REQUEST, RequestScoped, Route, SchemaClass,
  createApp, inject, injectable, override, usePlugin, type App, type Reply, type Request, type RequestEnd,
} from '../../src'
import { AuthConfig, AuthGuard, Clock, Directory, IdentityProvider, Requires, hashKey } from './multi-tenant/auth'
import { startPostgres, stopPostgres, untilOnlyConnection, type Postgres } from './postgres/processes'
import { startRedis, stop as stopRedis, type Child } from './redis/processes'

@injectable() class DbConfig { url = '' }
@injectable() class RedisConfig { port = 6379 }

@RequestScoped()
class TenantContext {
  readonly id: string
  constructor(@inject(REQUEST) request: Request) {
    if (request.saasPrincipal == null) throw new HttpError(401, 'Not authenticated', { code: 'UNAUTHENTICATED' })
    this.id = request.saasPrincipal.tenant
  }
}

const Tx = Symbol('Tx')
const providers = [
  { provide: Pool, inject: [DbConfig], useFactory: (c: DbConfig) => new Pool({ connectionString: c.url, max: 4 }), dispose: (pool: Pool) => pool.end() },
  {
    provide: Tx, scope: 'request' as const, inject: [Pool, TenantContext],
    useFactory: async (pool: Pool, tenant: TenantContext) => {
      const client = await pool.connect()
      try {
        await client.query('begin')
        await client.query(`select set_config('app.tenant_id', $1, true)`, [tenant.id])   // SET LOCAL: ends with the transaction
      } catch (error) { client.release(); throw error }
      return client
    },
    dispose: async (client: PoolClient, end: RequestEnd) => { try { await client.query(end.failed ? 'rollback' : 'commit') } finally { client.release() } },
  },
  { provide: Redis, inject: [RedisConfig], useFactory: (c: RedisConfig) => new Redis({ host: '127.0.0.1', port: c.port, maxRetriesPerRequest: 1 }), dispose: (r: Redis) => r.quit() },
]

interface Invoice { id: number; tenant_id: string; amount: string }

/** No tenant in any query: the RLS policy adds it. */
@injectable()
class Invoices {
  constructor(@inject(Tx) private readonly tx: PoolClient) {}
  async all(): Promise<Invoice[]> { return (await this.tx.query<Invoice>('select id, tenant_id, amount from invoices order by id')).rows }
  async byId(id: number): Promise<Invoice | undefined> { return (await this.tx.query<Invoice>('select id, tenant_id, amount from invoices where id = $1', [id])).rows[0] }
  async create(amount: string, tenant = `current_setting('app.tenant_id')`): Promise<Invoice> {
    return (await this.tx.query<Invoice>(`insert into invoices (tenant_id, amount) values (${tenant}, $1) returning id, tenant_id, amount`, [amount])).rows[0]!
  }
}

const held = { count: 0, release: () => {}, until: Promise.resolve() }
held.until = new Promise<void>((resolve) => { held.release = resolve })

interface AuditEntry { actor: string; tenant: string | null; route: string; status: number }

/** Entries buffered off the request path, written in batches; onClose() (at close(), after the requests in flight) writes the rest. */
@injectable()
class AuditLog {
  private pending: AuditEntry[] = []
  private writing: Promise<void> = Promise.resolve()
  private timer: NodeJS.Timeout | undefined
  constructor(private readonly pool: Pool) {}
  record(entry: AuditEntry): void {
    this.pending.push(entry)
    this.timer ??= setTimeout(() => { this.timer = undefined; void this.flush() }, 200)
  }
  flush(): Promise<void> {
    const batch = this.pending
    this.pending = []
    this.writing = this.writing.then(async () => {
      if (batch.length === 0) return
      await this.pool.query('insert into audit_log (actor, tenant_id, route, status) select * from unnest($1::text[], $2::text[], $3::text[], $4::int[])',
        [batch.map((e) => e.actor), batch.map((e) => e.tenant), batch.map((e) => e.route), batch.map((e) => e.status)])
    })
    return this.writing
  }
  async onClose(): Promise<void> { clearTimeout(this.timer); await this.flush() }
}

@injectable()
class Audit {
  constructor(private readonly log: AuditLog) {}
  handle(request: Request, reply: Reply): void {
    if (request.method === 'GET') return
    const p = request.saasPrincipal
    this.log.record({ actor: p?.actor ?? p?.subject ?? 'anonymous', tenant: p?.tenant ?? null, route: `${request.method} ${request.routeOptions.url}`, status: reply.statusCode })
  }
}

class NewInvoice extends SchemaClass({ type: 'object', required: ['amount'], additionalProperties: false, properties: { amount: { type: 'string', pattern: '^\\d+\\.\\d{2}$' }, tenant: { type: 'string' } } }) {}
class InvoiceId extends SchemaClass({ type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 2147483647 } } }) {}

@Route('/invoices')
class InvoicesController {
  constructor(private readonly invoices: Invoices) {}
  @Requires('invoices:read') @Get('/') list() { return this.invoices.all() }
  @Requires('invoices:read') @Get('/:id') async get(@Params() { id }: InvoiceId) {
    const found = await this.invoices.byId(id)
    if (found === undefined) throw new HttpError(404, 'No such invoice', { code: 'INVOICE_NOT_FOUND' })   // another tenant's: 404, its existence not revealed
    return found
  }
  @Requires('invoices:write') @HttpCode(201) @Post('/') async create(@Body() body: NewInvoice) {
    if (body.amount === '7.77') { held.count++; await held.until }   // the test holds these in flight across close()
    return this.invoices.create(body.amount, body.tenant === undefined ? undefined : `'${body.tenant.replace(/'/g, '')}'`)   // the "bug": a caller-chosen tenant
  }
}

const principalOf = (request: object) => (request as Request).saasPrincipal
const PLAN_LIMITS: Record<string, number> = { free: 3, pro: 50 }

@DecorateRequest('saasPrincipal', null)
@OnRequest(AuthGuard)
@OnResponse(Audit)
@Module({
  providers: [AuthConfig, Clock, IdentityProvider, Directory, AuthGuard, DbConfig, RedisConfig, ...providers, TenantContext, Invoices, AuditLog, Audit],
  plugins: [usePlugin(rateLimit, {
    inject: [Redis],
    useFactory: (redis: Redis) => ({
      redis, nameSpace: 'mt-rl-', timeWindow: 60_000,
      // @fastify/rate-limit adds its onRequest hook to each route after the route's own: the guard ran, the principal is set.
      // Its callbacks are typed with Fastify's request (docs/plugins.md), which has no saasPrincipal: principalOf() reads it.
      keyGenerator: (request) => `${principalOf(request)?.tenant ?? request.ip}:${principalOf(request)?.plan ?? 'anon'}`,
      max: (request) => PLAN_LIMITS[principalOf(request)?.plan ?? 'free'] ?? 3,
    }),
  })],
  controllers: [InvoicesController],
})
class SaasModule {}

describe('multi-tenant data: request-scoped tenant, RLS on a real PostgreSQL, per-tenant limits in Redis, audit (docs/recipes-multi-tenant.md, "Multi-tenant services")', function () {
  this.timeout(10_000)
  let pg: Postgres | undefined
  let redis: { child: Child; port: number } | undefined
  let app: App
  let admin: Client
  const directory = new Directory()
  directory.tenants.set('acme', { plan: 'pro', status: 'active' })
  directory.tenants.set('globex', { plan: 'pro', status: 'active' })
  directory.tenants.set('initech', { plan: 'free', status: 'active' })
  for (const tenant of ['acme', 'globex', 'initech']) directory.keys.set(hashKey(`sk_${tenant}`), { name: tenant, tenant, permissions: ['invoices:read', 'invoices:write'], revoked: false })
  const as = (tenant: string) => ({ 'x-api-key': `sk_${tenant}` })

  before(async function () {
    this.timeout(30_000)   // initdb and the servers' start, on a loaded machine
    pg = await startPostgres()
    redis = await startRedis()
    admin = new Client({ connectionString: pg.url })   // the migration role (a superuser, which RLS does not bind)
    await admin.connect()
    await admin.query(`
      create role saas_app login;
      create table invoices (id serial primary key, tenant_id text not null, amount numeric(12,2) not null);
      alter table invoices enable row level security;
      alter table invoices force row level security;
      create policy tenant_isolation on invoices using (tenant_id = current_setting('app.tenant_id', true)) with check (tenant_id = current_setting('app.tenant_id', true));
      create table audit_log (id serial primary key, actor text not null, tenant_id text, route text not null, status int not null);
      grant select, insert on invoices, audit_log to saas_app;
      grant usage on all sequences in schema public to saas_app;
      insert into invoices (tenant_id, amount) values ('acme', 10.00), ('acme', 20.00), ('globex', 30.00);`)
    app = await createApp(SaasModule, {
      overrides: [
        override(DbConfig, { useValue: { url: pg.url.replace('app@', 'saas_app@') } }),   // the app's role: not the owner, not a superuser
        override(RedisConfig, { useValue: { port: redis.port } }),
        override(Directory, { useValue: directory }),
      ],
    })
  })
  after(async () => {
    await app?.close()
    await admin?.end()
    if (pg !== undefined) await untilOnlyConnection(pg.url)
    await stopPostgres(pg)
    await stopRedis(redis?.child)
  })

  it('a query with no tenant filter sees only the request\'s tenant (RLS through the request-scoped transaction)', async () => {
    const acme = await app.inject({ url: '/invoices', headers: as('acme') })
    expect(acme.statusCode, acme.body).to.equal(200)
    expect(acme.json<Invoice[]>().map((i) => i.tenant_id)).to.deep.equal(['acme', 'acme'])
    expect((await app.inject({ url: '/invoices', headers: as('globex') })).json<Invoice[]>().map((i) => i.amount)).to.deep.equal(['30.00'])
  })

  it('a cross-tenant read by id returns nothing: 404, as for an id that does not exist', async () => {
    const globexId = (await admin.query<{ id: number }>(`select id from invoices where tenant_id = 'globex'`)).rows[0]!.id
    const cross = await app.inject({ url: `/invoices/${globexId}`, headers: as('acme') })
    expect(cross.statusCode).to.equal(404)
    expect(cross.json()).to.deep.equal({ statusCode: 404, code: 'INVOICE_NOT_FOUND', error: 'Not Found', message: 'No such invoice' })
    expect((await app.inject({ url: '/invoices/999999', headers: as('acme') })).body).to.equal(cross.body)
    expect((await app.inject({ url: `/invoices/${globexId}`, headers: as('globex') })).statusCode).to.equal(200)
  })

  it('a write into another tenant is refused by the policy and rolled back (the generic 500; nothing lands)', async () => {
    const res = await app.inject({ method: 'POST', url: '/invoices', headers: as('acme'), payload: { amount: '1.00', tenant: 'globex' } })
    expect(res.statusCode).to.equal(500)
    expect(res.body).to.not.contain('row-level security')   // the driver's message stays in the log
    expect((await admin.query(`select count(*)::int as n from invoices where tenant_id = 'globex'`)).rows[0].n).to.equal(1)
    const own = await app.inject({ method: 'POST', url: '/invoices', headers: as('acme'), payload: { amount: '2.00' } })
    expect(own.statusCode, own.body).to.equal(201)
    expect(own.json<Invoice>().tenant_id).to.equal('acme')
  })

  it('rate limits per tenant and plan in Redis, with quota headers: one tenant\'s 429 leaves another\'s requests alone', async () => {
    const statuses: number[] = []
    let last = await app.inject({ url: '/invoices', headers: as('initech') })
    statuses.push(last.statusCode)
    for (let i = 0; i < 3; i++) { last = await app.inject({ url: '/invoices', headers: as('initech') }); statuses.push(last.statusCode) }
    expect(statuses).to.deep.equal([200, 200, 200, 429])   // free: 3 a minute
    expect(last.headers['x-ratelimit-limit']).to.equal('3')
    expect(last.headers['retry-after']).to.equal('60')
    expect(last.json()).to.deep.include({ statusCode: 429, error: 'Too Many Requests' })
    const other = await app.inject({ url: '/invoices', headers: as('globex') })
    expect(other.statusCode).to.equal(200)
    expect(other.headers['x-ratelimit-limit']).to.equal('50')   // pro
    const client = new Redis({ host: '127.0.0.1', port: redis!.port })
    try { expect(await client.keys('mt-rl-*')).to.include.members(['mt-rl-initech:free', 'mt-rl-globex:pro']) } finally { await client.quit() }
  })

  it('audits every mutating request at onResponse; close() writes the entries of requests still in flight', async () => {
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const inFlight = Array.from({ length: 3 }, () => fetch(`${address}/invoices`, {
      method: 'POST', headers: { ...as('globex'), 'content-type': 'application/json' }, body: JSON.stringify({ amount: '7.77' }),
    }).then((r) => r.status))
    for (let i = 0; i < 500 && held.count < 3; i++) await new Promise((resolve) => setTimeout(resolve, 10))
    expect(held.count).to.equal(3)                       // all three are in their handler
    const closing = app.close()
    await new Promise((resolve) => setTimeout(resolve, 20))
    held.release()
    await closing
    const answered = await Promise.all(inFlight)
    expect(answered).to.deep.equal([201, 201, 201])
    const { rows } = await admin.query<AuditEntry>(`select actor, tenant_id as tenant, route, status from audit_log where tenant_id = 'globex' order by id`)
    expect(rows.length, JSON.stringify({ rows, answered })).to.equal(answered.length)
    expect(rows.every((r) => r.actor === 'key:globex' && r.route === 'POST /invoices' && r.status === 201)).to.equal(true)
    const acme = await admin.query(`select status from audit_log where tenant_id = 'acme' order by id`)
    expect(acme.rows.map((r) => r.status)).to.deep.equal([500, 201])   // the refused cross-tenant write, then the own one
  })
})
