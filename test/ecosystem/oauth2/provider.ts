// A small OAuth2 / OpenID Connect authorization server on loopback, for @fastify/oauth2's
// authorization-code flow: discovery, /authorize (approves the one test user at once and redirects
// back with a code and the client's state), /token (the code, the redirect_uri and the client's
// credentials checked; PKCE S256 checked when the code was issued with a challenge; refresh tokens),
// /userinfo (the bearer token). Written here rather than oidc-provider: the tests need to see and
// vary what the server received, and each check is a few lines.
import { createHash, randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Provider {
  issuer: string
  clientId: string
  clientSecret: string
  /** Every /token request's form fields (the client's secret left out), in order. */
  tokenRequests: Array<Record<string, string>>
  close(): Promise<void>
}

interface Grant { clientId: string; redirectUri: string; challenge?: string; used: boolean }

const user = { sub: 'user-1', name: 'Ada Lovelace', email: 'ada@example.test' }

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers })
  res.end(text)
}

async function readForm(req: IncomingMessage): Promise<Record<string, string>> {
  let text = ''
  for await (const chunk of req) {
    text += String(chunk)
    if (text.length > 64 * 1024) break
  }
  return Object.fromEntries(new URLSearchParams(text))
}

/** Basic credentials (simple-oauth2's default) or client_id/client_secret in the form. */
function clientOf(req: IncomingMessage, form: Record<string, string>): [string, string] {
  const header = req.headers.authorization
  if (header?.startsWith('Basic ')) {
    const [id, secret] = Buffer.from(header.slice(6), 'base64').toString().split(':').map(decodeURIComponent)
    return [id, secret]
  }
  return [form.client_id, form.client_secret]
}

export async function startProvider(): Promise<Provider> {
  const clientId = 'enclave-app'
  const clientSecret = 'provider-secret'
  const grants = new Map<string, Grant>()
  const tokens = new Set<string>()
  const refreshTokens = new Set<string>()
  const tokenRequests: Array<Record<string, string>> = []
  let issuer = ''

  const issueTokens = (res: ServerResponse) => {
    const access = randomBytes(12).toString('hex')
    const refresh = randomBytes(12).toString('hex')
    tokens.add(access)
    refreshTokens.add(refresh)
    send(res, 200, { access_token: access, token_type: 'Bearer', expires_in: 3600, refresh_token: refresh, scope: 'openid profile' })
  }

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', issuer)
    void (async () => {
      if (req.method === 'GET' && url.pathname === '/.well-known/openid-configuration') {
        return send(res, 200, {
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          userinfo_endpoint: `${issuer}/userinfo`,
          revocation_endpoint: `${issuer}/revoke`,
          code_challenge_methods_supported: ['S256'],
          response_types_supported: ['code'],
        })
      }
      if (req.method === 'GET' && url.pathname === '/authorize') {
        const q = url.searchParams
        if (q.get('response_type') !== 'code' || q.get('client_id') !== clientId || q.get('redirect_uri') === null) return send(res, 400, { error: 'invalid_request' })
        const code = randomBytes(8).toString('hex')
        const challenge = q.get('code_challenge') ?? undefined
        if (challenge !== undefined && q.get('code_challenge_method') !== 'S256') return send(res, 400, { error: 'invalid_request', error_description: 'S256 only' })
        grants.set(code, { clientId, redirectUri: q.get('redirect_uri')!, challenge, used: false })
        const back = new URL(q.get('redirect_uri')!)
        back.searchParams.set('code', code)
        if (q.get('state') !== null) back.searchParams.set('state', q.get('state')!)
        res.writeHead(302, { location: back.toString() })
        return res.end()
      }
      if (req.method === 'POST' && url.pathname === '/token') {
        const form = await readForm(req)
        const [id, secret] = clientOf(req, form)
        const { client_secret: _hidden, ...seen } = form
        tokenRequests.push(seen)
        if (id !== clientId || secret !== clientSecret) return send(res, 401, { error: 'invalid_client' })
        if (form.grant_type === 'refresh_token') {
          if (!refreshTokens.delete(form.refresh_token)) return send(res, 400, { error: 'invalid_grant' })
          return issueTokens(res)
        }
        const grant = grants.get(form.code)
        if (form.grant_type !== 'authorization_code' || grant === undefined || grant.used || grant.redirectUri !== form.redirect_uri) {
          return send(res, 400, { error: 'invalid_grant', error_description: 'unknown, used or mismatched code' })
        }
        if (grant.challenge !== undefined) {
          const computed = form.code_verifier === undefined ? '' : createHash('sha256').update(form.code_verifier).digest('base64url')
          if (computed !== grant.challenge) return send(res, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' })
        }
        grant.used = true
        return issueTokens(res)
      }
      if (req.method === 'GET' && url.pathname === '/userinfo') {
        const token = req.headers.authorization?.replace(/^Bearer /, '')
        if (token === undefined || !tokens.has(token)) return send(res, 401, { error: 'invalid_token' })
        return send(res, 200, user)
      }
      send(res, 404, { error: 'not_found' })
    })().catch((error: Error) => send(res, 500, { error: error.message }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    issuer, clientId, clientSecret, tokenRequests,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }),
  }
}

export const providerUser = user
