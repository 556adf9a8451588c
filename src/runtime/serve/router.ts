import FindMyWay from 'find-my-way'
import type { IncomingMessage } from 'node:http'
import { parse as parseQueryString } from 'node:querystring'
import type { CompiledRoute } from './compiled-route'
import { isStaticPath, StaticRoutes } from './static-routes'
import { plainParams } from './plain-params'
import { absolutePathStart, pathEnd } from './request-target'
import { asWritten, boundRegexParams } from './regex-param-bound'
import { versionStrategy } from '../shared/version-strategy'
import type { ConstraintStrategy } from '../shared/custom-constraints'

/** Returned by the query parser instead of a truncated object: the pipeline answers 414. */
export const TOO_MANY_QUERY_KEYS: Record<string, unknown> = Object.freeze({})

export interface RouteMatch {
  /** null when find-my-way could not decode the URL (a bad percent-escape). */
  store: CompiledRoute | null
  params: Record<string, unknown>
  searchParams: Record<string, unknown>
}

/** find-my-way's built-in constraints, as the `constraints` route option gives them (Fastify 3). */
export interface RouteConstraints {
  /** A semver range of the Accept-Version request header (`1.2.0`, `1.x`). */
  readonly version?: string
  /** The Host request header, exactly or by RegExp. */
  readonly host?: string | RegExp
  /** A custom strategy's value (createServer({ constraints })). */
  readonly [custom: string]: unknown
}

export interface Router {
  /** `declared`: the path as the route wrote it (`*` and `/*` are both stored as `/*`, but only `*` takes `OPTIONS *`). */
  on(method: string, path: string, route: CompiledRoute, constraints: RouteConstraints | null, declared?: string): void
  /** `raw` gives the constraint values (headers); without it only unconstrained routes match. */
  find(method: string, url: string, raw?: IncomingMessage): RouteMatch | null
  has(method: string, path: string, constraints: RouteConstraints | null): boolean
  /** A route is constrained by version, or a custom version strategy was given (find-my-way's hasConstraintStrategy('version')). */
  versioned(): boolean
}

/**
 * The query of a URL without one, shaped as Fastify 3's (Node's querystring.parse('')): no
 * prototype, like every parsed query, whose keys the client chooses (`?constructor=x` must not
 * read as a method, and `hasOwnProperty` is not there to call, on Fastify 3 either).
 */
export function emptyQuery(): Record<string, unknown> {
  return Object.create(null) as Record<string, unknown>
}

/**
 * Node's querystring parser with a key limit that fails loudly: a query with more keys than
 * `maxKeys` is refused, never silently cut. `querystring.parse`'s own `maxKeys` counts pairs and
 * drops the rest without a word (`a=1&a=2&...` would lose values, and the keys after them), so
 * it is turned off (0) and the distinct keys are counted here instead. Parsing every pair is
 * bounded anyway: the URL is part of the request head, which Node caps (16 KiB by default).
 */
export function queryParser(maxKeys: number): (text: string) => Record<string, unknown> {
  // A pair takes at least two characters with its separator, so a text this short cannot hold
  // more than maxKeys keys and needs no count (the common case: no array allocated per request).
  const shortEnough = maxKeys * 2 - 1
  return (text) => {
    if (text.length === 0) return emptyQuery()
    const parsed = parseQueryString(text, '&', '=', { maxKeys: 0 }) as Record<string, unknown>
    if (text.length > shortEnough && Object.keys(parsed).length > maxKeys) return TOO_MANY_QUERY_KEYS
    return parsed
  }
}

/**
 * A fragment (`#...`, which clients do not send but a raw request may) ends the URL: when it comes
 * before any `?`, the request has no query. find-my-way 9 would read `/raw#frag` as the query
 * `frag`; Fastify 3 reads the query after the first `?` only. After a `?`, a `#` stays part of the
 * query text, as in Fastify 3 (`?a=1#b` is `{ a: '1#b' }`).
 */
export function fragmentBeforeQuery(url: string): boolean {
  const hash = url.indexOf('#')
  if (hash === -1) return false
  const question = url.indexOf('?')
  return question === -1 || hash < question
}

/**
 * find-my-way behind a three-method interface; our compiled route is the `store`. Static paths
 * without constraints live in a Map in front of it (static-routes.ts: same answers, a fraction of
 * the insert cost) until a route with constraints arrives: from then on find-my-way has them all
 * (from the start when a custom strategy must match when derived: a request's value then decides
 * for unconstrained routes too).
 */
export function createRouter(options: {
  ignoreTrailingSlash: boolean
  caseSensitive: boolean
  parseQuery: (text: string) => Record<string, unknown>
  /** Bounds what a regex parameter's regex is run on (regex-param-bound.ts); the 414 is the pipeline's. */
  maxParamLength: number
  /** createServer({ constraints, versioning })'s strategies; a `version` or `host` one replaces the built-in. */
  strategies?: Readonly<Record<string, ConstraintStrategy>> | null
}): Router {
  const strategies = options.strategies ?? null
  const noop = (): void => {}
  const router = FindMyWay({
    // Fastify's default: `/a/` is not `/a` unless the server option says so.
    ignoreTrailingSlash: options.ignoreTrailingSlash,
    caseSensitive: options.caseSensitive,
    // Parameter length is checked by the pipeline so that it can answer 414 instead of 404.
    maxParamLength: Number.MAX_SAFE_INTEGER,
    querystringParser: options.parseQuery,
    // Without this hook find() returns null for an undecodable URL, which would read as 404.
    onBadUrl: noop as never,
    ...(strategies === null ? {} : { constraints: strategies as never }),
  })
  // Constraint values are read from the request only once a route uses that constraint, as
  // find-my-way's own lookup() does: a request with an Accept-Version header matches only
  // versioned routes once there are some, and every route while there are none.
  let byVersion = false
  let byHost = false
  // Custom strategies whose values are read per request: those a route uses, and from the start
  // those that must match when derived (find-my-way 4, Fastify 3's router, notes them as used
  // when it is built: a derived value then turns away unconstrained routes).
  const customInUse = new Set<string>()
  const customVersion = strategies !== null && Object.hasOwn(strategies, 'version')
  const customHost = strategies !== null && Object.hasOwn(strategies, 'host')
  let derive = (raw: IncomingMessage): Record<string, unknown> => ({
    version: byVersion ? acceptVersion(raw.headers['accept-version']) : undefined,
    // HTTP/2 carries the host in :authority, which Node does not copy into `host` (Fastify 3 matches it too).
    host: byHost ? routableHost(raw.headers.host ?? raw.headers[':authority']) : undefined,
  })
  const useCustom = (name: string): void => {
    if (customInUse.has(name)) return
    customInUse.add(name)
    const inUse = [...customInUse].map((key) => [key, (strategies as Record<string, ConstraintStrategy>)[key]] as const)
    const builtIn = derive
    // Rebuilt only when a strategy comes into use (boot): per request one call per strategy in use.
    derive = (raw) => {
      const values = builtIn(raw)
      // find-my-way 4 calls deriveConstraint(req, ctx); Fastify 3's lookup passes no ctx.
      for (const [key, strategy] of inUse) values[key] = strategy.deriveConstraint(raw as never, undefined)
      return values
    }
  }
  let statics: StaticRoutes<CompiledRoute> | null = new StaticRoutes<CompiledRoute>(options.ignoreTrailingSlash, options.caseSensitive)
  if (strategies !== null) {
    for (const [name, strategy] of Object.entries(strategies)) {
      if (strategy.mustMatchWhenDerived === true) useCustom(name)
    }
    // A derived must-match value turns away an unconstrained static route too: find-my-way decides.
    if (customInUse.size > 0) statics = null
  }
  // Methods find-my-way has a tree for, and those whose tree starts with '' (a `*` route) instead of '/'.
  const treeMethods = new Set<string>()
  const starMethods = new Set<string>()
  let optionsCatchAll: CompiledRoute | null = null
  // Methods with a route declared `//`: Fastify 3 stores that path as written (and `/` as its other
  // spelling under ignoreTrailingSlash), so `//` reaches it there; without one, `//` is no root.
  const doubleSlashMethods = new Set<string>()
  const addToTree = (method: string, path: string, store: CompiledRoute | null, constraints: RouteConstraints | null): void => {
    // Noted first: find-my-way re-roots the tree for `*` even when the insert then fails as a duplicate.
    if (path === '*') starMethods.add(method)
    const stored = boundRegexParams(path, options.maxParamLength)
    try {
      if (constraints === null) router.on(method as never, stored, noop as never, store as never)
      else router.on(method as never, stored, { constraints } as never, noop as never, store as never)
    } catch (error) {
      // find-my-way quotes the regex it refused ("The regex '(...)' is not safe!"): as the route wrote it.
      if (stored !== path && error instanceof Error) {
        error.message = asWritten(error.message, path, options.maxParamLength)
        if (error.stack !== undefined) error.stack = asWritten(error.stack, path, options.maxParamLength)
      }
      throw error
    }
    treeMethods.add(method)
  }
  return {
    versioned: () => byVersion || customVersion,
    on: (method, path, route, constraints, declared) => {
      // Fastify 3 leaves a root `*` unprefixed, so find-my-way matches the asterisk form to it; `/*` does not match it.
      if (method === 'OPTIONS' && constraints === null && path === '/*' && declared === '*') optionsCatchAll = route
      if (path === '//') doubleSlashMethods.add(method)
      if (constraints !== null) {
        for (const name in constraints) {
          if (strategies !== null && Object.hasOwn(strategies, name)) useCustom(name)
        }
        // Set before the first versioned route is stored, as find-my-way allows (version-strategy.ts).
        if (!byVersion && constraints.version !== undefined && !customVersion) router.addConstraintStrategy(versionStrategy as never)
        byVersion ||= constraints.version !== undefined && !customVersion
        byHost ||= constraints.host !== undefined && !customHost
        // A constrained route can share a static path with an unconstrained one, and the request's
        // headers then decide between them: find-my-way takes every static route from here on.
        if (statics !== null) {
          for (const entry of statics.entries()) addToTree(entry.method, entry.path, entry.store, null)
          statics = null
        }
      }
      if (statics === null || constraints !== null || !isStaticPath(method, path)) { addToTree(method, path, route, constraints); return }
      // find-my-way answers a bad URL (onBadUrl) only for a method it has a tree for: this route
      // no URL can reach (a lone surrogate never comes out of decoding) gives it one.
      if (!treeMethods.has(method)) addToTree(method, UNREACHABLE_PATH, null, null)
      statics.add(method, path, route)
    },
    find: (method, url, raw) => {
      // find-my-way 9 takes any first character for the '/' of the root ('*admin' finds '/admin').
      if (url.charCodeAt(0) !== 47 && !isRoutableTarget(url)) {
        // `OPTIONS *` (asterisk-form, RFC 9110 7.1) reaches the OPTIONS catch-all route `*`
        // (@fastify/cors's preflight route) with params { '*': '*' }, as in Fastify 3. Nothing else
        // does: not `/:id`, which find-my-way would also match, nor another method's target.
        if (url !== '*' || method !== 'OPTIONS' || optionsCatchAll === null) return null
        return { store: optionsCatchAll, params: { '*': '*' }, searchParams: emptyQuery() }
      }
      // Under ignoreTrailingSlash find-my-way 9 trims `//` to the root route `/`; Fastify 3's router
      // (find-my-way 4) does not: a 404 there, and here (a `/:x` or `/*` route still takes it), unless
      // a route was declared `//` (then both find it, as Fastify 3 answers both of its spellings).
      const doubleSlash = options.ignoreTrailingSlash && url.charCodeAt(1) === 47 && isDoubleSlashRoot(url) && !doubleSlashMethods.has(method)
      const hit = statics === null || doubleSlash ? null : statics.find(method, url, starMethods)
      // A static route has no parameters: Fastify 3's params there is an empty plain object too.
      if (hit !== null) return { store: hit, params: {}, searchParams: options.parseQuery((statics as StaticRoutes<CompiledRoute>).hitQuery) }
      const values = raw !== undefined && (byVersion || byHost || customInUse.size > 0) ? derive(raw) as never : undefined
      const found = router.find(method as never, url, values) as unknown as RouteMatch | null
      if (doubleSlash && found !== null && Object.keys(found.params).length === 0) return null
      const match = options.ignoreTrailingSlash && (found === null || '*' in found.params) ? matchAsSent(url, found, (exact) => {
        // A static route `/x//` is Fastify 3's at `/x/` too (its other spelling; seed 41 case 229).
        const twin = statics === null || doubleSlash ? null : statics.find(method, exact, starMethods)
        if (twin !== null) return { store: twin, params: {}, searchParams: options.parseQuery((statics as StaticRoutes<CompiledRoute>).hitQuery) }
        return router.find(method as never, exact, values) as unknown as RouteMatch | null
      }) : found
      if (match === null) return null
      if (fragmentBeforeQuery(url)) match.searchParams = emptyQuery()
      match.params = plainParams(match.params)
      return match
    },
    has: (method, path, constraints) => statics !== null && constraints === null && isStaticPath(method, path)
      ? statics.has(method, path)
      : router.hasRoute(method as never, boundRegexParams(path, options.maxParamLength), (constraints ?? undefined) as never),
  }
}

const UNREACHABLE_PATH = '/\uD800'

/**
 * Under ignoreTrailingSlash Fastify 3's router (find-my-way 4) adds each route's other spelling
 * (`/a` and `/a/`) but matches the path as sent, so a `*` route takes the trailing slash into its
 * value (`/s/a/` is `a/`, `/s/` is `''` for `/s/*`) and `/p/` reaches `/p/:id` with an empty id;
 * find-my-way 9 trims the path first (`a`, and `/s/`, `/p/` found nothing). When the trimmed path
 * found no route or only a `*` one, the path as sent is asked again (one more `/`, which find-my-way
 * 9 trims back) and its match wins: a route the trimmed path found without `*` is the one Fastify 3
 * reaches through its added spelling, so it stays.
 */
function matchAsSent(url: string, found: RouteMatch | null, find: (url: string) => RouteMatch | null): RouteMatch | null {
  const end = pathEnd(url)
  if (end < 2 || url.charCodeAt(end - 1) !== 47) return found
  return find(`${url.slice(0, end)}/${url.slice(end)}`) ?? found
}

/** `//`, with or without a query or fragment. */
function isDoubleSlashRoot(url: string): boolean {
  const next = url.charCodeAt(2)
  return url.length === 2 || next === 63 || next === 35
}

/** True for a request target the router matches: a path, or the absolute form (request-target.ts). */
export function isRoutableTarget(url: string): boolean {
  return url.charCodeAt(0) === 47 || absolutePathStart(url) !== -1
}

/**
 * Accept-Version as Fastify 3 reads it (its router's semver-store): `1.2` is `1.2.x`, the highest
 * 1.2 patch, and a bare `x` names no version. find-my-way 9 knows neither spelling: it answered
 * `1.2` with 404 and `x` with the highest version. Other values are its keys already.
 */
function acceptVersion(header: string | string[] | undefined): string | string[] | undefined {
  if (typeof header !== 'string') return header
  // An empty header asks for no version: Fastify 3.27.4 routes it as if absent (the unversioned route).
  if (header === '') return undefined
  if (header === 'x') return ''
  return twoPartVersion.test(header) ? `${header}.x` : header
}

const twoPartVersion = /^\d+\.\d+$/

/**
 * The most a Host naming a DNS name can hold: 253 characters, a trailing dot, and `:65535`.
 * Node lets a Host value be as long as the request head (~16 KB), and find-my-way runs each
 * RegExp host constraint on it whole (and keeps up to 1,000 results keyed by the value): a
 * plausible `/.*\.example\.com$/`, unanchored, is quadratic there (a 15,000-character Host cost
 * 0.24 s of CPU per request). A longer value names no host any route can serve: it is matched
 * as if no Host had been sent (unconstrained routes only), never given to a constraint.
 */
export const MAX_ROUTABLE_HOST = 260

function routableHost(value: string | string[] | undefined): string | string[] | undefined {
  return typeof value === 'string' && value.length > MAX_ROUTABLE_HOST ? undefined : value
}
