import { contractError } from '../contract/contract-codes'

// application/json, and any +json type (application/problem+json): parameters after `;` ignored.
const json = /^[^;]*[/+]json\s*(;|$)/i

/** The body as the client answers it: parsed when the answer says JSON, its text otherwise; `undefined` when empty JSON. */
export function readBody(route: string, headers: Headers, text: string): unknown {
  const type = headers.get('content-type')
  if (type === null || !json.test(type)) return text
  if (text === '') return undefined
  try {
    return JSON.parse(text)
  } catch (error) {
    throw contractError('ENC_ERR_CLIENT_RESPONSE', { route, type }, { cause: error })
  }
}
