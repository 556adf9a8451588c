// README differences the `error-sources` family meets (error-sources.ts): what an error handler
// is handed differs where README says so. Each rewrites what Fastify 3's handler saw (in the body
// it answered, or the `x-seen` header of one that threw the error on) into what Enclave's sees.
import type { Answer } from './case'
import type { KnownDifference } from './difference-types'
import type { ErrorSource } from './error-sources'

type Seen = Record<string, unknown>

/** Fastify 3's answer with `patch` applied to what its error handler saw; undefined when it changes nothing. */
function patchSeen(f: Answer, patch: (seen: Seen) => Seen): Answer | undefined {
  const body = f.body as { seen?: Seen } | null
  const headers = { ...f.headers }
  let changed = false
  let next: unknown = f.body
  if (body !== null && typeof body === 'object' && typeof body.seen === 'object' && body.seen !== null) {
    const seen = patch(body.seen)
    if (JSON.stringify(seen) !== JSON.stringify(body.seen)) {
      next = { ...body, seen }
      if (headers['content-length'] !== undefined) headers['content-length'] = String(Buffer.byteLength(JSON.stringify(next)))
      changed = true
    }
  }
  if (headers['x-seen'] !== undefined) {
    const before = headers['x-seen']
    headers['x-seen'] = JSON.stringify(patch(JSON.parse(before) as Seen))
    changed ||= headers['x-seen'] !== before
  }
  return changed ? { ...f, headers, body: next } : undefined
}

const VALIDATION: ErrorSource[] = ['body-validation', 'query-validation', 'params-validation', 'headers-validation']

export const ERROR_SOURCES_DIFFERENCES: KnownDifference[] = [
  {
    id: 'validation-error-status-and-query-context',
    readme: '`validationContext` is `query` for the query string (spec §2.5); the message and the\n  formatter\'s `dataVar` say `querystring`. A validation error also carries `statusCode: 400` when\n  it reaches `setErrorHandler`',
    rewrite(f, { c }) {
      if (c.sources === undefined || !VALIDATION.includes(c.sources.source)) return undefined
      return patchSeen(f, (seen) => ({ ...seen, statusCode: seen.statusCode ?? 400, context: seen.context === 'querystring' ? 'query' : seen.context }))
    },
  },
  {
    id: 'proto-error-has-code',
    readme: 'Where Fastify 3\'s built-in 400s carry no code (a `__proto__` or `constructor.prototype` key in a\n  JSON body) Enclave\'s have one (`ENC_ERR_CTP_FORBIDDEN_PROTO`)',
    rewrite(f, { c }) {
      if (c.sources?.source !== 'proto') return undefined
      return patchSeen(f, (seen) => ({ ...seen, code: seen.code ?? 'ERR_CTP_FORBIDDEN_PROTO' }))
    },
  },
  {
    id: 'serialization-error-status-and-code',
    readme: 'A response its schema cannot serialize reaches error handlers as an error with `statusCode: 500`\n  and `code: \'ENC_ERR_REPLY_SERIALIZATION\'`',
    rewrite(f, { c }) {
      if (c.sources?.source !== 'serialization') return undefined
      return patchSeen(f, (seen) => ({ ...seen, statusCode: seen.statusCode ?? 500, code: seen.code ?? 'ERR_REPLY_SERIALIZATION' }))
    },
  },
  {
    id: 'invalid-json-error-has-code',
    readme: 'A body that is not valid JSON reaches error handlers as a `FrameworkError`\n  (`ENC_ERR_CTP_INVALID_JSON`',
    rewrite(f, { c }) {
      if (c.sources?.source !== 'invalid-json') return undefined
      return patchSeen(f, (seen) => ({ ...seen, code: seen.code ?? 'ERR_CTP_INVALID_JSON' }))
    },
  },
  {
    id: 'error-sources-body-limit-names-limit',
    readme: 'and the 413 names the limit',
    rewrite(f, { c }) {
      const b = f.body as { message?: unknown } | null
      // The route's bodyLimit of 10 (error-sources.ts), in the 413 an error handler threw on.
      if (c.sources?.source !== 'too-large' || f.statusCode !== 413 || b === null || typeof b !== 'object' || b.message !== 'Request body is too large') return undefined
      const body = { ...b, message: 'Request body is too large: the limit is 10 bytes' }
      return { ...f, headers: { ...f.headers, 'content-length': String(Buffer.byteLength(JSON.stringify(body))) }, body }
    },
  },
]
