// A public developer API's keys and plans (docs/recipes-public-api.md, "Keys and plans"): API keys in
// `Authorization: Bearer`, stored as SHA-256 hashes; @fastify/rate-limit on a real redis-server (started
// here on a free loopback port, stopped by pid) counts per account with the limit of the account's
// plan, answers the IETF draft's RateLimit-* headers and Retry-After, its 429 goes through the
// problem+json error handler with a stable code; a refused key (401) and a key without the scope
// (403) have their own codes and spend nothing; a rotated key shares its account's count, a revoked
// one is refused.
import 'reflect-metadata'
import { expect } from 'chai'
import { createHash } from 'node:crypto'
import Redis from 'ioredis'
import rateLimit from '@fastify/rate-limit'
import { ErrorHandler, Get, HttpError, Module, OnRequest, PreHandler, Route, type HandledError, type Reply, type Request } from '../../src'
import { createApp } from '../../src/modules'
import { startRedis, stop, type Child } from './redis/processes'

interface ApiKey { account: string; plan: 'free' | 'pro'; scopes: readonly string[]; revoked?: true }
// The key a request authenticated with. An app declares `apiKey` on RequestDecorations (docs/recipes-public-api.md);
// this test keeps it beside the request so that its declaration does not reach the other tests' programs.
const apiKeys = new WeakMap<object, ApiKey>()

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
const PLAN_LIMITS = { free: 2, pro: 4 } as const
const keys = new Map<string, ApiKey>([
  [sha256('sk_free'), { account: 'acct_free', plan: 'free', scopes: ['read'] }],
  [sha256('sk_pro_old'), { account: 'acct_pro', plan: 'pro', scopes: ['read', 'write'] }],
  [sha256('sk_pro_new'), { account: 'acct_pro', plan: 'pro', scopes: ['read', 'write'] }],
])

async function authenticate(request: Request) {
  const header = request.headers.authorization
  if (typeof header !== 'string' || !header.startsWith('Bearer ')) throw new HttpError(401, 'Send your API key as Authorization: Bearer <key>', { code: 'API_KEY_MISSING' })
  const key = keys.get(sha256(header.slice(7)))
  if (key === undefined) throw new HttpError(401, 'This API key is not valid', { code: 'API_KEY_INVALID' })
  if (key.revoked === true) throw new HttpError(401, 'This API key was revoked', { code: 'API_KEY_REVOKED' })
  apiKeys.set(request, key)
}

const requireScope = (scope: string) => async function requireScope(request: Request) {
  if (!apiKeys.get(request)!.scopes.includes(scope)) throw new HttpError(403, `This API key lacks the '${scope}' scope`, { code: 'API_KEY_SCOPE_MISSING' })
}

@Route('/charges')
class ChargesController {
  @Get('/') list() { return { data: [] } }
  @PreHandler(requireScope('write'))
  @Get('/export') exportAll() { return { url: 'https://files.example.com/export.csv' } }
}

@OnRequest(authenticate)   // a scope hook: it runs before the limiter's route-level one, so a refused key spends nothing
@Module({ prefix: '/v1', controllers: [ChargesController] })
class V1Module {}

function appModule(redis: Redis, nameSpace: string) {
  @Module({
    plugins: [
      [rateLimit, {
        redis, nameSpace, timeWindow: 60_000, enableDraftSpec: true,
        // Typed from the plugin's options (Fastify's request): left unannotated.
        max: (request) => PLAN_LIMITS[apiKeys.get(request)?.plan ?? 'free'],
        keyGenerator: (request) => apiKeys.get(request)?.account ?? request.ip,   // per account: a rotated key keeps the count
        errorResponseBuilder: (_request, context) =>
          ({ statusCode: context.statusCode, code: 'RATE_LIMITED', message: `Too many requests for your plan, retry in ${context.after}` }),
      }],
      V1Module,
    ],
  })
  class AppModule {
    @ErrorHandler({ contentType: 'application/problem+json' })
    onError(error: HandledError, request: Request, reply: Reply) {
      const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500
      const code = typeof error.code === 'string' ? error.code : status >= 500 ? 'INTERNAL' : 'ERROR'
      return reply.code(status).type('application/problem+json').send({ type: `https://docs.example.com/errors/${code.toLowerCase()}`, title: error.message, status, code, instance: request.url })
    }
  }
  return AppModule
}

describe('public API: API keys and per-plan rate limits on a real Redis (docs/recipes-public-api.md)', function () {
  this.timeout(10_000)
  let redisServer: Child | undefined
  let redis: Redis
  let app: Awaited<ReturnType<typeof createApp>>

  before(async function () {
    this.timeout(20_000)
    const started = await startRedis()
    redisServer = started.child
    redis = new Redis({ host: '127.0.0.1', port: started.port, connectTimeout: 2_000, maxRetriesPerRequest: 1 })
    app = await createApp(appModule(redis, `public-api-${process.pid}-`))
  })
  // Each case counts from zero: a case run alone (--grep) sees the counts it states.
  beforeEach(async () => { await redis.flushdb() })
  after(async () => {
    await app?.close()
    await redis?.quit()
    await stop(redisServer)
  })

  const get = (url: string, key?: string) => app.inject({ url, headers: key === undefined ? {} : { authorization: `Bearer ${key}` } })

  it('refuses a missing, unknown or revoked key 401 and a key without the scope 403, each with its code, spending nothing', async () => {
    keys.set(sha256('sk_revoked'), { account: 'acct_gone', plan: 'free', scopes: ['read'], revoked: true })
    for (const [key, status, code] of [[undefined, 401, 'API_KEY_MISSING'], ['sk_nope', 401, 'API_KEY_INVALID'], ['sk_revoked', 401, 'API_KEY_REVOKED']] as const) {
      for (let i = 0; i < 3; i++) {
        const res = await get('/v1/charges', key)
        expect([res.statusCode, res.headers['content-type'], (res.json() as { code: string }).code, res.headers['ratelimit-limit']])
          .to.deep.equal([status, 'application/problem+json; charset=utf-8', code, undefined])
      }
    }
    const forbidden = await get('/v1/charges/export', 'sk_free')
    expect([forbidden.statusCode, (forbidden.json() as { code: string }).code]).to.deep.equal([403, 'API_KEY_SCOPE_MISSING'])
    expect(forbidden.headers['ratelimit-remaining']).to.equal('1')   // the limiter ran before the scope check: that request counted
  })

  it("limits each account by its plan with RateLimit-* headers, then answers 429 problem+json with Retry-After and the limiter's code", async () => {
    const first = await get('/v1/charges', 'sk_free')
    expect([first.statusCode, first.headers['ratelimit-limit'], first.headers['ratelimit-remaining']]).to.deep.equal([200, '2', '1'])
    const free = await get('/v1/charges', 'sk_free')   // the second of 2
    expect([free.statusCode, free.headers['ratelimit-limit'], free.headers['ratelimit-remaining']]).to.deep.equal([200, '2', '0'])
    expect(Number(free.headers['ratelimit-reset'])).to.be.within(1, 60)
    const limited = await get('/v1/charges', 'sk_free')
    expect([limited.statusCode, limited.headers['content-type']]).to.deep.equal([429, 'application/problem+json; charset=utf-8'])
    expect(limited.json()).to.include({ status: 429, code: 'RATE_LIMITED', instance: '/v1/charges' })
    expect(Number(limited.headers['retry-after'])).to.be.within(1, 60)
    expect(limited.headers['ratelimit-remaining']).to.equal('0')
    expect(Number(await redis.pttl(`public-api-${process.pid}-acct_free`))).to.be.within(1, 60_000)   // the count lives in Redis
  })

  it('counts a rotated key against its account: the old and the new key share the pro limit, and the old one is refused once revoked', async () => {
    const remaining: string[] = []
    for (const key of ['sk_pro_old', 'sk_pro_new', 'sk_pro_old']) {
      const res = await get('/v1/charges', key)
      expect(res.statusCode).to.equal(200)
      remaining.push(String(res.headers['ratelimit-remaining']))
    }
    expect(remaining).to.deep.equal(['3', '2', '1'])
    keys.set(sha256('sk_pro_old'), { ...keys.get(sha256('sk_pro_old'))!, revoked: true })
    expect((await get('/v1/charges', 'sk_pro_old')).statusCode).to.equal(401)
    const next = await get('/v1/charges', 'sk_pro_new')
    expect([next.statusCode, next.headers['ratelimit-limit'], next.headers['ratelimit-remaining']]).to.deep.equal([200, '4', '0'])
    expect((await get('/v1/charges', 'sk_pro_new')).statusCode).to.equal(429)
  })
})
