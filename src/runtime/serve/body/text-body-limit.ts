import { constants } from 'node:buffer'
import type { BodyParser } from '../../shared/body-parser'

/**
 * The most bytes a body read as one string may have: V8's longest string (536,870,888 UTF-16
 * units on 64-bit Node 20). UTF-8 never decodes to more units than it has bytes, so a body up to
 * this length always decodes; a longer one may throw ERR_STRING_TOO_LONG, which `toString()`
 * raises inside the body's 'end' listener: uncaught, it ended the process (Fastify 3 and 5 too,
 * with bodyLimit raised past 512 MB). Such a body is refused like one over bodyLimit (413).
 */
export const MAX_TEXT_BODY_BYTES = constants.MAX_STRING_LENGTH

/**
 * The limit a collected body is read under: `limit`, or the string cap when the parser decodes the
 * body to one string (parseAs 'string', the built-in text and JSON parsers). Only a bodyLimit raised
 * past 512 MB reaches the second test.
 */
export function collectLimit(limit: number, parser: BodyParser): number {
  return limit > MAX_TEXT_BODY_BYTES && (parser.parseAs === 'string' || parser.fromChunks !== undefined) ? MAX_TEXT_BODY_BYTES : limit
}
