import secureJson from 'secure-json-parse'
import { runtimeError } from '../../errors/runtime-codes'
import type { BodyParser } from '../../shared/body-parser'

/** True when `text` opens more than `max` nested arrays/objects (strings skipped). */
export function nestsDeeperThan(text: string, max: number): boolean {
  // A document shorter than the limit cannot nest that deep: the common case costs nothing.
  if (text.length <= max) return false
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92 /* \ */) i++
      else if (c === 34 /* " */) inString = false
    } else if (c === 34) {
      inString = true
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > max) return true
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      depth--
    }
  }
  return false
}

/**
 * A number literal too large for a double (`1e309`, 309+ digits) parses to ±Infinity, which
 * JSON cannot express: it passes a `number` schema, and even `integer` in ajv 6, then makes the
 * response serializer throw (a 500 any client could cause) or comes back as `null`. Only
 * literals with a three-digit positive exponent or 309 digits in a row can overflow; the regular
 * expression finds those (strings may match too: that only costs the walk below).
 */
const MAY_OVERFLOW = /[eE]\+?\d{3}|\d{309}/

function hasNonFinite(root: unknown): boolean {
  const stack: unknown[] = [root]
  // Bounded by the number of values in the body; the depth limit was checked before parsing.
  while (stack.length > 0) {
    const value = stack.pop()
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return true
    } else if (value !== null && typeof value === 'object') {
      for (const key of Object.keys(value)) stack.push((value as Record<string, unknown>)[key])
    }
  }
  return false
}

/**
 * The default JSON parser: refuses `__proto__` and `constructor.prototype` keys (also when
 * written with escapes: they are checked after decoding), bodies nested deeper than
 * `maxDepth`, so no depth can reach a stack overflow in validation or serialization, and
 * numbers out of the range of a double.
 */
export function jsonParser(maxDepth: number, actions: { protoAction: 'error' | 'remove' | 'ignore'; constructorAction: 'error' | 'remove' | 'ignore' } = { protoAction: 'error', constructorAction: 'error' }): BodyParser {
  const fn = (_request: unknown, body: string | Buffer): unknown => {
    const text = typeof body === 'string' ? body : body.toString('utf8')
    if (text.length === 0) {
      throw runtimeError('ENC_ERR_CTP_EMPTY_JSON_BODY')
    }
    if (nestsDeeperThan(text, maxDepth)) {
      throw runtimeError('ENC_ERR_CTP_JSON_TOO_DEEP', { max: maxDepth })
    }
    let parsed: unknown
    try {
      parsed = secureJson.parse(text, undefined, actions)
    } catch (error) {
      const message = error instanceof Error ? error.message : ''
      if (message.startsWith('Object contains forbidden prototype property')) {
        throw runtimeError('ENC_ERR_CTP_FORBIDDEN_PROTO')
      }
      throw runtimeError('ENC_ERR_CTP_INVALID_JSON', { reason: message })
    }
    if (MAY_OVERFLOW.test(text) && hasNonFinite(parsed)) {
      throw runtimeError('ENC_ERR_CTP_INVALID_JSON', { reason: 'a number is out of range (larger than a double can hold)' })
    }
    return parsed
  }
  return { fn, parseAs: 'string', bodyLimit: null, mode: 'collect', pattern: null }
}

export const textParser: BodyParser = {
  fn: (_request, body) => typeof body === 'string' ? body : body.toString('utf8'),
  parseAs: 'string',
  bodyLimit: null,
  mode: 'collect',
  pattern: null,
}
