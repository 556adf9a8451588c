/**
 * The soak's request mix: valid requests for every schema route and the invalid shapes a public
 * service meets every day, each with the one status a correct server answers. URLs and bodies
 * vary (a seeded PRNG), so a cache or a map keyed by anything from the request would grow and
 * show up in the RSS figures.
 */
import { validItem, invalidItem } from '../servers/schemas'

export interface SoakRequest {
  readonly kind: string
  readonly method: string
  readonly path: string
  readonly headers: Record<string, string>
  readonly body: string | null
  /** The status a correct server answers. */
  readonly expect: number
  /** Abort after sending half the body: the server must count it and keep nothing. */
  readonly abort: boolean
}

const JSON_TYPE = { 'content-type': 'application/json' }

type Maker = (random: () => number) => Omit<SoakRequest, 'kind' | 'abort'> & { abort?: boolean }

/** Kind -> weight and maker. Mostly valid traffic, a steady share of every kind of refusal. */
const MIX: ReadonlyArray<readonly [string, number, Maker]> = [
  ['two', 20, () => ({ method: 'GET', path: '/two', headers: {}, body: null, expect: 200 })],
  ['item', 15, (r) => ({ method: 'POST', path: '/items', headers: JSON_TYPE, body: JSON.stringify({ ...validItem, name: `w${Math.floor(r() * 1e9)}` }), expect: 201 })],
  ['search', 10, (r) => ({ method: 'GET', path: `/search?q=${Math.floor(r() * 1e9).toString(36)}&limit=${1 + Math.floor(r() * 20)}`, headers: {}, body: null, expect: 200 })],
  ['user', 10, (r) => ({ method: 'GET', path: `/users/${1 + Math.floor(r() * 1e6)}`, headers: { 'x-trace': Math.floor(r() * 1e9).toString(16) }, body: null, expect: 200 })],
  ['user-put', 5, (r) => { const id = 1 + Math.floor(r() * 1e6); return { method: 'PUT', path: `/users/${id}`, headers: JSON_TYPE, body: JSON.stringify({ id, name: 'n' }), expect: 200 } }],
  ['item-invalid', 6, () => ({ method: 'POST', path: '/items', headers: JSON_TYPE, body: JSON.stringify(invalidItem), expect: 400 })],
  ['item-missing', 3, () => ({ method: 'POST', path: '/items', headers: JSON_TYPE, body: '{"price":3}', expect: 400 })],
  ['json-malformed', 3, (r) => ({ method: 'POST', path: '/items', headers: JSON_TYPE, body: `{"name":"x","price":${Math.floor(r() * 100)}`, expect: 400 })],
  ['json-proto', 2, () => ({ method: 'POST', path: '/items', headers: JSON_TYPE, body: '{"name":"x","price":1,"\\u005f_proto__":{"admin":true}}', expect: 400 })],
  ['json-deep', 2, () => ({ method: 'POST', path: '/items', headers: JSON_TYPE, body: '['.repeat(5000) + ']'.repeat(5000), expect: 400 })],
  ['media-type', 2, () => ({ method: 'POST', path: '/items', headers: { 'content-type': 'application/jsonx' }, body: '{}', expect: 415 })],
  ['too-large', 1, () => ({ method: 'POST', path: '/items', headers: JSON_TYPE, body: `{"name":"${'x'.repeat(70 * 1024)}","price":1}`, expect: 413 })],
  ['search-invalid', 3, () => ({ method: 'GET', path: '/search?limit=1000', headers: {}, body: null, expect: 400 })],
  ['user-invalid', 2, (r) => ({ method: 'GET', path: `/users/x${Math.floor(r() * 1e6)}`, headers: {}, body: null, expect: 400 })],
  ['param-too-long', 1, () => ({ method: 'GET', path: `/users/${'9'.repeat(150)}`, headers: {}, body: null, expect: 414 })],
  ['not-found', 3, (r) => ({ method: 'GET', path: `/nope/${Math.floor(r() * 1e9)}?x="\\`, headers: {}, body: null, expect: 404 })],
  ['wrong-method', 2, () => ({ method: 'DELETE', path: '/two', headers: {}, body: null, expect: 405 })],
  ['bad-url', 2, (r) => ({ method: 'GET', path: `/users/%E0%A4%Z${Math.floor(r() * 10)}`, headers: {}, body: null, expect: 400 })],
  ['head', 2, () => ({ method: 'HEAD', path: '/two', headers: {}, body: null, expect: 200 })],
  ['boom', 2, () => ({ method: 'GET', path: '/boom', headers: {}, body: null, expect: 500 })],
  ['bad-output', 1, () => ({ method: 'GET', path: '/bad-output', headers: {}, body: null, expect: 500 })],
  ['abort-mid-body', 2, (r) => ({ method: 'POST', path: '/items', headers: JSON_TYPE, body: JSON.stringify({ ...validItem, name: `a${Math.floor(r() * 1e9)}` }), expect: 0, abort: true })],
]

const totalWeight = MIX.reduce((sum, [, weight]) => sum + weight, 0)

/** The next request of the mix. */
export function nextRequest(random: () => number): SoakRequest {
  let pick = random() * totalWeight
  for (const [kind, weight, make] of MIX) {
    pick -= weight
    if (pick < 0) { const made = make(random); return { kind, abort: made.abort ?? false, ...made } }
  }
  const [kind, , make] = MIX[0]
  return { kind, abort: false, ...make(random) }
}
