import { expect } from 'chai'
import oauthPlugin from '@fastify/oauth2'
import type { Scope } from '../../src/runtime'
import { server } from '../support/servers'
import { providerUser, startProvider, type Provider } from './oauth2/provider'

// @fastify/oauth2 8 (its README: `register(oauthPlugin, { name, credentials, startRedirectPath,
// callbackUri })`, then `this[name].getAccessTokenFromAuthorizationCodeFlow(request)` in the
// callback route) in Enclave, against a real authorization server on loopback
// (./oauth2/provider.ts): the redirect with its state cookie, the provider's redirect back, the
// state checked, the code exchanged for a token over HTTP, refresh, and OIDC discovery with PKCE
// and userinfo. The app is reached with inject (the callback URL is only compared, never dialled).
const callbackUri = 'http://127.0.0.1:3000/login/local/callback'

interface OAuth2Namespace {
  getAccessTokenFromAuthorizationCodeFlow(request: unknown, reply?: unknown): Promise<{ token: Record<string, any> }>
  getNewAccessTokenUsingRefreshToken(token: Record<string, any>, params: Record<string, unknown>): Promise<{ token: Record<string, any> }>
  userinfo(token: Record<string, any>): Promise<Record<string, unknown>>
}
type WithLocal = Scope & { local: OAuth2Namespace }

function cookiesOf(headers: Record<string, unknown>): string[] {
  return [headers['set-cookie']].flat().filter((c): c is string => typeof c === 'string')
}

/** The app: the plugin, and the README's callback route answering what the exchange gave. */
async function app(provider: Provider, extra: Record<string, unknown>): Promise<Scope> {
  const app = server()
  app.register(oauthPlugin, {
    name: 'local',
    credentials: { client: { id: provider.clientId, secret: provider.clientSecret } },
    startRedirectPath: '/login/local',
    callbackUri,
    scope: ['openid', 'profile'],
    ...extra,
  })
  app.get('/login/local/callback', async function (this: Scope, request, reply) {
    try {
      // With the reply (the README's second form), the plugin also clears its two cookies.
      const { token } = await (this as WithLocal).local.getAccessTokenFromAuthorizationCodeFlow(request, reply)
      return { token }
    } catch (error) {
      const e = error as Error & { data?: { payload?: { error?: string } } }
      return reply.code(401).send({ failed: e.message, providerError: e.data?.payload?.error ?? null })
    }
  })
  app.post('/refresh', async function (this: Scope, request) {
    const { token } = await (this as WithLocal).local.getNewAccessTokenUsingRefreshToken(request.body as Record<string, any>, {})
    return { token }
  })
  app.post('/me', async function (this: Scope, request) {
    return (this as WithLocal).local.userinfo(request.body as Record<string, any>)
  })
  await app.ready()
  return app
}

/** Start path -> the provider's /authorize (real HTTP) -> the callback URL it redirects to, and the cookies set on the way. */
async function authorize(target: Scope): Promise<{ callback: URL; cookie: string; authorizeUrl: URL }> {
  const start = await target.inject({ method: 'GET', url: '/login/local' })
  expect(start.statusCode).to.equal(302)
  const authorizeUrl = new URL(String(start.headers.location))
  const cookie = cookiesOf(start.headers).map((c) => c.split(';')[0]).join('; ')
  const answer = await fetch(authorizeUrl, { redirect: 'manual', signal: AbortSignal.timeout(5000) })
  expect(answer.status).to.equal(302)
  return { callback: new URL(answer.headers.get('location')!), cookie, authorizeUrl }
}

describe('@fastify/oauth2 in Enclave (authorization-code flow against a loopback provider)', function () {
  // Several HTTP round trips per test on a loaded machine: more room than the suite's 10 s.
  this.timeout(30_000)
  let provider: Provider
  beforeEach(async () => { provider = await startProvider() })
  afterEach(async () => { await provider.close() })

  it('redirects to the provider with a state kept in a cookie, checks it on the callback and exchanges the code for a token', async () => {
    const target = await app(provider, { credentials: { client: { id: provider.clientId, secret: provider.clientSecret }, auth: { tokenHost: provider.issuer, tokenPath: '/token', authorizePath: '/authorize' } } })
    const { callback, cookie, authorizeUrl } = await authorize(target)
    expect(authorizeUrl.origin + authorizeUrl.pathname).to.equal(`${provider.issuer}/authorize`)
    expect(Object.fromEntries(authorizeUrl.searchParams)).to.include({ response_type: 'code', client_id: 'enclave-app', redirect_uri: callbackUri, scope: 'openid profile' })
    const state = authorizeUrl.searchParams.get('state')!
    expect(cookie).to.equal(`oauth2-redirect-state=${state}`)
    expect(callback.searchParams.get('state')).to.equal(state)

    const done = await target.inject({ method: 'GET', url: `/login/local/callback${callback.search}`, headers: { cookie } })
    expect(done.statusCode, done.body).to.equal(200)
    const { token } = done.json<any>()
    expect(token).to.include({ token_type: 'Bearer', expires_in: 3600, scope: 'openid profile' })
    expect(token.access_token).to.match(/^[0-9a-f]{24}$/)
    // What the provider received: the code and the same redirect_uri, the secret in Basic auth.
    expect(provider.tokenRequests).to.deep.equal([{ grant_type: 'authorization_code', code: callback.searchParams.get('code'), redirect_uri: callbackUri }])
    // The state cookie is single-use: the callback clears it.
    expect(cookiesOf(done.headers).some((c) => c.startsWith('oauth2-redirect-state=;'))).to.equal(true)

    // A refresh gives a new access token.
    const refreshed = await target.inject({ method: 'POST', url: '/refresh', payload: token })
    expect(refreshed.json<any>().token.access_token).to.match(/^[0-9a-f]{24}$/).and.not.equal(token.access_token)
    expect(provider.tokenRequests[1]).to.deep.equal({ grant_type: 'refresh_token', refresh_token: token.refresh_token })
  })

  it('refuses a callback whose state is not the cookie\'s, or that has no state cookie, before any call to the provider; a replayed code is the provider\'s invalid_grant', async () => {
    const target = await app(provider, { credentials: { client: { id: provider.clientId, secret: provider.clientSecret }, auth: { tokenHost: provider.issuer, tokenPath: '/token', authorizePath: '/authorize' } } })
    const { callback, cookie } = await authorize(target)
    const forged = new URLSearchParams(callback.search)
    forged.set('state', 'forged-state')
    const wrong = await target.inject({ method: 'GET', url: `/login/local/callback?${forged}`, headers: { cookie } })
    expect(wrong.json<any>()).to.deep.equal({ failed: 'Invalid state', providerError: null })
    const cookieless = await target.inject({ method: 'GET', url: `/login/local/callback${callback.search}` })
    expect(cookieless.json<any>()).to.deep.equal({ failed: 'Invalid state', providerError: null })
    expect(provider.tokenRequests).to.deep.equal([])

    const first = await target.inject({ method: 'GET', url: `/login/local/callback${callback.search}`, headers: { cookie } })
    expect(first.statusCode).to.equal(200)
    const replay = await target.inject({ method: 'GET', url: `/login/local/callback${callback.search}`, headers: { cookie } })
    expect(replay.statusCode).to.equal(401)
    expect(replay.json<any>().providerError).to.equal('invalid_grant')
  })

  it('finds the endpoints by OIDC discovery at boot, picks PKCE S256 from the metadata (verifier cookie, code_verifier sent), and reads userinfo with the token', async () => {
    const target = await app(provider, { discovery: { issuer: provider.issuer } })
    const { callback, cookie, authorizeUrl } = await authorize(target)
    expect(authorizeUrl.searchParams.get('code_challenge_method')).to.equal('S256')
    expect(cookie).to.match(/oauth2-redirect-state=[^;]+; oauth2-code-verifier=[^;]+/)
    const done = await target.inject({ method: 'GET', url: `/login/local/callback${callback.search}`, headers: { cookie } })
    expect(done.statusCode, done.body).to.equal(200)
    expect(provider.tokenRequests[0].code_verifier).to.be.a('string').with.length.greaterThan(42)
    // Without the verifier cookie, the provider's PKCE check refuses the code.
    const { callback: second, cookie: secondCookie } = await authorize(target)
    const stateOnly = secondCookie.split('; ').filter((c) => c.startsWith('oauth2-redirect-state=')).join('; ')
    const noVerifier = await target.inject({ method: 'GET', url: `/login/local/callback${second.search}`, headers: { cookie: stateOnly } })
    expect(noVerifier.json<any>().providerError).to.equal('invalid_grant')

    const me = await target.inject({ method: 'POST', url: '/me', payload: done.json<any>().token })
    expect(me.json<any>()).to.deep.equal(providerUser)
  })

  it('fails boot with the plugin\'s own message for an unreachable discovery issuer or missing credentials.auth', async () => {
    const unreachable = server()
    unreachable.register(oauthPlugin, { name: 'local', credentials: { client: { id: 'a', secret: 'b' } }, callbackUri, discovery: { issuer: 'http://127.0.0.1:1' } })
    let error: Error | undefined
    try { await unreachable.ready() } catch (e) { error = e as Error }
    expect(error?.message).to.equal('Problem calling discovery endpoint. See innerError for details.')

    const noAuth = server()
    noAuth.register(oauthPlugin, { name: 'local', credentials: { client: { id: 'a', secret: 'b' } }, callbackUri })
    error = undefined
    try { await noAuth.ready() } catch (e) { error = e as Error }
    expect(error?.message).to.equal('options.discovery.issuer or credentials.auth have to be given')
  })
})
