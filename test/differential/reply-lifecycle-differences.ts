// README differences the `reply-lifecycle` family meets (reply-lifecycle.ts): redirect's argument
// orders and the status a redirect keeps. Each asks Fastify 3 again with the call as Enclave reads it.
import type { Answer } from './case'
import type { KnownDifference, RewriteContext } from './difference-types'
import { lifecycleRoute, type LifecycleShape } from './reply-lifecycle'

/** Fastify 3 asked with the shape changed; a HEAD to the GET route is asked as GET, its body dropped (no HEAD routes there). */
async function replayShape(context: RewriteContext, shape: LifecycleShape): Promise<Answer> {
  const { c, replay } = context
  const head = c.request.method === 'HEAD' && c.route.method === 'GET'
  const answer = await replay(head ? { ...c.request, method: 'GET' } : c.request, lifecycleRoute(shape))
  return head && answer.statusCode >= 0 ? { ...answer, body: '' } : answer
}

export const REPLY_LIFECYCLE_DIFFERENCES: KnownDifference[] = [
  {
    id: 'lifecycle-redirect-url-code',
    readme: 'Fastify 5\'s order, `reply.redirect(\'/to\', 301)`, is taken too (a 301); Fastify\n  3.27.4 knows only `(code, url)` and answers that call 302, the 301 ignored',
    async rewrite(_f, context) {
      const shape = context.c.lifecycle
      if (shape === undefined || shape.ending !== 'redirect-url-code') return undefined
      // Enclave's `redirect('/to', 301)` is Fastify 3's `redirect(301, '/to')`.
      return await replayShape(context, { ...shape, ending: 'redirect-code-url' })
    },
  },
  {
    id: 'lifecycle-redirect-keeps-only-3xx',
    readme: '`reply.redirect(url)` keeps a status chosen before it only when that status is a 3xx, else it\n  answers 302',
    async rewrite(_f, context) {
      const shape = context.c.lifecycle
      if (shape === undefined || shape.ending !== 'redirect-url' || shape.code === undefined || (shape.code >= 300 && shape.code <= 399)) return undefined
      // The status chosen before is not a 3xx: Enclave's answer is Fastify 3's without it.
      const { code: _dropped, ...rest } = shape
      return await replayShape(context, rest)
    },
  },
  {
    id: 'error-payload-streamed-by-on-send',
    readme: 'An error payload that an onSend hook replaces with a stream goes out without the error\n  payload\'s Content-Length',
    rewrite(f, { c, enclave, transport }) {
      if (c.lifecycle?.hooks.includes('onSend-stream') !== true || f.headers['content-length'] === undefined || enclave.headers['content-length'] !== undefined || enclave.headers['transfer-encoding'] !== 'chunked') return undefined
      const headers: Record<string, string> = { ...f.headers, 'transfer-encoding': 'chunked' }
      delete headers['content-length']
      // Over a socket Fastify 3's client stops at the stale length: the stream's first bytes.
      const theirs = typeof f.body === 'string' ? f.body : JSON.stringify(f.body)
      const ours = typeof enclave.body === 'string' ? enclave.body : JSON.stringify(enclave.body)
      if (transport === 'http' ? !ours.startsWith(theirs) : theirs !== ours) return undefined
      return { ...f, headers, body: enclave.body }
    },
  },
  {
    id: 'send-after-raw-head-closes',
    readme: 'A `send()` after the handler wrote to `reply.raw`\n  without ending it',
    rewrite(f, { c, enclave }) {
      // The head written by `reply.raw.writeHead()`, then a send: Enclave closes the connection, Fastify 3 leaves it hanging.
      // (Fastify 3 hangs, or throws outside any promise from a late send of an onSend hook: seed 59:179.)
      // A stream payload (an onSend hook's) Fastify 3 pipes under the handler's head instead (seed 57:33 before session 26).
      const streamedUnderHead = f.statusCode === 207 && f.headers['x-raw-head'] === '1' && c.lifecycle?.hooks.includes('onSend-stream') === true
      if (c.lifecycle?.ending !== 'raw-write-head-then-send' || (f.statusCode !== -1 && f.statusCode !== -2 && !streamedUnderHead) || enclave.statusCode !== -3) return undefined
      return enclave
    },
  },
  {
    id: 'lifecycle-call-not-found-own-hooks',
    readme: 'After `reply.callNotFound()` the not-found reply runs the not-found handler\'s preSerialization and onSend hooks',
    async rewrite(_f, context) {
      const shape = context.c.lifecycle
      // The calling route's onSend hooks are not the not-found handler's: Fastify 3 asked without them (seed 55:284 before session 26).
      if (shape?.ending !== 'call-not-found-after-headers' || !shape.hooks.some((h) => h.startsWith('onSend'))) return undefined
      return await replayShape(context, { ...shape, hooks: shape.hooks.filter((h) => !h.startsWith('onSend')) })
    },
  },
]
