// README differences the `head-routes` family meets (head-routes.ts). Each asks Fastify 3 again
// with the declaration or request as Enclave reads it.
import type { KnownDifference } from './difference-types'
import { headRoute } from './head-routes'

export const HEAD_ROUTES_DIFFERENCES: KnownDifference[] = [
  {
    id: 'head-call-not-found-own-hooks',
    readme: 'After `reply.callNotFound()` the not-found reply runs the not-found handler\'s preSerialization and onSend hooks',
    async rewrite(_f, { c, replay }) {
      // The GET's handler calls callNotFound() under an onSend or preSerialization hook of the route
      // (or its plugin) that the root's not-found handler does not have (seeds 10:79, 13:16, 14:197,
      // 16:65, 19:53): Fastify 3 asked without that hook.
      const payloadHook = c.head !== undefined && /^(onSend|preSerialization)-/.test(c.head.hook)
      if (c.head === undefined || c.head.handler !== 'not-found' || !payloadHook) return undefined
      return await replay(c.request, headRoute({ ...c.head, hook: 'none' }))
    },
  },
  {
    id: 'head-error-payload-streamed-by-on-send',
    readme: 'An error payload that an onSend hook replaces with a stream goes out without the error\n  payload\'s Content-Length',
    rewrite(f, { c, enclave, transport }) {
      // A GET (or its HEAD) whose error an onSend hook streams (seeds 7:225, 12:244, 16:82): Fastify
      // 3's head keeps the JSON error's length; Enclave's has none (chunked over HTTP/1, h2 frames its own).
      if (c.head?.hook !== 'onSend-stream' || !['GET', 'HEAD'].includes(c.request.method) || f.statusCode < 400 || f.headers['content-length'] === undefined || enclave.headers['content-length'] !== undefined) return undefined
      const headers: Record<string, string> = { ...f.headers }
      delete headers['content-length']
      if (enclave.headers['transfer-encoding'] === 'chunked') headers['transfer-encoding'] = 'chunked'
      // Over HTTP/1.1 Fastify 3's client stops at the stale length: the stream's first bytes.
      const theirs = typeof f.body === 'string' ? f.body : JSON.stringify(f.body)
      const ours = typeof enclave.body === 'string' ? enclave.body : JSON.stringify(enclave.body)
      if (transport === 'http' ? !ours.startsWith(theirs) : theirs !== ours) return undefined
      return { ...f, headers, body: enclave.body }
    },
  },
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
    async rewrite(f, { c, transport, replay }) {
      const message = (f.body as { message?: unknown } | null)?.message
      // Over a socket (HTTP/1.1 or h2c) a HEAD's 500 has no body to read the message from: the
      // drawn onSend-null hook on an error of Fastify 3's with an empty body is the same failure
      // (seeds 9:116, 10:175, 11:68 over h2c, found by session 27's wider runs).
      const bodiless = transport !== 'inject' && c.head?.hook === 'onSend-null' && f.body === ''
      // A 4xx too: the GET's own error status (seed 24:141, a 400 thrown by the handler).
      if (c.head === undefined || c.request.method !== 'HEAD' || f.statusCode < 400 || (message !== 'Cannot read properties of null (reading \'resume\')' && !bodiless)) return undefined
      const get = await replay({ ...c.request, method: 'GET' })
      return get.statusCode < 0 ? get : { ...get, body: '' }
    },
  },
]
