// README differences the `constraints` family meets (constraints.ts): find-my-way 9's reading of
// a must-match constraint on a route constrained on something else, and a `*` route that is `/*`.
import type { Answer } from './case'
import type { KnownDifference } from './difference-types'

type Echo = { tag?: unknown; url?: unknown; routerPath?: unknown; params?: Record<string, unknown> }

/** The answer with another JSON body; its Content-Length follows (a HEAD's body stays empty). */
function withBody(a: Answer, body: unknown, statusCode = a.statusCode): Answer {
  const headers = { ...a.headers }
  if (headers['content-length'] !== undefined) headers['content-length'] = String(Buffer.byteLength(JSON.stringify(body)))
  return { ...a, statusCode, headers, body }
}

function echoOf(a: Answer): Echo | undefined {
  return a.body !== null && typeof a.body === 'object' && typeof (a.body as Echo).tag === 'string' ? a.body as Echo : undefined
}

// The routes of constraints.ts with a constraint and no `version` among them.
const OTHER_CONSTRAINT_TAGS = new Set(['h-api', 'h-admin'])

export const CONSTRAINTS_DIFFERENCES: KnownDifference[] = [
  {
    id: 'star-route-is-slash-star',
    readme: 'a route declared as `*` is the route `/*`: `request.routerPath` and `context.config.url` are\n    `/*`, and its parameter `*` leaves out the leading slash',
    rewrite(f, { c }) {
      const echo = echoOf(f)
      if (c.family !== 'constraints' || echo === undefined || echo.routerPath !== '*' || typeof echo.params?.['*'] !== 'string') return undefined
      return withBody(f, { ...echo, routerPath: '/*', params: { ...echo.params, '*': (echo.params['*'] as string).replace(/^\//, '') } })
    },
  },
  {
    id: 'must-match-on-other-constraint',
    readme: 'A request carrying a must-match constraint value (an Accept-Version once a route is versioned,\n  or the value of a `mustMatchWhenDerived` custom strategy) is 404 on a route constrained only on\n  something else (`constraints: { host }`)',
    rewrite(f, { c, enclave }) {
      const echo = echoOf(f)
      const version = c.request.headers?.['accept-version']
      if (c.family !== 'constraints' || echo === undefined || !OTHER_CONSTRAINT_TAGS.has(echo.tag as string) || version === undefined || version === '' || enclave.statusCode !== 404) return undefined
      const path = c.request.url.split('?')[0] as string
      const body = { message: `Route ${c.request.method}:${path} not found`, error: 'Not Found', statusCode: 404 }
      return { statusCode: 404, headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(JSON.stringify(body))) }, body: c.request.method === 'HEAD' ? '' : body }
    },
  },
]
