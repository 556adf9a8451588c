import 'reflect-metadata'
import { STATUS_CODES } from 'node:http'
import {
  Body, DecorateRequest, Delete, ErrorHandler, Get, Headers, Hook, HttpCode, HttpError, Module, NotFoundHandler, OnRequest, Params, Post, Put,
  Query, REQUEST, Reply, Req, RequestScoped, Route, SchemaClass, UseInterceptors, createParamDecorator, delay, inject, injectable, lift, routeMetadata,
  type CallHandler, type CustomParam, type Interceptor, type InterceptorContext, type Reply as ReplyT, type Request, type SchemaParam,
} from '../../../src'

// A NestJS 12 cats service (express adapter) ported onto Enclave with docs/migrating-from-nestjs.md:
// each block names the NestJS idiom it replaces. test/examples/nest-cats.test.ts drives it over HTTP
// and checks the answers the NestJS app gave, except the differences the guide lists.

// ---- ConfigModule.forRoot(values) and a clock: a function that declares a module, lifted into the root (@Global) ----
export const APP_CONFIG = Symbol('APP_CONFIG')
export const CLOCK = 'CLOCK'
export interface AppConfig { readonly greeting: string; readonly cacheTtlMs: number; readonly maxCats: number }
export interface Clock { now(): number }
export function configModule(values: Partial<AppConfig> = {}): Function {
  const config: AppConfig = { greeting: 'hello', cacheTtlMs: 1000, maxCats: 100, ...values }
  @Module({ providers: [{ provide: APP_CONFIG, useValue: config }, { provide: CLOCK, useValue: { now: () => Date.now() } }] })
  class ConfigModule {}
  return ConfigModule
}

// ---- DatabaseModule.forRootAsync({ useFactory, inject }) and lifecycle methods ----
export const DB_OPTIONS = 'DB_OPTIONS'
export interface DbOptions { readonly seed: boolean }
export interface Cat { id: number; name: string; age: number; tags: string[]; ownerId: number }
/** What the lifecycle methods saw, in order: the tests read it through resolveProvider(). */
export class LifecycleLog { readonly events: string[] = [] }

@injectable()
export class Database {
  readonly cats = new Map<number, Cat>()
  #nextId = 1
  constructor(@inject(DB_OPTIONS) private readonly options: DbOptions, readonly log: LifecycleLog) {}
  onModuleInit(): void {
    this.log.events.push('onModuleInit')
    if (this.options.seed) {
      this.insert({ name: 'Tom', age: 3, tags: ['grey'], ownerId: 1 })
      this.insert({ name: 'Felix', age: 5, tags: [], ownerId: 2 })
    }
  }
  onApplicationBootstrap(): void { this.log.events.push('onApplicationBootstrap') }
  onModuleDestroy(): void { this.log.events.push('onModuleDestroy') }
  beforeApplicationShutdown(signal?: string): void { this.log.events.push(`beforeApplicationShutdown:${signal}`) }
  insert(cat: Omit<Cat, 'id'>): Cat {
    const stored = { id: this.#nextId++, ...cat }
    this.cats.set(stored.id, stored)
    return stored
  }
}
export function databaseModule(options: { useFactory: (...deps: any[]) => DbOptions | Promise<DbOptions>; inject?: readonly unknown[] }): Function {
  @Module({ providers: [LifecycleLog, { provide: DB_OPTIONS, useFactory: options.useFactory, inject: (options.inject ?? []) as never }, Database] })
  class DatabaseModule {}
  return DatabaseModule
}

// ---- an abstract class as a token (useClass), an alias (useExisting) ----
export abstract class Notifier { abstract notify(message: string): void }
@injectable() export class MemoryNotifier extends Notifier {
  readonly sent: string[] = []
  notify(message: string): void { this.sent.push(message) }
}
export const NOTIFIER_ALIAS = 'NOTIFIER_ALIAS'

// ---- auth: APP_GUARD + @Public() + @Roles() + Reflector, @CurrentUser() ----
export interface User { id: number; name: string; roles: string[] }
// Prefixed names, not NestJS's `user`: every test file is one program, and others declare `user`, `account`, ...
declare module '../../../src/runtime' {
  interface RequestDecorations { catsCaller: User | null; catsRequestId: string }
}
export const Roles = routeMetadata<readonly string[]>('roles')
export const Public = routeMetadata<boolean>('isPublic')
const users: Readonly<Record<string, User>> = {
  'tok-admin': { id: 1, name: 'ada', roles: ['admin'] },
  'tok-user': { id: 2, name: 'bob', roles: ['user'] },
}

@injectable()
export class AuthGuard {
  handle(request: Request): boolean {
    if (Public.of(request) === true) return true
    const user = users[String(request.headers.authorization ?? '').replace(/^Bearer /, '')]
    if (user === undefined) throw new HttpError(401, 'Missing or bad token')
    request.catsCaller = user
    const roles = Roles.of(request)
    return roles === undefined || roles.some((role) => user.roles.includes(role))
  }
}

export const CurrentUser = createParamDecorator(<K extends keyof User = never>(key: K | undefined, request: Request) => {
  if (request.catsCaller === null) throw new HttpError(401, 'Missing or bad token')
  return (key === undefined ? request.catsCaller : request.catsCaller[key]) as [K] extends [never] ? User : User[K]
})

// ---- interceptors: logging (APP_INTERCEPTOR), envelope (map), timeout (rxjs timeout), cache ----
@injectable()
export class LoggingInterceptor implements Interceptor {
  readonly lines: string[] = []
  async intercept(context: InterceptorContext, next: CallHandler): Promise<unknown> {
    const value = await next()
    this.lines.push(`${context.request.method} ${context.request.url}`)
    return value
  }
}
@injectable()
export class Envelope implements Interceptor {
  async intercept(_context: InterceptorContext, next: CallHandler): Promise<unknown> { return { data: await next() } }
}
/** The timeout interceptor's limit in ms, a provider so a test (or a deployment) can override it. */
export const TIMEOUT_MS = 'TIMEOUT_MS'
@injectable()
export class Timeout implements Interceptor {
  constructor(@inject(TIMEOUT_MS) private readonly ms: number) {}
  async intercept(_context: InterceptorContext, next: CallHandler): Promise<unknown> {
    let timer: NodeJS.Timeout | undefined
    const expired = new Promise<never>((_resolve, reject) => { timer = setTimeout(() => reject(new HttpError(408, 'Request Timeout')), this.ms) })
    try { return await Promise.race([next(), expired]) } finally { clearTimeout(timer) }
  }
}
@injectable()
export class ListCache implements Interceptor {
  readonly #entries = new Map<string, { at: number; value: unknown }>()
  constructor(@inject(APP_CONFIG) private readonly config: AppConfig, @inject(CLOCK) private readonly clock: Clock) {}
  async intercept(context: InterceptorContext, next: CallHandler): Promise<unknown> {
    const hit = this.#entries.get(context.request.url)
    if (hit !== undefined && this.clock.now() - hit.at < this.config.cacheTtlMs) return hit.value
    const value = await next()
    this.#entries.set(context.request.url, { at: this.clock.now(), value })
    return value
  }
}

// ---- errors: a NotFoundException subclass with a body of its own, a domain error a filter maps to 409 ----
export class CatNotFound extends HttpError {
  constructor(id: number) { super(404, `No cat ${id}`, { details: { catId: id } }) }
}
export class DuplicateCat extends Error {}

// ---- a request-scoped provider reading the request (Scope.REQUEST + @Inject(REQUEST)) ----
@RequestScoped()
@injectable()
export class RequestContext {
  constructor(@inject(REQUEST) private readonly request: Request) {}
  get requestId(): string { return this.request.catsRequestId }
  get userAgent(): string | null { return this.request.headers['user-agent'] ?? null }
}

// ---- DTOs (class-validator + ValidationPipe({ whitelist, transform })) ----
export class CreateCat extends SchemaClass({
  type: 'object', required: ['name', 'age'], additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 30 },
    age: { type: 'integer', minimum: 0, maximum: 30 },
    tags: { type: 'array', maxItems: 5, items: { type: 'string' } },
  },
}) {}
export class UpdateCat extends SchemaClass({
  type: 'object', additionalProperties: false,
  properties: { name: { type: 'string', minLength: 1, maxLength: 30 }, age: { type: 'integer', minimum: 0 } },
}) {}
export class ListCats extends SchemaClass({
  type: 'object', required: ['limit', 'offset'], additionalProperties: false,
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
    offset: { type: 'integer', minimum: 0, default: 0 },
    sort: { type: 'string', enum: ['name', 'age'] },
  },
}) {}

// ---- services that inject each other (forwardRef) ----
@injectable()
export class OwnersService {
  // The delayed side is typed by what it uses: a class declared below in the same file would be read
  // by the emitted design:paramtypes before it exists (NestJS's forwardRef has the same limit).
  constructor(@inject(delay(() => CatsService)) private readonly cats: Pick<CatsService, 'all'>) {}
  name(id: number): string { return id === 1 ? 'ada' : 'bob' }
  catsOf(ownerId: number): string[] { return this.cats.all().filter((cat) => cat.ownerId === ownerId).map((cat) => cat.name) }
}
@injectable()
export class CatsService {
  constructor(private readonly db: Database, @inject(delay(() => OwnersService)) readonly owners: OwnersService,
    @inject(NOTIFIER_ALIAS) private readonly notifier: Notifier, @inject(APP_CONFIG) private readonly config: AppConfig) {}
  all(): Cat[] { return [...this.db.cats.values()] }
  get(id: number): Cat {
    const cat = this.db.cats.get(id)
    if (cat === undefined) throw new CatNotFound(id)
    return cat
  }
  create(dto: CreateCat, ownerId: number): Cat {
    if (this.all().some((cat) => cat.name === dto.name)) throw new DuplicateCat(`Cat ${dto.name} exists`)
    if (this.db.cats.size >= this.config.maxCats) throw new HttpError(507, 'Too many cats')
    const cat = this.db.insert({ name: dto.name, age: dto.age, tags: dto.tags ?? [], ownerId })
    this.notifier.notify(`created ${cat.name}`)
    return cat
  }
  update(id: number, dto: UpdateCat): Cat { return Object.assign(this.get(id), dto) }
  remove(id: number): void { this.get(id); this.db.cats.delete(id) }
}

// ---- controllers: @Controller({ path, version: '1' }) is a controller in a module with prefix 'v1' ----
const catId = { type: 'integer', minimum: 1 } as const

@UseInterceptors(Envelope)
@Route('cats')
export class CatsController {
  constructor(private readonly cats: CatsService) {}

  @UseInterceptors(ListCache)
  @Get()
  list(@Query() query: ListCats) {
    const all = this.cats.all()
    const sort = query.sort
    if (sort !== undefined) all.sort((a, b) => (a[sort] < b[sort] ? -1 : 1))
    return { items: all.slice(query.offset, query.offset + query.limit), limit: query.limit, offset: query.offset, total: all.length }
  }

  @Public(true) @Get('legacy')                                      // NestJS: @Redirect('/api/v1/cats', 301)
  legacy(@Reply() reply: ReplyT) { return reply.redirect('/api/v1/cats', 301) }

  @Public(true) @Get('docs')                                        // NestJS: @Redirect(url, 302) + return { url } to change it
  docs(@Query('version', { type: 'integer', minimum: 1 }, { optional: true }) version: SchemaParam<number | undefined>, @Reply() reply: ReplyT) {
    return reply.redirect(version === undefined ? 'https://docs.example/cats' : `https://docs.example/v${version}/cats`, 302)
  }

  @Get(':id')
  get(@Params('id', catId) id: SchemaParam<number>) { return this.cats.get(id) }

  @Get(':id/owner')
  owner(@Params('id', catId) id: SchemaParam<number>) {
    const cat = this.cats.get(id)
    return { owner: this.cats.owners.name(cat.ownerId), cats: this.cats.owners.catsOf(cat.ownerId) }
  }

  @Get(':id/etag')                                                  // NestJS: @Res({ passthrough: true }) res + res.setHeader()
  etag(@Params('id', catId) id: SchemaParam<number>, @Reply() reply: ReplyT) {
    const cat = this.cats.get(id)
    reply.header('etag', `"cat-${cat.id}-${cat.age}"`)
    return { id: cat.id }
  }

  @Roles(['admin']) @HttpCode(201) @Post()                          // NestJS: @Post() answers 201 by itself
  create(@Body() dto: CreateCat, @CurrentUser('id') userId: CustomParam<number>) { return this.cats.create(dto, userId) }

  @Roles(['admin']) @Put(':id')
  update(@Params('id', catId) id: SchemaParam<number>, @Body() dto: UpdateCat) { return this.cats.update(id, dto) }

  @Roles(['admin']) @HttpCode(204) @Delete(':id')
  remove(@Params('id', catId) id: SchemaParam<number>) { this.cats.remove(id) }
}

/** Holds GET /me/held until open() is called (the tests open it; nothing else does). */
export class Gate {
  #open!: () => void
  readonly opened = new Promise<void>((resolve) => { this.#open = resolve })
  open(): void { this.#open() }
}

@Route('me')
export class MeController {
  constructor(private readonly context: RequestContext, private readonly gate: Gate) {}

  @Get()
  me(@CurrentUser() user: CustomParam<User>) { return user }

  @Get('request')
  request(@Headers('accept-language') language: string | undefined, @Req() request: Request) {
    return { requestId: this.context.requestId, userAgent: this.context.userAgent, lang: language ?? null, method: request.method }
  }

  @UseInterceptors(Timeout) @Get('slow')
  async slow(@Query('ms', { type: 'integer', minimum: 0, maximum: 1000 }) ms: SchemaParam<number>) {
    await new Promise((resolve) => setTimeout(resolve, ms))
    return { waited: ms }
  }

  // A handler that waits until the Gate is opened: a test can outlive the timeout without racing the clock.
  @UseInterceptors(Timeout) @Get('held')
  async held() {
    await this.gate.opened
    return { released: true }
  }
}

@Route('health')
export class HealthController {
  constructor(@inject(APP_CONFIG) private readonly config: AppConfig, @inject(CLOCK) private readonly clock: Clock) {}

  @Public(true) @Get()                                              // NestJS: @Header('Cache-Control', 'no-store')
  health(@Reply() reply: ReplyT) {
    reply.header('cache-control', 'no-store')
    return { status: 'ok', greeting: this.config.greeting, at: this.clock.now() }
  }

  @Public(true) @HttpCode(201) @Post('ping')
  ping(@Body() body: unknown) { return { pong: body ?? null } }
}

@Module({
  prefix: 'v1',
  providers: [
    CatsService, OwnersService, { provide: Notifier, useClass: MemoryNotifier }, { provide: NOTIFIER_ALIAS, useExisting: Notifier }, Envelope, ListCache,
  ],
  controllers: [CatsController],
})
export class CatsModule {
  @ErrorHandler()                                                   // NestJS: @UseFilters(DuplicateCatFilter) on the controller
  duplicate(error: Error, _request: Request, reply: ReplyT) {
    if (!(error instanceof DuplicateCat)) throw error
    reply.code(409).send({ statusCode: 409, error: 'Conflict', message: error.message })
  }
}

@Module({ prefix: 'v1', providers: [RequestContext, Timeout, Gate, { provide: TIMEOUT_MS, useValue: 100 }], controllers: [MeController] })
export class MeModule {}

/** The body NestJS's global filter sent: the usual error body plus the request's path. */
function errorBody(error: Error & { statusCode?: number; code?: unknown; details?: unknown }, request: Request) {
  const statusCode = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500
  const exposed = statusCode < 500 || error instanceof HttpError
  return {
    statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message: exposed ? error.message : STATUS_CODES[statusCode],
    ...(error instanceof HttpError && error.details !== undefined ? { details: error.details } : {}), path: request.url,
  }
}

@DecorateRequest('catsCaller', null)
@DecorateRequest('catsRequestId', '')
@OnRequest(AuthGuard)                                               // NestJS: { provide: APP_GUARD, useClass: AuthGuard }
@UseInterceptors(LoggingInterceptor)                                // NestJS: { provide: APP_INTERCEPTOR, useClass: LoggingInterceptor }
@Module({
  prefix: 'api',                                                    // NestJS: app.setGlobalPrefix('api')
  plugins: [
    lift(configModule()),
    lift(databaseModule({ useFactory: (config: AppConfig) => ({ seed: config.greeting !== '' }), inject: [APP_CONFIG] })),
    CatsModule, MeModule,
  ],
  controllers: [HealthController],
  providers: [AuthGuard, LoggingInterceptor],
})
export class AppModule {
  @Hook('onRequest')                                                // NestJS: configure(consumer) { consumer.apply(RequestId).forRoutes('*') }
  async requestId(request: Request, reply: ReplyT) {
    const given = request.headers['x-request-id']
    request.catsRequestId = typeof given === 'string' && given !== '' ? given : 'generated-id'
    reply.header('x-request-id', request.catsRequestId)
  }

  @ErrorHandler()                                                   // NestJS: { provide: APP_FILTER, useClass: HttpExceptionFilter }
  onError(error: Error, request: Request, reply: ReplyT) {
    const body = errorBody(error, request)
    reply.code(body.statusCode).send(body)
  }

  @NotFoundHandler()                                                // NestJS's filter saw unknown URLs too
  notFound(request: Request, reply: ReplyT) {
    reply.code(404).send({ statusCode: 404, error: 'Not Found', message: `Cannot ${request.method} ${request.url}`, path: request.url })
  }
}
