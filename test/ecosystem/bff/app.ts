// docs/recipes-bff.md, as an app: a backend-for-frontend in front of three upstreams. An aggregate
// endpoint fans out in parallel, each call with its own timeout and the request's AbortSignal, behind
// a circuit breaker and a short TTL cache (in memory, then Redis), and answers a partial response
// (typed, optional parts) when a part fails. Streamed upstream answers (NDJSON, SSE) are passed
// through with backpressure, a raw proxy route goes through @fastify/http-proxy, the request id
// goes to every upstream, CORS lets the browser app in with its cookie session, replies are compressed.
import cookie from '@fastify/cookie'
import compress from '@fastify/compress'
import cors from '@fastify/cors'
import httpProxy from '@fastify/http-proxy'
import Redis from 'ioredis'
import {
  Body, Get, HttpError, Module, OnRequest, Post, Query, Reply, Req, Route, SchemaClass, inject, injectable,
  type Reply as ReplyT, type Request,
} from '../../../src'

export interface BffConfig { profile: string; recommendations: string; stream: string; redis: Redis; origin: string; cookieSecret: string }
export const CONFIG = Symbol('BffConfig')
// The plugins' members, read through casts: a `declare module` here would be global to the test program
// (the recipe declares them with Pick<FastifyRequest, ...>, as an app does).
type Cookies = { cookies: Record<string, string | undefined>; unsignCookie(value: string): { valid: boolean; value: string | null } }
type SetCookie = { setCookie(name: string, value: string, options: object): ReplyT }

/** Opens after `threshold` failures in a row; while open, calls fail at once; after `coolMs` calls go through again (no half-open single probe: a burst then reaches a still-failing upstream until `threshold` more failures reopen it). */
export class CircuitBreaker {
  #failures = 0
  #openUntil = 0
  constructor(private readonly threshold = 3, private readonly coolMs = 5_000) {}
  get open(): boolean { return Date.now() < this.#openUntil }
  succeeded(): void { this.#failures = 0 }
  failed(): void { if (++this.#failures >= this.threshold) { this.#openUntil = Date.now() + this.coolMs; this.#failures = 0 } }
}

@injectable()
export class Upstream {
  readonly #breakers = new Map<string, CircuitBreaker>()
  readonly #memory = new Map<string, { until: number; value: unknown }>()
  constructor(@inject(CONFIG) readonly config: BffConfig) {}

  /** GET a JSON upstream: its own timeout, cancelled with the request, 502/503/504 as coded errors. */
  async json<T>(name: string, url: string, request: Request, timeoutMs: number): Promise<T> {
    const breaker = this.#breakers.get(name) ?? new CircuitBreaker()
    this.#breakers.set(name, breaker)
    if (breaker.open) throw new HttpError(503, `${name} is unavailable`, { code: 'UPSTREAM_CIRCUIT_OPEN' })
    try {
      const response = await fetch(url, {
        headers: { 'x-request-id': request.id },
        signal: AbortSignal.any([request.signal, AbortSignal.timeout(timeoutMs)]),
      })
      if (response.status >= 500) {
        await response.body?.cancel()
        throw new HttpError(502, `${name} answered ${response.status}`, { code: 'UPSTREAM_BAD_GATEWAY' })
      }
      const value = (await response.json()) as T
      breaker.succeeded()
      return value
    } catch (error) {
      if (request.signal.aborted) throw error          // the client left: not the upstream's fault
      breaker.failed()
      if ((error as Error).name === 'TimeoutError') throw new HttpError(504, `${name} did not answer in ${timeoutMs} ms`, { code: 'UPSTREAM_TIMEOUT' })
      throw error
    }
  }

  /** A short TTL cache: this instance's memory first, then Redis (shared by the instances), then `load`. */
  async cached<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
    const local = this.#memory.get(key)
    if (local !== undefined && local.until > Date.now()) return local.value as T
    const shared = await this.config.redis.get(key).catch(() => null)   // Redis down: load instead
    const value = shared !== null ? (JSON.parse(shared) as T) : await load()
    this.#memory.set(key, { until: Date.now() + ttlMs, value })
    if (shared === null) await this.config.redis.set(key, JSON.stringify(value), 'PX', ttlMs).catch(() => undefined)
    return value
  }

  /** Opens a streamed upstream answer; its body is a web ReadableStream, cancelled when the client leaves. */
  async stream(path: string, request: Request): Promise<Response> {
    const response = await fetch(`${this.config.stream}${path}`, { headers: { 'x-request-id': request.id }, signal: request.signal })
    if (!response.ok || response.body === null) {
      await response.body?.cancel()
      throw new HttpError(502, `the stream upstream answered ${response.status}`, { code: 'UPSTREAM_BAD_GATEWAY' })
    }
    return response
  }
}

export class Dashboard extends SchemaClass({
  type: 'object', required: ['user', 'partial', 'errors'],
  properties: {
    user: { type: 'string' },
    partial: { type: 'boolean' },
    profile: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, plan: { type: 'string' } } },
    recommendations: { type: 'array', items: { type: 'object', required: ['id', 'title'], properties: { id: { type: 'integer' }, title: { type: 'string' } } } },
    errors: { type: 'array', items: { type: 'object', required: ['part', 'code'], properties: { part: { type: 'string' }, code: { type: 'string' } } } },
  },
} as const) {}

export class StreamQuery extends SchemaClass({
  type: 'object',
  properties: { n: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 5 }, size: { type: 'integer', minimum: 1, maximum: 4096, default: 8 }, delay: { type: 'integer', minimum: 0, default: 50 } },
} as const) {}

export class Login extends SchemaClass({ type: 'object', required: ['user'], properties: { user: { type: 'string', minLength: 1, maxLength: 64 } } } as const) {}

/** The cookie session: a signed `sid` cookie holding the user name. */
function sessionUser(request: Request): string | undefined {
  const { cookies, unsignCookie } = request as unknown as Cookies
  const raw = cookies.sid
  if (raw === undefined) return undefined
  const { valid, value } = unsignCookie.call(request, raw)
  return valid && value !== null ? value : undefined
}

@Route('/session')
export class SessionController {
  @Post('/')
  login(@Body() body: Login, @Reply() reply: ReplyT): { user: string } {
    (reply as unknown as SetCookie).setCookie('sid', body.user, { signed: true, httpOnly: true, sameSite: 'lax', path: '/' })
    return { user: body.user }
  }
}

@OnRequest(async (request) => { if (sessionUser(request) === undefined) throw new HttpError(401, 'log in first', { code: 'BFF_NO_SESSION' }) })
@Route('/api')
export class BffController {
  constructor(private readonly upstream: Upstream) {}

  @Get('/dashboard', { schema: { response: { 200: Dashboard } } })
  async dashboard(@Req() request: Request, @Query() query: StreamQuery): Promise<Dashboard> {
    const user = sessionUser(request) as string
    const { profile, recommendations } = this.upstream.config
    const [me, recs] = await Promise.allSettled([
      this.upstream.cached(`bff:profile:${user}`, 5_000, () =>
        this.upstream.json<{ name: string; plan: string }>('profile', `${profile}/profile?delay=${query.delay}`, request, 1_000)),
      this.upstream.json<Array<{ id: number; title: string }>>('recommendations', `${recommendations}/recommendations`, request, 500),
    ])
    const errors: Array<{ part: string; code: string }> = []
    const part = <T>(name: string, settled: PromiseSettledResult<T>): T | undefined => {
      if (settled.status === 'fulfilled') return settled.value
      errors.push({ part: name, code: (settled.reason as { code?: string }).code ?? 'UPSTREAM_FAILED' })
      return undefined
    }
    const result = { user, profile: part('profile', me), recommendations: part('recommendations', recs), errors }
    return { ...result, partial: errors.length > 0 }
  }

  @Get('/items')                                     // NDJSON, passed through as it comes
  async items(@Req() request: Request, @Query() query: StreamQuery, @Reply() reply: ReplyT) {
    const upstream = await this.upstream.stream(`/items?n=${query.n}&size=${query.size}`, request)
    return reply.type('application/x-ndjson').send(upstream.body)
  }

  @Get('/chat')                                      // an LLM-style token stream (SSE), passed through
  async chat(@Req() request: Request, @Query() query: StreamQuery, @Reply() reply: ReplyT) {
    const upstream = await this.upstream.stream(`/tokens?n=${query.n}&size=${query.size}`, request)
    return reply.type('text/event-stream').header('cache-control', 'no-cache').send(upstream.body)
  }
}

export function bffModule(config: BffConfig) {
  @Module({
    plugins: [
      [cors, { origin: [config.origin], credentials: true }],   // a list: a lone string is sent to every origin
      [cookie, { secret: config.cookieSecret }],
      [compress, { threshold: 1024, customTypes: /^application\/(?:json|x-ndjson)$/ }],
      [httpProxy, {
        upstream: config.stream, prefix: '/raw', rewritePrefix: '',
        preHandler: async (request, reply) => {
          if (sessionUser(request as unknown as Request) === undefined) await reply.code(401).send({ statusCode: 401, error: 'Unauthorized', message: 'log in first' })
        },
        replyOptions: { rewriteRequestHeaders: (request, headers) => ({ ...headers, 'x-request-id': request.id }) },
      }],
    ],
    providers: [{ provide: CONFIG, useValue: config }, Upstream],
    controllers: [SessionController, BffController],
  })
  class BffModule {}
  return BffModule
}
