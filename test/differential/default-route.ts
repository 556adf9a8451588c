// Fastify 3's default route (`setDefaultRoute((req, res) => ...)`, removed in Fastify 5): Enclave
// refuses it at the call, naming setNotFoundHandler(). The case declares it on both; the entry
// explains the refusal only where Enclave's error names that replacement, and the differential
// test checks that the replacement written as the refusal says answers as Fastify 3's default route.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Case } from './case'
import type { KnownDifference } from './difference-types'

type Any = any // eslint-disable-line @typescript-eslint/no-explicit-any

function answerUnknown(url: string | undefined): string {
  return `nothing at ${String(url)}`
}

/** A GET /known route and an unknown URL asked; the fallback set by `setDefaultRoute`, or by its replacement. */
export function defaultRouteCase(url: string, replacement: boolean): Case {
  return {
    id: 'default-route', family: 'default-route', summary: `${replacement ? 'setNotFoundHandler' : 'setDefaultRoute'} answering unknown URLs <- GET ${url}`,
    request: { method: 'GET', url },
    route: {
      method: 'GET', url: '/known', handler: () => 'known',
      setup: (app: Any) => {
        const fallback = (req: IncomingMessage, res: ServerResponse): void => { res.statusCode = 404; res.setHeader('content-type', 'text/plain'); res.end(answerUnknown(req.url)) }
        // The same raw function, handed the raw request and response of a taken-over reply.
        if (replacement) app.setNotFoundHandler((request: Any, reply: Any) => { reply.hijack(); fallback(request.raw, reply.raw) })
        else app.setDefaultRoute(fallback)
      },
    },
  }
}

export const DEFAULT_ROUTE_DIFFERENCES: KnownDifference[] = [
  {
    id: 'default-route-refused',
    readme: 'Fastify 3\'s `setDefaultRoute()` and `getDefaultRoute()` (removed in Fastify 5) are not offered',
    rewrite(f, { c, enclave }) {
      if (c.family !== 'default-route' || f.bootError !== undefined || !/^setDefaultRoute\(\) was called in root: .*setNotFoundHandler\(/.test(enclave.bootError ?? '')) return undefined
      return { statusCode: 0, headers: {}, body: undefined, bootError: enclave.bootError }
    },
  },
]
