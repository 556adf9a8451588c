/*
 * The typed client's optional check of a call before it is sent (`createClient(api, { validateRequests:
 * true })`): each request part whose contract schema is a Standard Schema (zod, valibot, ArkType) is
 * validated by that schema's own `~standard.validate`, and a call that fails is answered here with the
 * 400 the server would give, without a request. JSON Schema parts are not checked here: that would put
 * a JSON Schema validator (ajv, ~120 kB) into every front end's bundle; the server checks them as ever.
 */

interface StandardIssue { readonly message: string; readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> }
type StandardResult = { readonly issues?: ReadonlyArray<StandardIssue> }
interface StandardValidator { readonly '~standard': { readonly validate: (value: unknown) => StandardResult | Promise<StandardResult> } }

/** The request parts as the route schema names them, with the call's key for each. */
const parts = [['params', 'params'], ['querystring', 'query'], ['query', 'query'], ['body', 'body'], ['headers', 'headers']] as const

/** What the client answers for a call its schemas refuse: the server's validation 400, marked as the client's. */
export interface RefusedCall {
  readonly status: 400
  readonly body: { readonly statusCode: 400; readonly code: 'FST_ERR_VALIDATION'; readonly error: 'Bad Request'; readonly message: string }
  readonly headers: Headers
}

/** undefined when every Standard Schema part of `schema` accepts the call's value; else the 400 to answer. */
export async function refusedCall(schema: unknown, request: Readonly<Record<string, unknown>>): Promise<RefusedCall | undefined> {
  if (typeof schema !== 'object' || schema === null) return undefined
  const messages: string[] = []
  for (const [part, key] of parts) {
    const validator = (schema as Record<string, unknown>)[part]
    if (!isStandard(validator)) continue
    const result = await validator['~standard'].validate(request[key])
    for (const issue of result.issues ?? []) messages.push(`${[part, ...(issue.path ?? []).map(pathKey)].join('/')} ${issue.message}`)
  }
  if (messages.length === 0) return undefined
  // The server's format (`body/title Too small: ...`); a header tells it was not the server's answer.
  const headers = new Headers({ 'content-type': 'application/json; charset=utf-8', 'x-enclave-client-validation': 'refused' })
  return { status: 400, body: { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: messages.join(', ') }, headers }
}

function isStandard(value: unknown): value is StandardValidator {
  if (typeof value !== 'object' || value === null) return false
  const standard = (value as { '~standard'?: { validate?: unknown } })['~standard']
  return typeof standard === 'object' && standard !== null && typeof standard.validate === 'function'
}

function pathKey(segment: PropertyKey | { readonly key: PropertyKey }): string {
  return String(typeof segment === 'object' && segment !== null ? segment.key : segment)
}
