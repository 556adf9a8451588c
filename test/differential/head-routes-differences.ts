// README differences the `head-routes` family meets (head-routes.ts). Each asks Fastify 3 again
// with the declaration or request as Enclave reads it.
import type { KnownDifference } from './difference-types'
import { headRoute } from './head-routes'

export const HEAD_ROUTES_DIFFERENCES: KnownDifference[] = [
  {
    id: 'head-route-after-get',
    readme: '`exposeHeadRoutes: true`, a HEAD route declared after its GET route replaces the GET\'s\n  implicit HEAD route',
    async rewrite(f, { c, enclave, replay }) {
      if (c.head === undefined || c.head.explicit !== 'after' || enclave.bootError !== undefined || !/^Method 'HEAD' already declared for route /.test(f.bootError ?? '')) return undefined
      // The GET without its implicit HEAD route, the explicit one beside it: what Enclave declares.
      return await replay(c.request, headRoute({ ...c.head, routeOff: true }))
    },
  },
  {
    id: 'head-null-payload',
    readme: 'A HEAD answered by a GET route whose onSend hook returns `null` is that GET\'s answer without the body',
    async rewrite(f, { c, replay }) {
      const message = (f.body as { message?: unknown } | null)?.message
      if (c.head === undefined || c.request.method !== 'HEAD' || f.statusCode !== 500 || message !== 'Cannot read properties of null (reading \'resume\')') return undefined
      const get = await replay({ ...c.request, method: 'GET' })
      return get.statusCode < 0 ? get : { ...get, body: '' }
    },
  },
]
