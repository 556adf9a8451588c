// README differences the `route-options` family meets (route-options.ts): each rewrites Fastify 3's
// answer, or asks it again with the declarations as Enclave reads them.
import type { Answer } from './case'
import type { KnownDifference } from './difference-types'
import { roSetup } from './route-options'

interface Echo { validationError?: { message?: unknown; context?: unknown } | null }

function echoOf(a: Answer): Echo | undefined {
  const b = a.body as Echo | null
  return b !== null && typeof b === 'object' && !Array.isArray(b) && 'validationError' in b ? b : undefined
}

export const ROUTE_OPTIONS_DIFFERENCES: KnownDifference[] = [
  {
    id: 'ro-validation-context-query',
    readme: '`validationContext` is `query` for the query string (spec §2.5); the message and the\n  formatter\'s `dataVar` say `querystring`.',
    async rewrite(f, { c, replay }) {
      if (c.ro === undefined) return undefined
      // A HEAD answer (exposeHeadRoutes: true) has only the length of the GET's echo: read off the GET.
      const head = c.request.method === 'HEAD' && f.statusCode === 200 && f.body === ''
      const read = head ? await replay({ ...c.request, method: 'GET' }) : f
      const echo = echoOf(read)
      if (echo?.validationError?.context !== 'querystring') return undefined
      const body = { ...echo, validationError: { ...echo.validationError, context: 'query' } }
      const headers = { ...f.headers }
      if (headers['content-length'] !== undefined) headers['content-length'] = String(Buffer.byteLength(JSON.stringify(body)))
      return { ...f, headers, body: head ? '' : body }
    },
  },
  {
    id: 'ro-head-routes-that-collide',
    readme: '`exposeHeadRoutes: true`, a HEAD route declared after its GET route replaces the GET\'s\n  implicit HEAD route, and a prefixed `/` route under a prefix written with its slash',
    async rewrite(f, { c, enclave, replay }) {
      if (c.ro === undefined || enclave.bootError !== undefined || !/^Method 'HEAD' already declared for route /.test(f.bootError ?? '')) return undefined
      // Asked again with those GET routes' implicit HEAD routes left out, as Enclave reads them.
      return await replay(c.request, { ...c.route, setup: roSetup(c.ro, true) })
    },
  },
]
