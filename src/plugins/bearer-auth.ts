import { createHash, timingSafeEqual } from 'node:crypto'
import { lift, type PluginFunction, type Reply, type Request, type Scope } from '../runtime'
import { liftedTarget } from '../runtime/internal'
import { pluginError, pluginErrors } from './plugin-codes'

export interface BearerAuthOptions {
  /** The accepted tokens (API keys). At least one; each a non-empty string. */
  keys: readonly string[]
}

/**
 * A bearer-token check (spec §5): the client sends `authorization: Bearer <key>`. Missing or
 * unknown tokens get 401 `{ statusCode, code: 'ENC_ERR_AUTH_UNAUTHORIZED', error, message }` with
 * `WWW-Authenticate: Bearer`.
 *
 * The plugin is returned already lifted, so it protects the scope that registers it and that
 * scope's descendants, and nothing else: siblings stay open (spec §3.3.7, §5.3). Works both as
 * `scope.register(bearerAuth({ keys }))` and as an entry of `@Module({ plugins })`.
 *
 * @example
 * @Module({ plugins: [bearerAuth({ keys: process.env.API_KEYS!.split(',') })], controllers: [AdminController] })
 * class AdminModule {}
 */
export function bearerAuth(options: BearerAuthOptions): PluginFunction {
  const digests = checkedKeys(options).map(digest)
  const hook = function bearerAuthHook(request: Request, reply: Reply): void {
    const token = readToken(request.headers.authorization)
    if (token === null) {
      refuse(reply, 'missing')
    } else if (!matchesAny(digest(token), digests)) {
      refuse(reply, 'invalid')
    }
  }
  const plugin = async function bearerAuth(scope: Scope) {
    scope.addHook('onRequest', hook)
  }
  Object.defineProperty(plugin, kBearerAuth, { value: true })
  return lift(plugin)
}

const kBearerAuth = Symbol('enclave.bearerAuth')

/** Whether a plugin (lifted or not) is a bearerAuth() guard: the OpenAPI document marks the routes it protects. */
export function isBearerAuth(plugin: Function): boolean {
  return (liftedTarget(plugin) as unknown as Record<symbol, unknown>)[kBearerAuth] === true
}

/**
 * Hashing first gives equal-length buffers for timingSafeEqual whatever the token's length, and
 * every key is compared (no early exit), so the time taken tells nothing about which key, or how
 * much of one, matched.
 */
function matchesAny(candidate: Buffer, digests: readonly Buffer[]): boolean {
  let matched = false
  for (const d of digests) matched = timingSafeEqual(candidate, d) || matched
  return matched
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest()
}

/** The token of `Bearer <token>`; the scheme is case-insensitive (RFC 7235 §2.1). */
function readToken(header: unknown): string | null {
  if (typeof header !== 'string') return null
  const match = /^bearer +(\S+) *$/i.exec(header)
  return match === null ? null : match[1]
}

/** Sent directly (not through the error handlers), as before: the payload is the error shape with the code. */
function refuse(reply: Reply, token: 'missing' | 'invalid'): void {
  const unauthorized = pluginErrors.ENC_ERR_AUTH_UNAUTHORIZED
  reply.code(401).header('www-authenticate', 'Bearer')
    .send({ statusCode: 401, code: 'ENC_ERR_AUTH_UNAUTHORIZED', error: 'Unauthorized', message: unauthorized.message({ token }) })
}

function checkedKeys(options: BearerAuthOptions): readonly string[] {
  const keys = (options as Partial<BearerAuthOptions> | null)?.keys
  const extra = options !== null && typeof options === 'object' ? Object.keys(options).filter((k) => k !== 'keys') : []
  if (!Array.isArray(keys) || keys.length === 0 || keys.some((k) => typeof k !== 'string' || k === '') || extra.length > 0) {
    throw pluginError('ENC_ERR_AUTH_INVALID_OPTIONS', { unknown: extra })
  }
  return keys
}
