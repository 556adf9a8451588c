import type * as NodeCrypto from 'node:crypto'
import { describeSecurity, lift, type PluginFunction, type Reply, type Request, type Scope, type SecurityDescription } from '../runtime'
import { liftedTarget, unknownOptions } from '../runtime/internal'
import { pluginError, pluginErrors } from './plugin-codes'

export interface BearerAuthOptions {
  /**
   * The accepted tokens (API keys). At least one; each a non-empty string. Given as an object
   * (`{ ci: 'k1', alice: 'k2' }`), its keys name the callers, and `authOf(request)` says which one
   * passed; the array form records nothing, so a guard that needs no name costs what it did.
   */
  keys: readonly string[] | Readonly<Record<string, string>>
}

/** Who passed a bearerAuth guard with named keys: `authOf(request)`. */
export interface BearerIdentity {
  readonly scheme: 'bearer'
  /** The name of the matched key in `keys`. */
  readonly subject: string
}

// Requests have a fixed shape (serve/request.ts): the identity lives beside the request, not on it.
const identities = new WeakMap<object, BearerIdentity>()

/**
 * Who authenticated this request, when a bearerAuth guard with named keys (plugin or route hook)
 * accepted it; `undefined` on routes no such guard covers.
 *
 * @example
 * @OnRequest(bearerAuthHook({ keys: { ci: process.env.CI_KEY! } }))
 * @Post('/') create(@Req() request: Request) { this.audit.write(authOf(request)!.subject) }
 */
export function authOf(request: object): BearerIdentity | undefined {
  return identities.get(request)
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
  checkedKeys(options, 'bearerAuth')   // refused under the name the user called
  const hook = bearerAuthHook(options)
  const plugin = async function bearerAuth(scope: Scope) {
    scope.addHook('onRequest', hook)
  }
  Object.defineProperty(plugin, kBearerAuth, { value: true })
  return lift(plugin)
}

/**
 * What bearerAuthHook() returns: a synchronous hook of two arguments (it answers 401 itself, or
 * returns), so a guard class may call it from its own `handle(request, reply)`; assignable
 * wherever a RequestHook is expected.
 */
export type BearerAuthHook = (request: Request, reply: Reply) => void

/**
 * The OpenAPI security scheme bearerAuth marks its routes with. A guard class that wraps
 * bearerAuthHook() marks itself with it: `describeSecurity(ApiKeyGuard, bearerAuthSecurity)`.
 */
export const bearerAuthSecurity: SecurityDescription = Object.freeze({
  name: 'bearerAuth', scheme: Object.freeze({ type: 'http', scheme: 'bearer' }), status: 401,
})

/**
 * The same check as an onRequest hook, for one route or one controller:
 * `@OnRequest(bearerAuthHook({ keys }))` on a route method or a controller class, or the
 * `onRequest` route option. The OpenAPI document marks exactly the routes it guards.
 *
 * Keys from configuration: a guard class built at boot calls it from its `handle`.
 *
 * @example
 * @injectable() class ApiKeyGuard {
 *   readonly #check: BearerAuthHook
 *   constructor(config: Config) { this.#check = bearerAuthHook({ keys: config.apiKeys }) }
 *   handle(request: Request, reply: Reply) { this.#check(request, reply) }
 * }
 * describeSecurity(ApiKeyGuard, bearerAuthSecurity)
 * @Route('/books')
 * class BooksController {
 *   @Get('/') list() { ... }
 *   @OnRequest(ApiKeyGuard) @Post('/') create(@Body() book: NewBook) { ... }
 * }
 */
export function bearerAuthHook(options: BearerAuthOptions): BearerAuthHook {
  const named = checkedKeys(options, 'bearerAuthHook')
  const digests = named.map(([, key]) => digest(key))
  // One WeakMap write per accepted request (about 0.3 µs, on a 1.5 µs check): only when asked for by naming the keys.
  const subjects = Array.isArray(options.keys) ? null : named.map(([subject]): BearerIdentity => Object.freeze({ scheme: 'bearer', subject }))
  // Marked so that openapi() lists the bearer scheme (and its 401) on exactly the routes this hook guards.
  return describeSecurity(function bearerAuthHook(request: Request, reply: Reply): void {
    const token = readToken(request.headers.authorization)
    if (token === null) return refuse(reply, 'missing')
    const matched = matchIndex(digest(token), digests)
    if (matched === -1) return refuse(reply, 'invalid')
    if (subjects !== null) identities.set(request, subjects[matched])
  }, bearerAuthSecurity)
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
// node:crypto (~2.5 ms CPU to load) is loaded by the first bearerAuth() hashing its keys, not by
// `require('enclave')` in every app (bench/README "session 18").
let loadedCrypto: typeof NodeCrypto | undefined
function nodeCrypto(): typeof NodeCrypto {
  return loadedCrypto ??= require('node:crypto') as typeof NodeCrypto
}

function matchIndex(candidate: Buffer, digests: readonly Buffer[]): number {
  const { timingSafeEqual } = nodeCrypto()
  let matched = -1
  for (let i = 0; i < digests.length; i++) if (timingSafeEqual(candidate, digests[i]) && matched === -1) matched = i
  return matched
}

function digest(value: string): Buffer {
  return nodeCrypto().createHash('sha256').update(value, 'utf8').digest()
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

/** [subject, key] pairs: the object form's names, or the array form's indexes. */
function checkedKeys(options: BearerAuthOptions, fn: 'bearerAuth' | 'bearerAuthHook'): ReadonlyArray<readonly [string, string]> {
  const keys = (options as Partial<BearerAuthOptions> | null)?.keys
  const extra = options !== null && typeof options === 'object' ? unknownOptions(options, ['keys']) : null
  const named = Array.isArray(keys) ? keys.map((k, i) => [String(i), k] as const)
    : keys !== null && typeof keys === 'object' ? Object.entries(keys as Record<string, unknown>) : []
  if (named.length === 0 || named.some(([, k]) => typeof k !== 'string' || k === '') || extra !== null) {
    throw pluginError('ENC_ERR_AUTH_INVALID_OPTIONS', { fn, unknown: extra })
  }
  return named as ReadonlyArray<readonly [string, string]>
}
