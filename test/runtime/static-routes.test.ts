import { expect } from 'chai'
import FindMyWay from 'find-my-way'
import type { IncomingMessage } from 'node:http'
import { createRouter, fragmentBeforeQuery, isRoutableTarget, queryParser, type RouteConstraints } from '../../src/runtime/serve/router'
import { isStaticPath } from '../../src/runtime/serve/static-routes'
import type { CompiledRoute } from '../../src/runtime/serve/compiled-route'
import { build } from './helpers'

// Issue 16 §1: static routes sit in a Map in front of find-my-way. These tests hold the router to
// find-my-way's own answers, on every kind of route and of URL the two could disagree on.

const ROUTE_PATHS = [
  '/', '/a', '/a/', '/a/b', '/a/b/', '/ab', '/abc/d', '/café', '/a b', '/A', '/x/y/z', '/a/b/c',
  '/a/:x', '/a/:x/c', '/:x', '/:x/b', '/a/:x-:y', '/a/*', '/*', '/n/:id(^\\d+$)', '/a/b/:z', '/a%2Fb', '/k::v', '/w/*', '*', '/%', '/a/b/c/',
]
const METHODS = ['GET', 'POST', 'HEAD']
const URL_PARTS = ['', '/', 'a', 'b', 'ab', 'c', 'A', 'x', 'y', 'z', 'caf%C3%A9', 'café', 'a%20b', '%61', '%2F', '%2f', '%3A', '%25',
  '%E0%A4%A', '%zz', '%', 'k:v', 'n', '42', 'w', 'abc', 'd', '-']
const SUFFIXES = ['', '/', '?q=1', '?a=1&a=2', '#frag', '/?x', '?', '//', '?%zz']

/** A small deterministic PRNG (mulberry32): the same tables and URLs on every run. */
function prng(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

interface Outcome { threw: boolean }

function insert(on: () => void): Outcome {
  try { on(); return { threw: false } } catch { return { threw: true } }
}

/** What a match says, as plain data: which route, the params (and their null prototype), the query. */
function describe_(match: unknown, names: Map<unknown, string>): unknown {
  if (match === null) return null
  const m = match as { store: unknown; params: Record<string, unknown>; searchParams?: Record<string, unknown> }
  return {
    store: m.store === null ? null : names.get(m.store),
    params: { ...m.params },
    nullPrototype: Object.getPrototypeOf(Object.getPrototypeOf(m.params) ?? {}) === null,
    searchParams: m.searchParams === undefined ? undefined : { ...m.searchParams },
  }
}

describe('runtime: static routes in front of find-my-way (issue 16 §1)', () => {
  it('isStaticPath takes only plain paths of Enclave methods', () => {
    expect(isStaticPath('GET', '/a/b')).to.equal(true)
    expect(isStaticPath('GET', '/a/:id')).to.equal(false)
    expect(isStaticPath('GET', '/a/*')).to.equal(false)
    expect(isStaticPath('GET', '/k::v')).to.equal(false)
    expect(isStaticPath('GET', '/a%2Fb')).to.equal(false)
    expect(isStaticPath('GET', '*')).to.equal(false)
    expect(isStaticPath('PROPFIND', '/a')).to.equal(false)
  })

  for (const [ignoreTrailingSlash, caseSensitive] of [[false, true], [true, true], [false, false], [true, false]]) {
    it(`answers every URL as find-my-way alone does, but for a fragment's query, // under ignoreTrailingSlash and a target that is not a path (ignoreTrailingSlash ${ignoreTrailingSlash}, caseSensitive ${caseSensitive}, constraints or none)`, () => {
      const random = prng((ignoreTrailingSlash ? 16 : 61) + (caseSensitive ? 0 : 7))
      const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]
      for (let table = 0; table < Number(process.env.ROUTER_TABLES ?? 40); table++) {
        const parseQuery = queryParser(1000)
        const ours = createRouter({ ignoreTrailingSlash, caseSensitive, parseQuery, maxParamLength: 100 })
        const reference = FindMyWay({ ignoreTrailingSlash, caseSensitive, maxParamLength: Number.MAX_SAFE_INTEGER, querystringParser: parseQuery, onBadUrl: () => {} })
        const names = new Map<unknown, string>()
        const declared: Array<[string, string, RouteConstraints | null]> = []
        let versioned = false
        for (let r = 0; r < 12; r++) {
          const method = pick(METHODS)
          const path = pick(ROUTE_PATHS)
          const constraints: RouteConstraints | null = random() < 0.05 ? { version: '1.0.0' } : null
          const store = { id: `${method} ${path} #${r}` } as unknown as CompiledRoute
          names.set(store, (store as unknown as { id: string }).id)
          const theirs = insert(() => constraints === null
            ? reference.on(method as never, path, () => {}, store as never)
            : reference.on(method as never, path, { constraints } as never, () => {}, store as never))
          const mine = insert(() => ours.on(method, path, store, constraints))
          expect(mine.threw, `insert ${method} ${path} after ${JSON.stringify(declared)}`).to.equal(theirs.threw)
          if (!theirs.threw) declared.push([method, path, constraints])
          versioned ||= constraints !== null
        }
        for (const [method, path, constraints] of declared) {
          for (const probe of [method, 'HEAD', 'PUT']) {
            expect(ours.has(probe, path, constraints), `has ${probe} ${path}`).to.equal(reference.hasRoute(probe as never, path, (constraints ?? undefined) as never))
            expect(ours.has(probe, path.toUpperCase(), null), `has ${probe} ${path.toUpperCase()}`).to.equal(reference.hasRoute(probe as never, path.toUpperCase()))
            // The other trailing-slash spelling: under ignoreTrailingSlash find-my-way 9.10.2's
            // hasRoute trims it as on() does (Fastify 3's HEAD lookup, router.find, trims too).
            const other = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : `${path}/`
            // (Not after a wildcard: `/a/*/` is no route path, which only find-my-way's tree checks.)
            if (!path.endsWith('*')) {
              expect(ours.has(probe, other, constraints), `has ${probe} ${other}`).to.equal(reference.hasRoute(probe as never, other, (constraints ?? undefined) as never))
            }
          }
        }
        for (let u = 0; u < 150; u++) {
          const segments = Math.floor(random() * 4)
          let url = ''
          for (let s = 0; s < segments; s++) url += `/${pick(URL_PARTS)}`
          url = (url === '' ? '/' : url) + pick(SUFFIXES)
          const form = random()
          if (form < 0.05) url = `http://host${url}`
          else if (form < 0.1) url = pick(['*', 'xa', 'x/a/b', '', 'http://host', 'HTTPS://h?x=1', 'ftp://h/a', 'http://h/a#x', 'http:///a', 'a', '?'])
          else if (form < 0.2) url = url.toUpperCase()
          const version = pick(['1.0.0', '2.0.0', undefined])
          const raw = { headers: { 'accept-version': version, host: 'h' } } as unknown as IncomingMessage
          for (const method of METHODS) {
            // Deliberate differences: a target that is neither a path nor `http(s)://host/...` (`*`,
            // `xa`, `HTTPS://h`) matches nothing, as in Fastify 3 (find-my-way reads its first
            // character as the root's '/'); a fragment before any `?` leaves no query (find-my-way reads one).
            const lookup = (target: string): { searchParams: unknown; params: object } | null => reference.find(method as never, target, (versioned ? { version, host: undefined } : undefined) as never) as never
            let expected = isRoutableTarget(url) ? lookup(url) : null
            // Under ignoreTrailingSlash a path ending in `/` that the trimmed path finds nothing or
            // only a `*` route for is matched as sent, as Fastify 3 does (`*` keeps the slash, `/p/`
            // reaches `/p/:id`): find-my-way 9 asked with one more `/`, which it trims back.
            const end = url.search(/[?#]|$/)
            if (ignoreTrailingSlash && isRoutableTarget(url) && end > 1 && url[end - 1] === '/' && (expected === null || '*' in expected.params)) {
              expected = lookup(`${url.slice(0, end)}/${url.slice(end)}`) ?? expected
            }
            if (expected !== null && fragmentBeforeQuery(url)) expected.searchParams = {}
            const found = ours.find(method, url, raw)
            // `//` is not the root route under ignoreTrailingSlash, as in Fastify 3 (find-my-way 9
            // trims it to `/`): ours answers it from a parametric or wildcard route, or not at all.
            if (ignoreTrailingSlash && /^\/\/(?:[?#]|$)/.test(url) && expected !== null && Object.keys((expected as unknown as { params: object }).params).length === 0) {
              expect(found === null || Object.keys(found.params).length > 0, `${method} ${url} with ${JSON.stringify(declared)}`).to.equal(true)
              continue
            }
            expect(describe_(found, names), `${method} ${url} (version ${String(version)}) with ${JSON.stringify(declared)}`)
              .to.deep.equal(describe_(expected, names))
          }
        }
      }
    })
  }

  it('an absolute-form URL finds a static route as find-my-way does, with and without a * route declared for its method', () => {
    for (const star of [false, true]) {
      const parseQuery = queryParser(1000)
      const ours = createRouter({ ignoreTrailingSlash: false, caseSensitive: true, parseQuery, maxParamLength: 100 })
      const reference = FindMyWay({ ignoreTrailingSlash: false, caseSensitive: true, maxParamLength: Number.MAX_SAFE_INTEGER, querystringParser: parseQuery, onBadUrl: () => {} })
      const routes = star ? ['/a', '/', '*'] : ['/a', '/']
      for (const path of routes) {
        const store = { id: path } as unknown as CompiledRoute
        ours.on('GET', path, store, null)
        reference.on('GET', path, () => {}, store as never)
      }
      for (const url of ['http://host/a', 'http://host/a?x=1', 'https://host/', 'http://host/b', '/a', '/a?y=2']) {
        const mine = ours.find('GET', url)
        const theirs = reference.find('GET', url) as unknown as { store: unknown } | null
        expect(mine?.store ?? null, `${url} (* route: ${star})`).to.equal(theirs?.store ?? null)
      }
    }
  })

  it('a static route and a parametric one on the same path: the static one answers its own URL only', async () => {
    const app = await build((root) => {
      root.get('/users/me', async () => 'static')
      root.get('/users/:id', async (req) => `param ${String((req.params as { id: string }).id)}`)
    })
    const reply = async (url: string): Promise<string> => (await app.inject({ method: 'GET', url })).body
    expect(await reply('/users/me')).to.equal('static')
    expect(await reply('/users/me?x=1')).to.equal('static')
    expect(await reply('/users/%6De')).to.equal('static')
    expect(await reply('/users/mee')).to.equal('param mee')
    expect((await app.inject({ method: 'GET', url: '/users/me/' })).statusCode).to.equal(404)
  })

  it('the lookup judges the path by its length after decoding, trimming and lower-casing: an escaped, slashed or upper-case spelling of a static path still finds it, a path of no static length goes to find-my-way', () => {
    for (const [ignoreTrailingSlash, caseSensitive] of [[false, true], [true, false]] as const) {
      const ours = createRouter({ ignoreTrailingSlash, caseSensitive, parseQuery: queryParser(1000), maxParamLength: 100 })
      const statics = { id: 'static' } as unknown as CompiledRoute
      const parametric = { id: 'parametric' } as unknown as CompiledRoute
      ours.on('GET', '/two', statics, null)
      ours.on('GET', '/api/:id/files/:fileId', parametric, null)
      const where = `(ignoreTrailingSlash ${ignoreTrailingSlash}, caseSensitive ${caseSensitive})`
      // Longer as sent than any static path: the length is taken after decodeURI.
      expect(ours.find('GET', '/%74%77%6F')?.store, `/%74%77%6F ${where}`).to.equal(statics)
      expect(ours.find('GET', '/two?with=a-long-query-string')?.store, where).to.equal(statics)
      expect(ours.find('GET', '/api/8812/files/report-2026.pdf')?.store, where).to.equal(parametric)
      expect(ours.find('GET', '/api/8812/files/report-2026.pdf')?.params, where).to.deep.equal({ id: '8812', fileId: 'report-2026.pdf' })
      expect(ours.find('GET', '/three'), where).to.equal(null)
      if (ignoreTrailingSlash) expect(ours.find('GET', '/two/')?.store, `/two/ ${where}`).to.equal(statics)
      if (!caseSensitive) expect(ours.find('GET', '/TWO')?.store, `/TWO ${where}`).to.equal(statics)
    }
  })
})
