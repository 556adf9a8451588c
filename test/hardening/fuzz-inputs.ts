/**
 * Inputs for the fuzz test: a seeded PRNG and generators of random and mutated JSON bodies,
 * query strings and paths. Everything is derived from the seed, so a failure prints an input
 * that can be replayed exactly.
 */

export type Random = () => number

export { mulberry32 } from '../../bench/harness/prng'

export const int = (r: Random, max: number): number => Math.floor(r() * max)
export const pick = <T>(r: Random, items: readonly T[]): T => items[int(r, items.length)]

/** Strings that break parsers, escapers and validators in practice. */
const NASTY = ['', ' ', '"', '\\', '\\"', '\u0000', '\n', '\r\n', '\t', '%', '%zz', '%00', '%E0%A4%A', '&', '=', '[]', '{}', 'é', '😀', '\uD800',
  '__proto__', 'constructor', 'prototype', 'null', 'true', '-0', '1e309', 'NaN', '<script>', "'", '${x}', 'a'.repeat(300)]

export function randomString(r: Random): string {
  if (r() < 0.4) return pick(r, NASTY)
  let s = ''
  const length = int(r, 12)
  for (let i = 0; i < length; i++) s += r() < 0.9 ? String.fromCharCode(32 + int(r, 95)) : String.fromCharCode(int(r, 0x3000))
  return s
}

const NUMBERS = [0, -1, 1, 1.5, -0.0001, 1e21, -1e21, 2 ** 53, 2 ** 53 + 2, Number.MAX_VALUE, Number.MIN_VALUE, 49, 50, 51, 100, 101]

export function randomValue(r: Random, depth = 0): unknown {
  const roll = r()
  if (depth > 4 || roll < 0.15) return pick(r, NUMBERS)
  if (roll < 0.35) return randomString(r)
  if (roll < 0.45) return pick(r, [true, false, null])
  if (roll < 0.7) return Array.from({ length: int(r, 5) }, () => randomValue(r, depth + 1))
  const object: Record<string, unknown> = {}
  const keys = int(r, 5)
  for (let i = 0; i < keys; i++) object[r() < 0.5 ? pick(r, ['name', 'price', 'tags', 'id', 'c', 'v', 'q']) : randomString(r)] = randomValue(r, depth + 1)
  return object
}

/** A valid item for POST /items, then one of many mutations (or none). */
export function itemBody(r: Random): string {
  const item: Record<string, unknown> = { name: `w${int(r, 1000)}`, price: int(r, 100), tags: ['a', 'b'].slice(0, int(r, 3)) }
  const mutation = int(r, 10)
  if (mutation === 1) delete item[pick(r, ['name', 'price'])]
  else if (mutation === 2) item[pick(r, ['name', 'price', 'tags'])] = randomValue(r)
  else if (mutation === 3) item[randomString(r)] = randomValue(r)
  else if (mutation === 4) item.tags = Array.from({ length: int(r, 10) }, () => randomValue(r))
  return mutateText(r, JSON.stringify(item), mutation >= 7 ? 1 + int(r, 3) : 0)
}

/** Byte-level mutations of a JSON text: cut it, insert, delete, swap, or wrap it deep. */
export function mutateText(r: Random, text: string, times: number): string {
  let out = text
  for (let i = 0; i < times; i++) {
    const at = int(r, out.length + 1)
    const kind = int(r, 7)
    if (kind === 0) out = out.slice(0, at)
    else if (kind === 1) out = out.slice(0, at) + pick(r, ['{', '}', '[', ']', '"', ',', ':', '\\', '\\u00', 'null', '"__proto__":{}', '1e999']) + out.slice(at)
    else if (kind === 2) out = out.slice(0, at) + out.slice(at + 1 + int(r, 4))
    else if (kind === 3) out = out.slice(0, at) + String.fromCharCode(int(r, 256)) + out.slice(at + 1)
    else if (kind === 4) { const depth = pick(r, [10, 999, 1000, 1001, 5000]); out = '['.repeat(depth) + out + ']'.repeat(depth) }
    else if (kind === 5) out = out + out
    else out = out.replace(/"(\w)/, '"\\u00' + '5f') // an escaped key start
  }
  return out
}

/** Random JSON of any shape for the recursive-schema and schema-less routes. */
export function anyBody(r: Random): string {
  const roll = r()
  if (roll < 0.1) return mutateText(r, JSON.stringify(randomValue(r)), 1 + int(r, 3))
  if (roll < 0.2) { const depth = pick(r, [500, 998, 999, 1000, 1001, 20_000]); return '{"c":'.repeat(depth) + '{"v":1}' + '}'.repeat(depth) }
  return JSON.stringify(randomValue(r))
}

/** A query-string fragment: plain, repeated, bracketed, percent-escaped, or broken. */
export function queryString(r: Random): string {
  const parts: string[] = []
  const count = int(r, 6)
  for (let i = 0; i < count; i++) {
    const key = r() < 0.6 ? pick(r, ['q', 'limit', 'tags', 'tags[]', 'x']) : encodeLoosely(r, randomString(r))
    const value = r() < 0.5 ? pick(r, ['abc', '1', '0', '100', '101', '-5', '2.5', 'true', '', '1e309', 'Infinity', '-Infinity']) : encodeLoosely(r, randomString(r))
    parts.push(r() < 0.1 ? key : `${key}=${value}`)
  }
  if (r() < 0.05) for (let i = 0; i < 1001; i++) parts.push(`k${i}=1`)
  return parts.join(pick(r, ['&', '&', '&', '&&', ';']))
}

/** A path for the schema routes: ids valid, wrong, long, escaped or broken. */
export function path(r: Random): string {
  const id = pick(r, [String(1 + int(r, 1000)), '0', '-1', 'abc', '1.5', '1e309', 'Infinity', '-1e999', '9'.repeat(101), '%31%32', '%zz', '%E0%A4%A', '..', '%2e%2e', '"', '\\', encodeLoosely(r, randomString(r))])
  return pick(r, [`/users/${id}`, `/users/${id}/`, `/users//${id}`, `/users/${id}/x`, `/items/${id}`, `/${id}`, `/search/${id}`])
}

/** Percent-encodes what an HTTP client would refuse to put in a URL, keeps the rest as typed. */
export function encodeLoosely(r: Random, text: string): string {
  let out = ''
  for (const ch of text) {
    const code = ch.codePointAt(0) as number
    out += code <= 0x20 || code >= 0x7f || ch === '#' || ch === '?' ? encodeURIComponent(ch === '\uD800' ? '?' : ch) : ch
  }
  return r() < 0.1 ? out + '%' : out
}
