// README differences the `validation` family meets (validation.ts), as rewrites of Fastify 3's
// answer. The handler echoes `request.validationError` flat: `failed` (its message, which the
// pointer rule in known-differences.ts rewrites), `context` and `failedStatus`.
import type { Answer } from './case'
import type { KnownDifference } from './difference-types'

interface Echo { failed?: unknown; context?: unknown; failedStatus?: unknown }

function echoOf(a: Answer): Echo | undefined {
  const b = a.body as Echo | null
  return b !== null && typeof b === 'object' && !Array.isArray(b) && 'failed' in b && 'context' in b && 'failedStatus' in b ? b : undefined
}

export const VALIDATION_DIFFERENCES: KnownDifference[] = [
  {
    id: 'validation-context-query',
    readme: '`validationContext` is `query` for the query string (spec §2.5); the message and the\n  formatter\'s `dataVar` say `querystring`. A validation error also carries `statusCode: 400`',
    rewrite(f, { c }) {
      const echo = echoOf(f)
      if (c.family !== 'validation' || echo === undefined || typeof echo.failed !== 'string') return undefined
      const context = echo.context === 'querystring' ? 'query' : echo.context
      // Fastify 3's validation error has no status (a formatter's error keeps its own).
      const failedStatus = echo.failedStatus ?? 400
      if (context === echo.context && failedStatus === echo.failedStatus) return undefined
      const body = { ...echo, context, failedStatus }
      const headers = { ...f.headers }
      if (headers['content-length'] !== undefined) headers['content-length'] = String(Buffer.byteLength(JSON.stringify(body)))
      return { ...f, headers, body }
    },
  },
]

VALIDATION_DIFFERENCES.push({
  id: 'validation-unknown-keyword-refused',
  readme: 'an unknown JSON Schema keyword in a route or shared schema (`requird`; ajv 6 and its plugins\'',
  // `nullable` under the ajv option `nullable: false` is a keyword ajv 6 no longer knows: it
  // ignores it, Enclave refuses the route at boot (the README line: a typo would turn a check off).
  rewrite(f, { c, enclave }) {
    if (c.family !== 'validation' || f.bootError !== undefined || enclave.bootError === undefined || !/unknown JSON Schema keyword/.test(enclave.bootError)) return undefined
    return { statusCode: 0, headers: {}, body: undefined, bootError: enclave.bootError }
  },
})
