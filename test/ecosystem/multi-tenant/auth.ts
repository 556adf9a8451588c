// What a multi-tenant service declares for authentication, shared by the multi-tenant tests:
// bearer JWTs verified against the IdP's JWKS (jose's createRemoteJWKSet), or API keys looked
// up by their SHA-256 hash; the tenant from the token's claim, which a subdomain or X-Tenant
// header must agree with; per-route permissions (@Requires) and an audited impersonation header.
import { createHash } from 'node:crypto'
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose'
import { HttpError, injectable, routeMetadata, type Request } from '../../../src'

export interface Principal {
  subject: string
  tenant: string
  plan: string
  permissions: readonly string[]
  /** The admin acting as `subject` (X-Impersonate-User). */
  actor?: string
}

declare module '../../../src/runtime' {
  interface RequestDecorations { saasPrincipal: Principal | null }
}

@injectable()
export class AuthConfig {
  issuer = 'https://idp.example.com/'
  audience = 'https://api.example.com'
  jwksUrl = 'https://idp.example.com/.well-known/jwks.json'
  jwksCooldownMs = 30_000
  baseHost = 'api.example.com'
}

/** The app's time: tests replace it (override) to move past a token's expiry. */
@injectable()
export class Clock { now(): Date { return new Date() } }

export function unauthorized(code: string, message: string): HttpError {
  return new HttpError(401, message, { code, headers: { 'www-authenticate': `Bearer realm="api", error="invalid_token", error_description="${message}"` } })
}

@injectable()
export class IdentityProvider {
  private readonly jwks: ReturnType<typeof createRemoteJWKSet>
  constructor(private readonly config: AuthConfig, private readonly clock: Clock) {
    this.jwks = createRemoteJWKSet(new URL(config.jwksUrl), { cooldownDuration: config.jwksCooldownMs, timeoutDuration: 2_000 })
  }

  async verify(token: string): Promise<JWTPayload> {
    try {
      const { payload } = await jwtVerify(token, this.jwks, {
        issuer: this.config.issuer, audience: this.config.audience, algorithms: ['RS256', 'ES256'], currentDate: this.clock.now(),
      })
      return payload
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw unauthorized('TOKEN_EXPIRED', 'The token has expired')
      if (error instanceof errors.JWTClaimValidationFailed) throw unauthorized('TOKEN_CLAIM_INVALID', `The token's ${error.claim} claim is not accepted`)
      if (error instanceof errors.JWKSNoMatchingKey) throw unauthorized('TOKEN_UNKNOWN_KEY', 'The token is signed by an unknown key')
      if (error instanceof errors.JOSEError) throw unauthorized('TOKEN_INVALID', 'The token is not valid')
      throw error
    }
  }
}

export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex')

export interface ApiKeyRecord { name: string; tenant: string; permissions: string[]; revoked: boolean }
export interface TenantRecord { plan: string; status: 'active' | 'suspended' }

/** Where keys (by hash: the key itself is never stored) and tenants are looked up. */
@injectable()
export class Directory {
  readonly keys = new Map<string, ApiKeyRecord>()
  readonly tenants = new Map<string, TenantRecord>()
  async apiKey(key: string): Promise<ApiKeyRecord | undefined> { return this.keys.get(hashKey(key)) }
  async tenant(id: string): Promise<TenantRecord | undefined> { return this.tenants.get(id) }
}

export const Requires = routeMetadata<string>('requiresPermission')

@injectable()
export class AuthGuard {
  constructor(private readonly idp: IdentityProvider, private readonly directory: Directory, private readonly config: AuthConfig) {}

  async handle(request: Request): Promise<boolean> {
    const principal = await this.authenticate(request)
    const selected = this.selectedTenant(request)
    if (selected !== undefined && selected !== principal.tenant) throw new HttpError(403, `Not a member of tenant ${selected}`, { code: 'TENANT_MISMATCH' })
    const tenant = await this.directory.tenant(principal.tenant)
    if (tenant === undefined) throw new HttpError(403, 'Unknown tenant', { code: 'TENANT_UNKNOWN' })
    if (tenant.status === 'suspended') throw new HttpError(403, 'This tenant is suspended', { code: 'TENANT_SUSPENDED' })
    principal.plan = tenant.plan
    const impersonate = request.headers['x-impersonate-user']
    if (typeof impersonate === 'string') {
      if (!principal.permissions.includes('admin:impersonate')) throw new HttpError(403, 'Impersonation requires admin:impersonate', { code: 'IMPERSONATION_DENIED' })
      principal.actor = principal.subject
      principal.subject = impersonate
    }
    request.saasPrincipal = principal
    const needed = Requires.of(request)
    if (needed !== undefined && !principal.permissions.includes(needed)) throw new HttpError(403, `Missing permission ${needed}`, { code: 'PERMISSION_DENIED' })
    return true
  }

  private async authenticate(request: Request): Promise<Principal> {
    const authorization = request.headers.authorization
    if (authorization?.startsWith('Bearer ') === true) {
      const claims = await this.idp.verify(authorization.slice(7))
      if (typeof claims.tid !== 'string' || typeof claims.sub !== 'string') throw unauthorized('TOKEN_CLAIM_INVALID', 'The token names no tenant')
      const permissions = Array.isArray(claims.permissions) ? claims.permissions.filter((p): p is string => typeof p === 'string') : []
      return { subject: claims.sub, tenant: claims.tid, plan: 'free', permissions }
    }
    const apiKey = request.headers['x-api-key']
    if (typeof apiKey === 'string') {
      const found = await this.directory.apiKey(apiKey)
      if (found === undefined) throw unauthorized('API_KEY_UNKNOWN', 'Unknown API key')
      if (found.revoked) throw unauthorized('API_KEY_REVOKED', 'This API key was revoked')
      return { subject: `key:${found.name}`, tenant: found.tenant, plan: 'free', permissions: found.permissions }
    }
    throw unauthorized('UNAUTHENTICATED', 'A bearer token or an API key is required')
  }

  private selectedTenant(request: Request): string | undefined {
    const header = request.headers['x-tenant']
    if (typeof header === 'string' && header !== '') return header
    const host = (request.hostname ?? '').replace(/:\d+$/, '')
    return host.endsWith(`.${this.config.baseHost}`) ? host.slice(0, -this.config.baseHost.length - 1) : undefined
  }
}
