// docs/recipes-back-office.md, as an app: a session in Redis (@fastify/session with an ioredis store),
// CSRF on every form post, role guards on the module, an audit log of mutations, list filters from the
// query string, CSV import with a report of bad rows, CSV and streamed JSON exports, flash messages,
// and error pages in HTML for browsers, JSON for API callers.
import { join } from 'node:path'
import { Readable } from 'node:stream'
import cookie from '@fastify/cookie'
import csrf from '@fastify/csrf-protection'
import flash from '@fastify/flash'
import formbody from '@fastify/formbody'
import multipart from '@fastify/multipart'
import session from '@fastify/session'
import view from '@fastify/view'
import ejs from 'ejs'
import type { Session as StoredSession } from 'fastify'
import type { SessionStore } from '@fastify/session'
import Redis from 'ioredis'
import {
  Body, ErrorHandler, Get, HttpError, Module, NotFoundHandler, OnRequest, OnResponse, Params, Post, PreHandler, Query, Reply, Req, Route,
  inject, injectable, routeMetadata, usePlugin, type Reply as ReplyT, type Request,
} from '../../../src'
import { readCustomersCsv, toCsv, type Customer, type Status } from './csv'

export type Role = 'admin' | 'agent' | 'viewer'
interface SessionUser { name: string; role: Role }
interface Session { user?: SessionUser; regenerate(): Promise<void>; destroy(): Promise<void> }
interface Upload { file: Readable & { truncated: boolean } }
// The plugins' members, read through casts: a `declare module` here would be global to the test program
// (the recipe declares them with FastifyRequestDecorations, as an app does).
const sessionOf = (request: Request) => (request as unknown as { session: Session }).session
const flashOn = (request: Request, type: string, message: string) => (request as unknown as { flash(t: string, m: string): void }).flash(type, message)
type PluginReply = ReplyT & { generateCsrf(): string; view(page: string, data: object): ReplyT; flash(type: string): string[] | undefined }
const plugged = (reply: ReplyT) => reply as PluginReply

export const REDIS = Symbol('redis')
export const MAX_UPLOAD = 1024 * 1024
export const Roles = routeMetadata<readonly Role[]>('roles')
export const Public = routeMetadata<boolean>('public')
const USERS: Record<string, { password: string; role: Role }> = {
  ada: { password: 'ada-secret', role: 'admin' }, bob: { password: 'bob-secret', role: 'agent' }, vic: { password: 'vic-secret', role: 'viewer' },
}

export class RedisSessionStore implements SessionStore {
  constructor(private readonly redis: Redis, private readonly ttlSeconds = 8 * 3600, private readonly prefix = 'sess:') {}
  get(sessionId: string, callback: (error: unknown, session?: StoredSession | null) => void): void {
    this.redis.get(this.prefix + sessionId).then((raw) => callback(null, raw === null ? null : (JSON.parse(raw) as StoredSession)), (error: unknown) => callback(error))
  }
  set(sessionId: string, session: StoredSession, callback: (error?: unknown) => void): void {
    this.redis.set(this.prefix + sessionId, JSON.stringify(session), 'EX', this.ttlSeconds).then(() => callback(), callback)
  }
  destroy(sessionId: string, callback: (error?: unknown) => void): void {
    this.redis.del(this.prefix + sessionId).then(() => callback(), callback)
  }
}

export function wantsHtml(request: Request): boolean { return (request.headers.accept ?? '').includes('text/html') }

@injectable()
export class LoggedIn {
  handle(request: Request, reply: ReplyT): ReplyT | undefined {
    if (Public.of(request) === true || sessionOf(request).user !== undefined) return undefined
    if (wantsHtml(request)) return reply.redirect('/login')
    throw new HttpError(401, 'log in first')
  }
}

@injectable()
export class RoleGuard {
  handle(request: Request): boolean {
    const roles = Roles.of(request)
    const user = sessionOf(request).user
    return roles === undefined || (user !== undefined && roles.includes(user.role))
  }
}

@injectable()
export class CsrfCheck {
  handle(request: Request, reply: ReplyT, done: (error?: Error) => void): void {
    (request.server as unknown as { csrfProtection(q: Request, r: ReplyT, d: typeof done): void }).csrfProtection(request, reply, done)
  }
}

export interface AuditEntry { at: string; user: string; method: string; url: string; status: number }
@injectable()
export class AuditLog {
  constructor(@inject(REDIS) private readonly redis: Redis) {}
  async record(entry: AuditEntry): Promise<void> { await this.redis.lpush('audit', JSON.stringify(entry)) }
  async latest(count: number): Promise<AuditEntry[]> { return (await this.redis.lrange('audit', 0, count - 1)).map((line) => JSON.parse(line) as AuditEntry) }
}
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS'])
@injectable()
export class AuditHook {
  constructor(private readonly audit: AuditLog) {}
  async handle(request: Request, reply: ReplyT): Promise<void> {
    if (SAFE.has(request.method) || reply.statusCode >= 400) return
    await this.audit.record({ at: new Date().toISOString(), user: sessionOf(request).user?.name ?? 'anonymous', method: request.method, url: request.url, status: reply.statusCode })
  }
}

@injectable()
export class CustomerStore {
  readonly #rows = new Map<number, Customer>()
  #next = 1
  constructor() {
    const statuses: Status[] = ['active', 'churned', 'trial']
    for (let i = 1; i <= 45; i++) {
      this.add({ name: `Customer ${String(i).padStart(2, '0')}`, email: `c${i}@example.test`, status: statuses[i % 3], vip: i % 5 === 0 },
        new Date(Date.UTC(2026, 0, i)).toISOString())
    }
  }
  add(input: Omit<Customer, 'id' | 'createdAt'>, createdAt = new Date().toISOString()): Customer {
    const row = { id: this.#next++, ...input, createdAt }
    this.#rows.set(row.id, row)
    return row
  }
  remove(id: number): boolean { return this.#rows.delete(id) }
  all(): Customer[] { return [...this.#rows.values()] }
}

const listQuery = {
  type: 'object',
  properties: {
    status: { type: 'array', items: { type: 'string', enum: ['active', 'churned', 'trial'] } },
    vip: { type: 'boolean' },
    since: { type: 'string', format: 'date' },
    sort: { type: 'string', enum: ['name', 'createdAt', 'id'], default: 'id' },
    order: { type: 'string', enum: ['asc', 'desc'], default: 'asc' },
    page: { type: 'integer', minimum: 1, default: 1 },
    perPage: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  },
  additionalProperties: false,
} as const
interface ListQuery { status?: Status[]; vip?: boolean; since?: string; sort: 'name' | 'createdAt' | 'id'; order: 'asc' | 'desc'; page: number; perPage: number }

const newCustomer = {
  type: 'object',
  required: ['name', 'email', 'status'],
  properties: {
    name: { type: 'string', minLength: 2, maxLength: 100 }, email: { type: 'string', format: 'email' },
    status: { type: 'string', enum: ['active', 'churned', 'trial'] }, vip: { type: 'boolean', default: false }, _csrf: { type: 'string' },
  },
} as const

@Public(true)
@Route('/')
export class AuthController {
  @Get('/login')
  loginPage(@Reply() reply: ReplyT) {
    return plugged(reply).view('login.ejs', { csrf: plugged(reply).generateCsrf(), messages: plugged(reply).flash('error') ?? [] })
  }

  @PreHandler(CsrfCheck)
  @Post('/login', { schema: { body: { type: 'object', required: ['username', 'password'], properties: { username: { type: 'string' }, password: { type: 'string' }, _csrf: { type: 'string' } } } } })
  async login(@Body() body: { username: string; password: string }, @Req() request: Request, @Reply() reply: ReplyT) {
    const known = USERS[body.username]
    if (known === undefined || known.password !== body.password) {
      flashOn(request, 'error', 'Unknown user or wrong password')
      return reply.redirect('/login')
    }
    await sessionOf(request).regenerate()                 // a new id at login: no session fixation
    sessionOf(request).user = { name: body.username, role: known.role }
    flashOn(request, 'info', `Welcome ${body.username}`)
    return reply.redirect('/customers')
  }

  @Public(false)
  @PreHandler(CsrfCheck)
  @Post('/logout')
  async logout(@Req() request: Request, @Reply() reply: ReplyT) {
    await sessionOf(request).destroy()
    return reply.redirect('/login')
  }
}

@Route('/customers')
export class CustomersController {
  constructor(private readonly store: CustomerStore) {}

  @Get('/', { schema: { querystring: listQuery } })
  list(@Query() query: ListQuery, @Req() request: Request, @Reply() reply: ReplyT) {
    const rows = this.filter(query)
    const start = (query.page - 1) * query.perPage
    const page = { items: rows.slice(start, start + query.perPage), total: rows.length, page: query.page, perPage: query.perPage }
    if (!wantsHtml(request)) return page
    return plugged(reply).view('customers.ejs', {
      ...page, user: sessionOf(request).user, csrf: plugged(reply).generateCsrf(), info: plugged(reply).flash('info') ?? [], errors: plugged(reply).flash('error') ?? [],
    })
  }

  @Get('/export.csv', { schema: { querystring: listQuery } })
  exportCsv(@Query() query: ListQuery, @Reply() reply: ReplyT) {
    reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="customers.csv"')
    return Readable.from(toCsv(this.filter(query)))
  }

  @Get('/export.json', { schema: { querystring: listQuery } })
  exportJson(@Query() query: ListQuery, @Reply() reply: ReplyT) {
    const rows = this.filter(query)
    async function* chunks() {
      yield '['
      for (let i = 0; i < rows.length; i++) yield (i === 0 ? '' : ',') + JSON.stringify(rows[i])
      yield ']'
    }
    reply.header('content-type', 'application/json; charset=utf-8').header('content-disposition', 'attachment; filename="customers.json"')
    return Readable.from(chunks())
  }

  @Roles(['admin', 'agent'])
  @PreHandler(CsrfCheck)
  @Post('/', { schema: { body: newCustomer } })
  create(@Body() body: { name: string; email: string; status: Status; vip: boolean }, @Req() request: Request, @Reply() reply: ReplyT) {
    const row = this.store.add({ name: body.name, email: body.email, status: body.status, vip: body.vip })
    if (!wantsHtml(request)) return reply.code(201).send(row)
    flashOn(request, 'info', `Created ${row.name}`)
    return reply.redirect('/customers')
  }

  @Roles(['admin'])
  @PreHandler(CsrfCheck)
  @Post('/:id/delete', { schema: { params: { type: 'object', properties: { id: { type: 'integer' } } } } })
  remove(@Params('id') id: number, @Req() request: Request, @Reply() reply: ReplyT) {
    if (!this.store.remove(id)) throw new HttpError(404, `No customer ${id}`)
    flashOn(request, 'info', `Deleted customer ${id}`)
    return reply.redirect('/customers')
  }

  @Roles(['admin'])
  @PreHandler(CsrfCheck)
  @Post('/import')
  async import(@Req() request: Request, @Reply() reply: ReplyT) {
    const file = await (request as unknown as { file(): Promise<Upload | undefined> }).file()
    if (file === undefined) throw new HttpError(400, 'attach a CSV file as "file"')
    const { rows, rejected } = await readCustomersCsv(file.file)
    // Past limits.fileSize multipart cuts the file short and the stream ends without an error:
    // check `truncated`, and import nothing from a file that was not read whole.
    if (file.file.truncated) throw new HttpError(413, `the file is over ${MAX_UPLOAD} bytes: nothing was imported`)
    for (const row of rows) this.store.add(row)
    const report = { imported: rows.length, rejected }
    return wantsHtml(request) ? plugged(reply).view('import-report.ejs', report) : report
  }

  @Get('/boom')
  boom(): never { throw new Error('database exploded: password=hunter2') }

  private filter(query: ListQuery): Customer[] {
    let rows = this.store.all()
    if (query.status !== undefined) rows = rows.filter((row) => query.status!.includes(row.status))
    if (query.vip !== undefined) rows = rows.filter((row) => row.vip === query.vip)
    if (query.since !== undefined) rows = rows.filter((row) => row.createdAt >= query.since!)
    const sign = query.order === 'asc' ? 1 : -1
    return rows.sort((a, b) => (a[query.sort] < b[query.sort] ? -sign : a[query.sort] > b[query.sort] ? sign : 0))
  }
}

@Route('/audit')
export class AuditController {
  constructor(private readonly audit: AuditLog) {}
  @Roles(['admin']) @Get('/') latest() { return this.audit.latest(50) }
}

// Filter forms send one ticked checkbox as ?status=active: coerced to ['active'] (Fastify 3's default answers 400).
export const appOptions = { validator: { customOptions: { coerceTypes: 'array' as const } } }

export function backOfficeModule(redisUrl: string, viewsRoot: string) {
  @OnRequest(LoggedIn, RoleGuard)
  @OnResponse(AuditHook)
  @Module({
    providers: [
      { provide: REDIS, useFactory: () => new Redis(redisUrl, { maxRetriesPerRequest: 1 }), dispose: (redis: Redis) => redis.quit() },
      AuditLog, AuditHook, CustomerStore, LoggedIn, RoleGuard, CsrfCheck,
    ],
    plugins: [
      [cookie, {}],
      usePlugin(session, {
        inject: [REDIS],
        useFactory: (redis: Redis) => ({
          secret: 'a-session-secret-of-at-least-32-chars!', cookie: { secure: 'auto', httpOnly: true, sameSite: 'lax' },
          store: new RedisSessionStore(redis), saveUninitialized: false,
        }),
      }),
      [csrf, { sessionPlugin: '@fastify/session' }],
      [flash, {}],
      [formbody, {}],
      [multipart, { limits: { fileSize: MAX_UPLOAD, files: 1 } }],
      [view, { engine: { ejs }, root: join(viewsRoot) }],
    ],
    controllers: [AuthController, CustomersController, AuditController],
  })
  class BackOfficeModule {
    @NotFoundHandler()
    notFound(request: Request, reply: ReplyT) {
      reply.code(404)
      if (wantsHtml(request)) return plugged(reply).view('error.ejs', { status: 404, message: `No page at ${request.url}` })
      return reply.send({ statusCode: 404, error: 'Not Found', message: `Route ${request.method}:${request.url} not found` })
    }

    @ErrorHandler()
    onError(error: Error & { statusCode?: number }, request: Request, reply: ReplyT) {
      if (!wantsHtml(request)) throw error                      // API callers: the JSON error reply
      const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500
      if (status >= 500) request.log.error(error)
      reply.code(status)
      return plugged(reply).view('error.ejs', { status, message: status >= 500 ? 'Something went wrong on our side' : error.message })
    }
  }
  return BackOfficeModule
}
