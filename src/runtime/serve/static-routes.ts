/**
 * Static routes (no parameter, no wildcard) in a Map per method, looked up before find-my-way.
 *
 * Why: find-my-way 9 compiles functions on every insert (a prefix matcher per tree node, a params
 * factory and a constraint matcher per route), about 60 µs a route: 11% of an eager boot of
 * 1,000 routes (issue 16). A Map insert costs nearly nothing, and a lookup is one hash.
 *
 * Why the answers stay find-my-way's: find-my-way explores static edges before parametric and
 * wildcard ones at every node, so a URL equal to a static route's path always finds that route,
 * and a route that does not equal the URL never takes part in its match. Taking the static routes
 * out of the tree therefore changes no other URL's answer. The URL is turned into the path
 * find-my-way would match exactly as it does: the query string cut at the first `?` or `#`,
 * percent-escapes decoded with decodeURI unless one spells a reserved character (then the path
 * keeps a `%`, which no static route here holds, so find-my-way decides), and the trailing slash
 * trimmed under ignoreTrailingSlash. Anything unusual (an absolute URL, a bad escape) is left to
 * find-my-way. test/runtime/static-routes.test.ts checks the two against each other.
 */

/** Methods the Map may hold (Enclave's own); any other goes to find-my-way, which checks it. */
const MAP_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/**
 * True when find-my-way would store `path` as plain characters: no parameter (`:`), wildcard
 * (`*`), regular expression or escaped colon, and no `%` (which find-my-way re-encodes).
 */
export function isStaticPath(method: string, path: string): boolean {
  if (!MAP_METHODS.has(method) || path.charCodeAt(0) !== 47) return false
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i)
    if (c === 58 || c === 42 || c === 37 || c === 40) return false // : * % (
  }
  return true
}

// What decodeURI leaves escaped (and `%` itself): find-my-way keeps these encoded in the path it matches.
const RESERVED_ESCAPE = /%(2[3456bBcCfF]|3[aAbBdDfF]|40)/

export class StaticRoutes<T> {
  /**
   * The raw query string ('' when none) of the URL the last find() matched, for the router's query
   * parser: read right after a hit, so that a hit allocates no result object of its own.
   */
  hitQuery = ''
  readonly #byMethod = new Map<string, Map<string, T>>()
  /** Every route as added, in order, for handing them to find-my-way. */
  readonly #added: Array<{ method: string; path: string; store: T }> = []
  readonly #ignoreTrailingSlash: boolean
  readonly #caseSensitive: boolean
  /**
   * The lengths of the stored keys, any method. A URL with parameters (`/api/res099/8812/files/x.pdf`)
   * is usually longer than every static path, and a miss on this Set (a small integer's hash) skips
   * hashing the request's fresh path string for the Map: ~90 of the ~130 ns Enclave's lookup spent
   * over find-my-way's own on a parametric URL (perf22, in process).
   */
  readonly #keyLengths = new Set<number>()

  constructor(ignoreTrailingSlash: boolean, caseSensitive: boolean) {
    this.#ignoreTrailingSlash = ignoreTrailingSlash
    this.#caseSensitive = caseSensitive
  }

  /** The path as find-my-way stores and matches it: trailing slash trimmed (if asked), then lower-cased (if asked). */
  #key(path: string): string {
    const trimmed = this.#ignoreTrailingSlash && path.length > 1 && path.charCodeAt(path.length - 1) === 47 ? path.slice(0, -1) : path
    return this.#caseSensitive ? trimmed : trimmed.toLowerCase()
  }

  /** Adds a route whose path passed isStaticPath; a second one for the same method and path throws, as find-my-way does. */
  add(method: string, path: string, store: T): void {
    let table = this.#byMethod.get(method)
    if (table === undefined) this.#byMethod.set(method, table = new Map())
    const key = this.#key(path)
    if (table.has(key)) throw new Error(`Method '${method}' already declared for route '${key}'`)
    table.set(key, store)
    this.#keyLengths.add(key.length)
    this.#added.push({ method, path, store })
  }

  entries(): ReadonlyArray<{ method: string; path: string; store: T }> {
    return this.#added
  }

  /**
   * As find-my-way's hasRoute (9.10.2 on): the path normalised as on insert, so under
   * ignoreTrailingSlash `/a/` finds a route declared `/a` and the other way round, as Fastify 3's
   * own lookup of a declared HEAD route (`router.find`, which trims) does.
   */
  has(method: string, path: string): boolean {
    return this.#byMethod.get(method)?.has(this.#key(path)) === true
  }

  /**
   * The static route a request URL names, or null: find-my-way then decides (a miss, a parametric
   * route, a bad URL). `starMethods`: the methods whose find-my-way tree starts with '' (a `*` route
   * was declared) instead of `/`; only an absolute URL needs it, so a path pays no lookup in it.
   */
  find(method: string, url: string, starMethods: ReadonlySet<string>): T | null {
    const table = this.#byMethod.get(method)
    if (table === undefined) return null
    if (url.charCodeAt(0) !== 47) {
      const path = pathOfAbsoluteUrl(url)
      // find-my-way skips its root's first character without reading it: `*` finds the route `/`.
      if (path === null || path.length === 0) return null
      if (path.charCodeAt(0) === 47) return this.find(method, path, starMethods)
      return starMethods.has(method) ? null : this.find(method, `/${path.slice(1)}`, starMethods)
    }
    let end = url.indexOf('?', 1)
    const hash = url.indexOf('#', 1)
    if (hash !== -1 && (end === -1 || hash < end)) end = hash
    let path = end === -1 ? url : url.slice(0, end)
    if (path.indexOf('%', 1) !== -1) {
      if (RESERVED_ESCAPE.test(path)) return null
      try {
        path = decodeURI(path)
      } catch {
        return null
      }
    }
    const key = this.#key(path)
    if (!this.#keyLengths.has(key.length)) return null
    const store = table.get(key)
    if (store === undefined) return null
    // A fragment before any `?` leaves no query (router.ts fragmentBeforeQuery).
    this.hitQuery = end === -1 || url.charCodeAt(end) === 35 ? '' : url.slice(end + 1)
    return store
  }
}

/**
 * The path find-my-way matches for a request target that does not start with `/`: an absolute
 * `http(s)://` URL's path (`/` when it has none), the target itself for any other form, or null
 * when find-my-way calls it a bad URL (a fragment, no host, a URL that does not parse).
 */
function pathOfAbsoluteUrl(url: string): string | null {
  const schemeEnd = url.indexOf('://')
  if (schemeEnd === -1) return url
  const scheme = url.slice(0, schemeEnd).toLowerCase()
  if (scheme !== 'http' && scheme !== 'https') return url
  const authorityStart = schemeEnd + 3
  const pathStart = url.indexOf('/', authorityStart)
  const queryStart = url.indexOf('?', authorityStart)
  let authorityEnd = pathStart === -1 ? url.length : pathStart
  if (queryStart !== -1 && queryStart < authorityEnd) authorityEnd = queryStart
  if (url.indexOf('#', authorityStart) !== -1 || authorityEnd === authorityStart) return null
  const parsed = URL.canParse(url) ? new URL(url) : null
  if (parsed === null || parsed.protocol !== `${scheme}:` || parsed.host.length === 0) return null
  if (authorityEnd === url.length) return '/'
  return authorityEnd === queryStart ? `/${url.slice(queryStart)}` : url.slice(pathStart)
}
