// Comparisons with the meaning tap 15 gives them (tcompare): `same` is a loose deep equality,
// `strictSame` a strict one, `match` a partial pattern match. Only what Fastify's test files rely
// on; anything they do not use is left out rather than guessed.

type Bag = Record<string | symbol, unknown>

function isObject(value: unknown): value is Bag {
  return typeof value === 'object' && value !== null
}

function sameBuffers(a: unknown, b: unknown): boolean | null {
  if (!Buffer.isBuffer(a) && !Buffer.isBuffer(b)) return null
  return Buffer.isBuffer(a) && Buffer.isBuffer(b) && a.equals(b)
}

/** Deep equality; `strict` compares primitives with === and prototypes, else with == (tap's `same`). */
export function deepSame(found: unknown, wanted: unknown, strict: boolean, seen = new Map<unknown, unknown>()): boolean {
  if (found === wanted) return true
  if (!isObject(found) || !isObject(wanted)) {
    if (strict) return Number.isNaN(found) && Number.isNaN(wanted)
    // eslint-disable-next-line eqeqeq
    return (found == wanted) || (Number.isNaN(found) && Number.isNaN(wanted))
  }
  const buffers = sameBuffers(found, wanted)
  if (buffers !== null) return buffers
  if (seen.get(found) === wanted) return true
  seen.set(found, wanted)
  if (found instanceof Date || wanted instanceof Date) {
    return found instanceof Date && wanted instanceof Date && found.getTime() === wanted.getTime()
  }
  if (found instanceof RegExp || wanted instanceof RegExp) return String(found) === String(wanted)
  if (Array.isArray(found) !== Array.isArray(wanted)) return false
  if (strict && Object.getPrototypeOf(found) !== Object.getPrototypeOf(wanted)) return false
  if (found instanceof Map && wanted instanceof Map) return deepSame([...found], [...wanted], strict, seen)
  if (found instanceof Set && wanted instanceof Set) return deepSame([...found], [...wanted], strict, seen)
  const foundKeys = Object.keys(found)
  const wantedKeys = Object.keys(wanted)
  if (found instanceof Error && wanted instanceof Error) {
    if (found.message !== wanted.message || found.name !== wanted.name) return false
  }
  if (foundKeys.length !== wantedKeys.length) return false
  for (const key of wantedKeys) {
    if (!Object.prototype.hasOwnProperty.call(found, key)) return false
    if (!deepSame(found[key], wanted[key], strict, seen)) return false
  }
  return true
}

/**
 * tap's `match`: a string pattern is a substring of a string, a RegExp tests the string form,
 * a constructor checks the type, an object pattern checks only the keys it names, recursively.
 */
export function matches(found: unknown, pattern: unknown, seen = new Set<unknown>()): boolean {
  if (found === pattern) return true
  if (pattern === null || pattern === undefined) return found === pattern || (found === null || found === undefined)
  if (pattern instanceof RegExp) {
    if (found instanceof RegExp) return String(found) === String(pattern)
    return pattern.test(String(found))
  }
  if (typeof pattern === 'function') return matchesType(found, pattern)
  if (typeof pattern === 'string') {
    if (typeof found === 'string') return found.includes(pattern)
    if (Buffer.isBuffer(found)) return found.toString().includes(pattern)
    // eslint-disable-next-line eqeqeq
    return found == pattern
  }
  if (!isObject(pattern)) {
    // eslint-disable-next-line eqeqeq
    return found == pattern || (Number.isNaN(found) && Number.isNaN(pattern))
  }
  if (!isObject(found)) return false
  const buffers = sameBuffers(found, pattern)
  if (buffers !== null) return buffers
  if (pattern instanceof Date) return found instanceof Date && found.getTime() === pattern.getTime()
  if (seen.has(pattern)) return true
  seen.add(pattern)
  if (pattern instanceof Error) {
    if (!matches(found.message, pattern.message, seen)) return false
    if (pattern.name !== 'Error' && !matches(found.name, pattern.name, seen)) return false
  }
  if (Array.isArray(pattern)) {
    if (!Array.isArray(found) || found.length !== pattern.length) return false
    return pattern.every((item, index) => matches(found[index], item, seen))
  }
  for (const key of Object.keys(pattern)) {
    if (!matches(found[key], pattern[key], seen)) return false
  }
  return true
}

function matchesType(found: unknown, type: Function): boolean {
  if (type === String) return typeof found === 'string' || found instanceof String
  if (type === Number) return typeof found === 'number' || found instanceof Number
  if (type === Boolean) return typeof found === 'boolean' || found instanceof Boolean
  if (type === Symbol) return typeof found === 'symbol'
  if (type === Function) return typeof found === 'function'
  if (type === Object) return isObject(found) || typeof found === 'function'
  if (typeof found === 'object' || typeof found === 'function') {
    return found !== null && (found instanceof (type as new () => unknown) || found === type)
  }
  return false
}

/** tap's `has`: every key of `pattern` is in `found` and deep-equal (loosely) to it. */
export function has(found: unknown, pattern: unknown, strict: boolean): boolean {
  if (!isObject(pattern)) return deepSame(found, pattern, strict)
  if (!isObject(found)) return false
  if (Array.isArray(pattern)) {
    if (!Array.isArray(found)) return false
    return pattern.every((item, index) => has(found[index], item, strict))
  }
  return Object.keys(pattern).every((key) => has(found[key], pattern[key], strict))
}

/** tap's `type`: a typeof name, a constructor, or a constructor's name. */
export function isType(found: unknown, type: unknown): boolean {
  // tap passes the value itself and any object on its prototype chain (chainable.test.js:
  // `t.type(fastify.get(...), fastify)`).
  if (found === type) return true
  if (typeof type === 'function') return matchesType(found, type)
  if (isObject(type)) {
    for (let proto = isObject(found) ? Object.getPrototypeOf(found) : null; proto !== null; proto = Object.getPrototypeOf(proto)) if (proto === type) return true
    return false
  }
  if (typeof type !== 'string') return false
  if (typeof found === type) return true
  if (type === 'array') return Array.isArray(found)
  if (type === 'null') return found === null
  let proto = isObject(found) ? Object.getPrototypeOf(found) : null
  while (proto !== null) {
    if (proto.constructor?.name === type) return true
    proto = Object.getPrototypeOf(proto)
  }
  return false
}

/** A short printable form for failure messages. */
export function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 300 ? value.slice(0, 300) + '...' : value)
  if (typeof value === 'function') return `[Function ${value.name || 'anonymous'}]`
  if (value instanceof Error) return `${value.name}: ${value.message}`
  if (typeof value === 'symbol' || typeof value === 'bigint') return String(value)
  try {
    const text = JSON.stringify(value)
    if (text === undefined) return String(value)
    return text.length > 300 ? text.slice(0, 300) + '...' : text
  } catch {
    return String(value)
  }
}
