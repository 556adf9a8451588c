import { contractError } from '../contract/contract-codes'
import { isJsonMediaType, mediaTypeOf } from '../runtime/shared/media-type'

/** 204, 205 and 304 answers have no content (RFC 9110): `undefined`, as typed, rather than the empty text fetch reads. */
export function hasNoContent(status: number): boolean {
  return status === 204 || status === 205 || status === 304
}

/** The body as the client answers it: parsed when the answer says JSON, its text otherwise; `undefined` when empty JSON. */
export function readBody(route: string, headers: Headers, text: string): unknown {
  // application/json and any application/...+json (problem+json), as the server's parsers read it.
  const type = mediaTypeOf(headers.get('content-type') ?? undefined)
  if (type === null || !isJsonMediaType(type)) return text
  if (text === '') return undefined
  try {
    return JSON.parse(text)
  } catch (error) {
    throw contractError('ENC_ERR_CLIENT_RESPONSE', { route, type }, { cause: error })
  }
}
