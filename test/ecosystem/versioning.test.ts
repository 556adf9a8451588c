// A payments API's versioning (docs/recipes-payments.md, "Payments-style APIs"): Accept-Version semver ranges on
// controller methods (find-my-way's `constraints: { version }`, as Fastify), and Stripe-style dated
// versions from a `Stripe-Version` header through a custom constraint strategy whose store picks the
// latest version at or before the requested date; an unknown or malformed version is a coded 400.
import 'reflect-metadata'
import { expect } from 'chai'
import { Get, HttpError, Module, NotFoundHandler, OnRequest, Route, type ConstraintStrategy, type Reply, type Request } from '../../src'
import { createApp } from '../../src/modules'

const DATE = /^\d{4}-\d{2}-\d{2}$/
const DEFAULT_VERSION = '2025-01-01'   // what an account without a pinned version gets

/** Stripe-Version: the route version in force on the requested date (ISO dates compare as strings). */
const apiVersion: ConstraintStrategy = {
  name: 'apiVersion',
  storage() {
    const byDate = new Map<string, unknown>()
    return {
      get(requested) {
        let best: string | null = null
        for (const date of byDate.keys()) if (typeof requested === 'string' && date <= requested && (best === null || date > best)) best = date
        return best === null ? null : byDate.get(best)
      },
      set(date, store) { byDate.set(date as string, store) },
    }
  },
  deriveConstraint(req) {
    const given = req.headers['stripe-version']
    return typeof given === 'string' ? given : DEFAULT_VERSION
  },
  validate(value) { if (typeof value !== 'string' || !DATE.test(value)) throw new Error('apiVersion must be a YYYY-MM-DD date') },
}

const checkVersionFormat = (request: Request) => {
  const given = request.headers['stripe-version']
  if (given !== undefined && (typeof given !== 'string' || !DATE.test(given))) {
    throw new HttpError(400, 'Stripe-Version must be a date such as 2025-01-01', { code: 'API_VERSION_INVALID' })
  }
}

@Route('/balance')
class BalanceController {
  @Get('/', { constraints: { apiVersion: '2024-06-01' } })
  flat() { return { available: 100 } }
  @Get('/', { constraints: { apiVersion: '2025-01-01' } })
  money() { return { available: { amount: '100', currency: 'usd' } } }
}

@Route('/charges')
class ChargesController {
  @Get('/', { constraints: { version: '1.0.0' } }) v1() { return { v: '1.0.0' } }
  @Get('/', { constraints: { version: '1.2.0' } }) v12() { return { v: '1.2.0' } }
  @Get('/', { constraints: { version: '2.0.0' } }) v2() { return { v: '2.0.0' } }
}

@OnRequest(checkVersionFormat)
@Module({ controllers: [BalanceController, ChargesController] })
class AppModule {
  // find-my-way answers an unmatched version 404, as Fastify; a known URL asked for in a version it
  // does not have is the client's mistake, so say which header is wrong.
  @NotFoundHandler() notFound(request: Request, reply: Reply) {
    const asked = request.headers['accept-version'] ?? request.headers['stripe-version']
    if (asked !== undefined) {
      return reply.code(400).send({ statusCode: 400, code: 'API_VERSION_UNKNOWN', error: 'Bad Request', message: `no ${request.method} ${request.url} in version ${String(asked)}` })
    }
    return reply.code(404).send({ statusCode: 404, code: 'NOT_FOUND', error: 'Not Found', message: `${request.method} ${request.url} not found` })
  }
}

describe('payments API: versioning (docs/recipes-payments.md, "Payments-style APIs")', function () {
  this.timeout(10_000)
  let app: Awaited<ReturnType<typeof createApp>>
  before(async () => { app = await createApp(AppModule, { constraints: { apiVersion } }) })
  after(async () => { await app.close() })
  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers })

  it('serves a controller method per Accept-Version range (semver, as Fastify): the highest version the range allows', async () => {
    expect((await get('/charges', { 'accept-version': '1.x' })).json()).to.deep.equal({ v: '1.2.0' })
    expect((await get('/charges', { 'accept-version': '1.0.0' })).json()).to.deep.equal({ v: '1.0.0' })
    expect((await get('/charges', { 'accept-version': '*' })).json()).to.deep.equal({ v: '2.0.0' })
  })

  it('answers a version nobody declared with a coded 400 from the not-found handler (Fastify: 404), an unknown URL 404', async () => {
    const unknown = await get('/charges', { 'accept-version': '3.x' })
    expect([unknown.statusCode, (unknown.json() as { code: string }).code]).to.deep.equal([400, 'API_VERSION_UNKNOWN'])
    const nowhere = await get('/refunds')
    expect([nowhere.statusCode, (nowhere.json() as { code: string }).code]).to.deep.equal([404, 'NOT_FOUND'])
  })

  it('serves dated Stripe-Version requests the version in force on that date, and the default without the header', async () => {
    expect((await get('/balance', { 'stripe-version': '2024-06-01' })).json()).to.deep.equal({ available: 100 })
    expect((await get('/balance', { 'stripe-version': '2024-11-30' })).json()).to.deep.equal({ available: 100 })
    expect((await get('/balance', { 'stripe-version': '2025-03-01' })).json()).to.deep.equal({ available: { amount: '100', currency: 'usd' } })
    expect((await get('/balance')).json()).to.deep.equal({ available: { amount: '100', currency: 'usd' } })
  })

  it('answers a date before the first version with the 400, and a malformed one with its own coded 400', async () => {
    const early = await get('/balance', { 'stripe-version': '2020-01-01' })
    expect([early.statusCode, (early.json() as { code: string }).code]).to.deep.equal([400, 'API_VERSION_UNKNOWN'])
    const bad = await get('/balance', { 'stripe-version': 'latest' })
    expect([bad.statusCode, (bad.json() as { code: string }).code]).to.deep.equal([400, 'API_VERSION_INVALID'])
  })

  it('refuses a route version the strategy cannot store at boot, naming the route', async () => {
    @Route('/x') class Bad { @Get('/', { constraints: { apiVersion: 'June 2024' } }) x() { return {} } }
    @Module({ controllers: [Bad] }) class BadModule {}
    const error = await createApp(BadModule, { constraints: { apiVersion } }).then(() => null, (e: Error & { code?: string }) => e)
    expect(error?.code).to.equal('ENC_ERR_ROUTE_INVALID')
    expect(error?.message).to.equal("route GET /x (handler Bad.x) in BadModule: constraints.apiVersion was refused by the 'apiVersion' strategy's validate(): apiVersion must be a YYYY-MM-DD date.")
  })
})
