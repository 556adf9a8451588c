import pino from 'pino'

/**
 * pino 10 redacts a line's top-level key (`req`, `headers`) through @pinojs/redact, which copies
 * the value before it looks for the paths: ~0.9 µs per "incoming request" line, whose `req` (from
 * Fastify's serializer) never has `headers`, against ~0.07 µs for pino 6's fast-redact, which
 * Fastify 3 did not even run. Where the value is a plain object holding none of the names the
 * key's paths start with, the redactor would find nothing (its getValueIfExists and removeKey
 * stop at a name that is not `in` the object) and serialize an own-property copy of the value:
 * the same JSON as serializing the value itself, which is done here instead. Anything else (a
 * name present, a class instance, a value JSON.stringify refuses) goes to pino's redactor as
 * before. Paths this cannot read with certainty (a wildcard, a quoted or bracketed segment where
 * the name is taken) leave their key, or with a wildcard every key, to pino.
 *
 * pino keeps the redactors under `pino.symbols.stringifiersSym`; where that is not an object of
 * functions (another pino), the logger is left as it was.
 */
export function skipIdleRedaction(logger: object, paths: readonly string[]): void {
  const stringifiers = (logger as Record<symbol, unknown>)[stringifiersSym]
  if (typeof stringifiers !== 'object' || stringifiers === null) return
  const names = firstNamesByKey(paths)
  if (names === null) return
  for (const [key, keyNames] of names) {
    const table = stringifiers as Record<string, unknown>
    const redact = table[key]
    if (keyNames === null || typeof redact !== 'function') continue
    table[key] = idleFastPath(redact as (value: unknown) => string, keyNames)
  }
}

const stringifiersSym: symbol = pino.symbols.stringifiersSym

function idleFastPath(redact: (value: unknown) => string, names: readonly string[]): (value: unknown) => string {
  return (value: unknown): string => {
    if (typeof value !== 'object' || value === null) return redact(value)
    const proto = Object.getPrototypeOf(value)
    if (proto !== Object.prototype && proto !== null) return redact(value)
    for (let i = 0; i < names.length; i++) if (names[i] in value) return redact(value)
    let json: string | undefined
    try {
      json = JSON.stringify(value)
    } catch {
      // A cycle or a BigInt: pino's own fallback (safe-stable-stringify) through the redactor.
      return redact(value)
    }
    // pino's stringify never answers undefined for an object (a toJSON answering undefined):
    // the redactor's own serializer decides what that line gets.
    return json === undefined ? redact(value) : json
  }
}

const PLAIN = /^[A-Za-z_$][\w$]*$/

/**
 * For each top-level key, the names its paths continue with (`req.headers.cookie` -> req: headers),
 * or null for a key with a path whose second segment is not a plain name. Null for all when a
 * path has a wildcard or starts with a bracket (pino then adds it to keys by rules not redone here).
 */
function firstNamesByKey(paths: readonly string[]): Map<string, string[] | null> | null {
  const byKey = new Map<string, string[] | null>()
  for (const path of paths) {
    if (path.includes('*') || path.startsWith('[')) return null
    const cut = path.search(/[.[]/)
    const key = cut === -1 ? path : path.slice(0, cut)
    if (!PLAIN.test(key)) return null
    // A whole key redacted: pino censors it outright (and ignores its deeper paths), nothing to skip.
    if (cut === -1) { byKey.set(key, null); continue }
    const seen = byKey.get(key)
    const rest = path.slice(cut)
    const next = rest.startsWith('.') ? rest.slice(1).split(/[.[]/, 1)[0] : ''
    if (seen === null) continue
    if (!PLAIN.test(next)) { byKey.set(key, null); continue }
    byKey.set(key, seen === undefined ? [next] : seen.includes(next) ? seen : [...seen, next])
  }
  return byKey
}
