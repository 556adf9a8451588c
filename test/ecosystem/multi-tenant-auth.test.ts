// A multi-tenant B2B API's authentication on the decorator layer (docs/recipes-multi-tenant.md, "Multi-tenant services"):
// bearer JWTs (RS256 and ES256) from an OIDC provider verified against its JWKS, fetched from a
// loopback issuer this file starts (jose's createRemoteJWKSet); key rotation; every refusal a coded
// 401 with WWW-Authenticate (HttpError's headers); API keys by hash on the same route; the tenant
// from the claim, a subdomain or a header; per-route permissions; the clock and the IdP config
// replaced by createApp()'s overrides, as a team's tests do.
import 'reflect-metadata'
import { expect } from 'chai'
import { DecorateRequest, Get, HttpCode, Module, OnRequest, Post, REQUEST, Route, createApp, inject, override, type App, type Request } from '../../src'
import { AuthConfig, AuthGuard, Clock, Directory, IdentityProvider, Requires, hashKey } from './multi-tenant/auth'
import { AUDIENCE, ISSUER, sign, signingKey, startIssuer, type Issuer, type SigningKey } from './multi-tenant/idp'

@Route('/invoices')
class InvoicesController {
  constructor(@inject(REQUEST) private readonly request: Request) {}
  @Requires('invoices:read') @Get('/') list() { const p = this.request.saasPrincipal!; return { tenant: p.tenant, subject: p.subject, plan: p.plan } }
  @Requires('invoices:write') @HttpCode(201) @Post('/') create() { const p = this.request.saasPrincipal!; return { by: p.subject, actor: p.actor ?? null } }
}

@DecorateRequest('saasPrincipal', null)
@OnRequest(AuthGuard)
@Module({ providers: [AuthConfig, Clock, IdentityProvider, Directory, AuthGuard], controllers: [InvoicesController] })
class SaasModule {}

describe('multi-tenant auth: JWKS from a loopback IdP, key rotation, API keys, tenant selection (docs/recipes-multi-tenant.md, "Multi-tenant services")', function () {
  this.timeout(10_000)
  let issuer: Issuer
  let app: App
  let rs: SigningKey
  let es: SigningKey
  let now = new Date('2026-11-28T00:00:00Z')
  const directory = new Directory()
  directory.tenants.set('acme', { plan: 'pro', status: 'active' })
  directory.tenants.set('globex', { plan: 'free', status: 'active' })
  directory.tenants.set('umbrella', { plan: 'pro', status: 'suspended' })
  directory.keys.set(hashKey('sk_ci'), { name: 'ci', tenant: 'acme', permissions: ['invoices:read'], revoked: false })
  directory.keys.set(hashKey('sk_old'), { name: 'old', tenant: 'acme', permissions: ['invoices:read'], revoked: true })

  const token = (key: SigningKey, tid: string, permissions: string[], extra: Partial<Parameters<typeof sign>[2]> = {}) =>
    sign(key, { tid, sub: `${tid}-user`, permissions }, { at: now, ...extra })
  const get = (headers: Record<string, string>) => app.inject({ url: '/invoices', headers })

  before(async () => {
    rs = await signingKey('rs-1', 'RS256')
    es = await signingKey('es-1', 'ES256')
    issuer = await startIssuer([rs, es])
    app = await createApp(SaasModule, {
      overrides: [
        override(AuthConfig, { useValue: { issuer: ISSUER, audience: AUDIENCE, jwksUrl: issuer.jwksUrl, jwksCooldownMs: 0, baseHost: 'api.example.com' } }),
        override(Clock, { useValue: { now: () => now } }),
        override(Directory, { useValue: directory }),
      ],
    })
  })
  after(async () => {
    await app?.close()
    await issuer?.close()
  })

  it('accepts RS256 and ES256 tokens signed by the IdP; the tenant and plan come from the claim and the directory', async () => {
    const a = await get({ authorization: `Bearer ${await token(rs, 'acme', ['invoices:read'])}` })
    expect(a.statusCode, a.body).to.equal(200)
    expect(a.json()).to.deep.equal({ tenant: 'acme', subject: 'acme-user', plan: 'pro' })
    const g = await get({ authorization: `Bearer ${await token(es, 'globex', ['invoices:read'])}` })
    expect(g.json()).to.deep.equal({ tenant: 'globex', subject: 'globex-user', plan: 'free' })
  })

  it('key rotation: an unknown kid is a coded 401 with WWW-Authenticate, not a 500; once the IdP publishes it, it is picked up', async () => {
    const next = await signingKey('rs-2', 'RS256')
    const t = await token(next, 'acme', ['invoices:read'])
    const before = issuer.fetches()
    const early = await get({ authorization: `Bearer ${t}` })
    expect(early.statusCode).to.equal(401)
    expect(early.json()).to.deep.include({ statusCode: 401, code: 'TOKEN_UNKNOWN_KEY', error: 'Unauthorized' })
    expect(early.headers['www-authenticate']).to.match(/^Bearer realm="api", error="invalid_token"/)
    expect(issuer.fetches()).to.be.greaterThan(before)   // the unknown kid made it ask the IdP again
    issuer.publish([next, es])                            // rs-1 retired, rs-2 published
    const later = await get({ authorization: `Bearer ${t}` })
    expect(later.statusCode, later.body).to.equal(200)
    const retired = await get({ authorization: `Bearer ${await token(rs, 'acme', ['invoices:read'])}` })
    expect(retired.json<{ code: string }>().code).to.equal('TOKEN_UNKNOWN_KEY')
    issuer.publish([rs, es])
  })

  it('expired, not yet valid, wrong audience, wrong issuer, garbage: 401 with a code and WWW-Authenticate', async () => {
    const s = Math.floor(now.getTime() / 1000)
    const cases: Array<[string, string]> = [
      [await token(rs, 'acme', [], { ttl: -10 }), 'TOKEN_EXPIRED'],
      [await token(rs, 'acme', [], { nbf: s + 600 }), 'TOKEN_CLAIM_INVALID'],
      [await token(rs, 'acme', [], { aud: 'https://other.test' }), 'TOKEN_CLAIM_INVALID'],
      [await token(rs, 'acme', [], { iss: 'https://evil.test/' }), 'TOKEN_CLAIM_INVALID'],
      ['a.b.c', 'TOKEN_INVALID'],
    ]
    for (const [t, code] of cases) {
      const res = await get({ authorization: `Bearer ${t}` })
      expect(res.statusCode, code).to.equal(401)
      expect(res.json<{ code: string }>().code).to.equal(code)
      expect(res.headers['www-authenticate'], code).to.contain('error="invalid_token"')
    }
  })

  it('the overridden clock decides expiry: a valid token is refused once the app\'s clock passes exp', async () => {
    const t = await token(rs, 'acme', ['invoices:read'])
    expect((await get({ authorization: `Bearer ${t}` })).statusCode).to.equal(200)
    const saved = now
    now = new Date(now.getTime() + 301_000)
    try {
      expect((await get({ authorization: `Bearer ${t}` })).json<{ code: string }>().code).to.equal('TOKEN_EXPIRED')
    } finally { now = saved }
  })

  it('API keys on the same route: looked up by hash, a revoked or unknown key is a coded 401, none at all too', async () => {
    const ok = await get({ 'x-api-key': 'sk_ci' })
    expect(ok.json()).to.deep.equal({ tenant: 'acme', subject: 'key:ci', plan: 'pro' })
    expect((await get({ 'x-api-key': 'sk_old' })).json<{ code: string }>().code).to.equal('API_KEY_REVOKED')
    expect((await get({ 'x-api-key': 'sk_nope' })).json<{ code: string }>().code).to.equal('API_KEY_UNKNOWN')
    const none = await get({})
    expect(none.statusCode).to.equal(401)
    expect(none.json<{ code: string }>().code).to.equal('UNAUTHENTICATED')
    expect(none.headers['www-authenticate']).to.match(/^Bearer /)
  })

  it('the tenant a subdomain or X-Tenant names must be the token\'s; a suspended tenant is a coded 403', async () => {
    const auth = `Bearer ${await token(rs, 'acme', ['invoices:read'])}`
    expect((await get({ authorization: auth, host: 'acme.api.example.com' })).statusCode).to.equal(200)
    const other = await get({ authorization: auth, host: 'globex.api.example.com' })
    expect(other.statusCode).to.equal(403)
    expect(other.json<{ code: string }>().code).to.equal('TENANT_MISMATCH')
    expect((await get({ authorization: auth, 'x-tenant': 'globex' })).json<{ code: string }>().code).to.equal('TENANT_MISMATCH')
    const suspended = await get({ authorization: `Bearer ${await token(rs, 'umbrella', ['invoices:read'])}` })
    expect(suspended.statusCode).to.equal(403)
    expect(suspended.json()).to.deep.include({ code: 'TENANT_SUSPENDED', message: 'This tenant is suspended' })
  })

  it('@Requires(permission) per route (routeMetadata read by the module guard); impersonation needs its own permission', async () => {
    const reader = `Bearer ${await token(rs, 'acme', ['invoices:read'])}`
    const denied = await app.inject({ method: 'POST', url: '/invoices', headers: { authorization: reader } })
    expect(denied.statusCode).to.equal(403)
    expect(denied.json<{ code: string }>().code).to.equal('PERMISSION_DENIED')
    const admin = `Bearer ${await token(es, 'acme', ['invoices:write', 'admin:impersonate'])}`
    const as = await app.inject({ method: 'POST', url: '/invoices', headers: { authorization: admin, 'x-impersonate-user': 'carol' } })
    expect(as.statusCode, as.body).to.equal(201)
    expect(as.json()).to.deep.equal({ by: 'carol', actor: 'acme-user' })
    const notAdmin = await app.inject({ method: 'GET', url: '/invoices', headers: { authorization: reader, 'x-impersonate-user': 'carol' } })
    expect(notAdmin.json<{ code: string }>().code).to.equal('IMPERSONATION_DENIED')
  })
})
