// RFC 9110 token characters: a media type is `token "/" token`, nothing else before the `;`.
const MEDIA_TYPE = /^[a-z0-9!#$%&'*+.^_`|~-]+\/[a-z0-9!#$%&'*+.^_`|~-]+$/

const JSON_TYPE = 'application/json'
const JSON_UTF8_TYPE = 'application/json; charset=utf-8'

/**
 * The lower-cased `type/subtype` of a Content-Type header, or null when it is not a valid media
 * type. Matching is exact: `application/jsonx`, `application/json<TAB>x` and
 * `text/plain; application/json` are not JSON (shapes behind known parser-confusion CVEs).
 */
export function mediaTypeOf(header: string | undefined): string | null {
  if (header === undefined) return null
  // What JSON clients send, answered without the slice, trim, lower-casing and RegExp below.
  if (header === JSON_TYPE || header === JSON_UTF8_TYPE) return JSON_TYPE
  const semicolon = header.indexOf(';')
  const type = (semicolon === -1 ? header : header.slice(0, semicolon)).trim().toLowerCase()
  return MEDIA_TYPE.test(type) ? type : null
}

/** Whether `type` is a bare `type/subtype` (no parameters), in any case: what OpenAPI's `content` keys name. */
export function isMediaType(type: string): boolean {
  return MEDIA_TYPE.test(type.toLowerCase())
}

/** The Content-Type as the client wrote it, without parameters: what RegExp content types are tested against. */
export function typeAsSent(header: string): string {
  const semicolon = header.indexOf(';')
  return (semicolon === -1 ? header : header.slice(0, semicolon)).trim()
}

export function isJsonMediaType(type: string): boolean {
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))
}

/** Normalizes what `addContentTypeParser` was given, or null if it is not a media type or `*`. */
export function normalizeDeclaredType(declared: string): string | null {
  if (declared === '*') return '*'
  return mediaTypeOf(declared)
}
