import secureJson from 'secure-json-parse'
import { FrameworkError } from '../errors/framework-error'
import type { BodyParser } from './parser-table'

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
 * The default JSON parser: refuses `__proto__` and `constructor.prototype` keys (also when
 * written with escapes: they are checked after decoding) and bodies nested deeper than
 * `maxDepth`, so no depth can reach a stack overflow in validation or serialization.
 */
export function jsonParser(maxDepth: number): BodyParser {
  const fn = (_request: unknown, body: string | Buffer): unknown => {
    const text = typeof body === 'string' ? body : body.toString('utf8')
    if (text.length === 0) {
      throw new FrameworkError('ENC_ERR_CTP_EMPTY_JSON_BODY', "Body cannot be empty when content-type is set to 'application/json'", { statusCode: 400 })
    }
    if (nestsDeeperThan(text, maxDepth)) {
      throw new FrameworkError('ENC_ERR_CTP_JSON_TOO_DEEP', `Body nests deeper than ${maxDepth} levels`, { statusCode: 400 })
    }
    try {
      return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' })
    } catch (error) {
      const message = error instanceof Error ? error.message : ''
      if (message.startsWith('Object contains forbidden prototype property')) {
        throw new FrameworkError('ENC_ERR_CTP_FORBIDDEN_PROTO', 'Object contains forbidden prototype property', { statusCode: 400 })
      }
      throw new FrameworkError('ENC_ERR_CTP_INVALID_JSON', `Body is not valid JSON: ${message}`, { statusCode: 400 })
    }
  }
  return { fn, parseAs: 'string', bodyLimit: null }
}

export const textParser: BodyParser = {
  fn: (_request, body) => typeof body === 'string' ? body : body.toString('utf8'),
  parseAs: 'string',
  bodyLimit: null,
}
