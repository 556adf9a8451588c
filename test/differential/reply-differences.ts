// README differences the reply-api family meets (reply-api.ts): each rewrites Fastify 3's answer
// into Enclave's under the rule, asking Fastify 3 again where the rule says "as Fastify 3 answers".
import { STATUS_CODES } from 'node:http'
import type { Answer } from './case'
import type { KnownDifference, RewriteContext } from './difference-types'
import { replyApiRoute, type ReplyShape } from './reply-api'
import { servedRoutes } from './app-shapes'
import { paramUrlMatches, replayUnderRules } from './app-differences'

const JSON_TYPE = 'application/json; charset=utf-8'

/** Fastify 3's headers with the generic 500 payload in place of its body. */
function generic500(f: Answer, status = 500): Answer {
  const body = { statusCode: status, error: STATUS_CODES[status], message: STATUS_CODES[status] }
  return { statusCode: status, headers: { ...f.headers, 'content-type': JSON_TYPE, 'content-length': String(Buffer.byteLength(JSON.stringify(body))) }, body }
}

/**
 * Enclave's generic 500 goes through the route's onSend hooks like every error payload (README:
 * "onSend hooks see it"): one that re-types the reply re-types it too, whatever Fastify 3 did.
 */
function retyped(a: Answer, shape: ReplyShape | undefined): Answer {
  if (shape?.hooks.some((h) => h.h === 'onSend' && h.does === 'type') !== true) return a
  // Read as text then, as the harness reads every body that is not JSON.
  const body = typeof a.body === 'string' ? a.body : JSON.stringify(a.body)
  return { ...a, headers: { ...a.headers, 'content-type': 'text/x-onsend' }, body }
}

function parsedOrText(text: string): unknown {
  try { return JSON.parse(text) } catch { return text }
}

/** Fastify 3 asked with the reply shape changed; a HEAD to the GET route is asked as GET, its body dropped (no HEAD routes there). */
async function replayShape(context: RewriteContext, shape: ReplyShape): Promise<Answer> {
  const { c, replay } = context
  const head = c.request.method === 'HEAD' && c.route.method === 'GET'
  const answer = await replay(head ? { ...c.request, method: 'GET' } : c.request, replyApiRoute(shape))
  return head && answer.statusCode >= 0 ? { ...answer, body: '' } : answer
}

const ERROR_ENDINGS = ['throw', 'send-error', 'return-error']

/** shapeStep of an answer replayed under every shape rule without its x-fail (asked once). */
const WITHOUT_FAILURE = 1000

/** Whether the answer is a not-found handler's: the built-in 404, or one of app-build.ts's (send, return, code, throw). */
function notFoundAnswer(a: Answer): boolean {
  const body = a.body
  if (typeof body === 'string') return /^gone \S+$/.test(body)
  if (body === null || typeof body !== 'object') return false
  const { nf, message } = body as { nf?: unknown; message?: unknown }
  return typeof nf === 'string' || (typeof message === 'string' && /^(Route \S+ not found|nf \S+)$/.test(message))
}

export const REPLY_DIFFERENCES: KnownDifference[] = [
  {
    id: 'redirect-keeps-only-3xx',
    readme: '`reply.redirect(url)` keeps a status chosen before it only when that status is a 3xx, else it\n  answers 302',
    async rewrite(f, context) {
      const shape = context.c.reply
      if (shape === undefined || shape.ending.e !== 'redirect' || shape.ending.code !== undefined) return undefined
      const codes = shape.steps.filter((s): s is Extract<typeof s, { n: number }> => s.s === 'code' || s.s === 'status')
      const last = codes[codes.length - 1]
      if (last === undefined || (last.n >= 300 && last.n < 400)) return undefined
      const replayed = await replayShape(context, { ...shape, steps: shape.steps.filter((s) => s.s !== 'code' && s.s !== 'status') })
      // What the handler observed before the redirect saw the status it chose, in both (seeds 121:66, 143:204).
      const observed = f.headers['x-obs']
      return observed === undefined || replayed.statusCode < 0 ? replayed : { ...replayed, headers: { ...replayed.headers, 'x-obs': observed } }
    },
  },
  {
    id: 'error-status-out-of-range',
    readme: 'an error with `statusCode: 600` likewise answers a generic 500 where\n  Fastify 3 answers',
    rewrite(f, { c }) {
      const ending = c.reply?.ending
      if (ending === undefined || !ERROR_ENDINGS.includes(ending.e) || !('error' in ending) || ending.error !== 'status-999' || f.statusCode !== 999) return undefined
      // The error payload becomes the generic one; a payload an onSend hook replaced stays.
      // (Read as text when an onSend hook re-typed it.)
      const payload = (typeof f.body === 'string' ? parsedOrText(f.body) : f.body) as { statusCode?: unknown } | null
      // "unless the reply already has an error status" (seed 39 case 18: code(400) before the throw).
      const codes = c.reply?.steps.filter((s): s is Extract<typeof s, { n: number }> => s.s === 'code' || s.s === 'status') ?? []
      const set = codes[codes.length - 1]?.n
      if (set !== undefined && set >= 400 && set <= 599) {
        // (A HEAD answer has no body: its Content-Length tells what it was.)
        const errorPayload = c.request.method === 'HEAD' ? f.body === '' : payload !== null && typeof payload === 'object' && payload.statusCode === 999
        if (!errorPayload) return { ...f, statusCode: set }
        const body = { statusCode: set, error: STATUS_CODES[set], message: set < 500 ? 'err status-999' : STATUS_CODES[set] }
        const text = JSON.stringify(body)
        return retyped({ statusCode: set, headers: { ...f.headers, 'content-type': JSON_TYPE, 'content-length': String(Buffer.byteLength(text)) }, body: c.request.method === 'HEAD' ? '' : body }, c.reply)
      }
      return payload !== null && typeof payload === 'object' && payload.statusCode === 999 ? retyped(generic500(f), c.reply) : { ...f, statusCode: 500 }
    },
  },
  {
    id: 'thrown-null-undefined-error',
    readme: 'a thrown `undefined`/`null` becomes Fastify 3\'s 500 "Undefined error has occurred"',
    rewrite(f, { c, enclave }) {
      const ending = c.reply?.ending
      if (ending === undefined || ending.e !== 'throw' || ending.error !== 'null' || f.statusCode < 0) return undefined
      // Fastify 3 sent `null` as a payload, through the reply's serializer and preSerialization and
      // onSend hooks: Enclave's error payload goes through onSend only. Its status and code are
      // checked; what an onSend hook made of the payload is taken from Enclave's answer.
      const text = typeof enclave.body === 'string' ? enclave.body : JSON.stringify(enclave.body)
      const hooked = c.reply?.hooks.some((h) => h.h === 'onSend' && h.does !== 'same' && h.does !== 'header') === true
      if (enclave.statusCode !== 500 || (!hooked && !text.includes('ENC_ERR_REPLY_UNDEFINED_ERROR') && c.request.method !== 'HEAD')) return undefined
      if (f.body !== null && f.body !== '' || hooked || c.request.method === 'HEAD' || f.statusCode !== 500) {
        return { statusCode: 500, headers: { ...f.headers, 'content-type': enclave.headers['content-type'] as string, 'content-length': enclave.headers['content-length'] as string }, body: enclave.body }
      }
      const headers = { ...f.headers, 'content-type': JSON_TYPE }
      // An onSend hook that replaced the payload leaves it empty in both.
      if (f.body === '') return { ...f, headers }
      const body = { statusCode: 500, code: 'ENC_ERR_REPLY_UNDEFINED_ERROR', error: STATUS_CODES[500], message: 'Undefined error has occurred' }
      return { statusCode: 500, headers: { ...headers, 'content-length': String(Buffer.byteLength(JSON.stringify(body))) }, body }
    },
  },
  {
    id: 'object-under-non-json-type',
    readme: 'An object sent with a content type that is not JSON and no serializer',
    rewrite(f, { c, enclave }) {
      // Fastify 3's send() throws; from a timer that throw escapes every promise and kills the process.
      const threw = f.statusCode === -2 && /payload of invalid type/.test(String(f.body))
      if (c.reply === undefined || !threw || enclave.statusCode !== 500) return undefined
      const headers = { ...enclave.headers }
      delete headers['content-type']
      delete headers['content-length']
      const generic = generic500({ statusCode: 500, headers, body: undefined })
      return c.request.method === 'HEAD' ? { ...generic, body: '' } : generic
    },
  },
  {
    id: 'undefined-answers-500',
    readme: 'An async handler that resolves `undefined` without replying answers 500\n  (`ENC_ERR_REPLY_NOTHING_SENT`) instead of hanging',
    rewrite(f, { c, enclave }) {
      const ending = c.reply?.ending
      if (ending === undefined || ending.e !== 'return-undefined' || f.statusCode !== -1) return undefined
      // "(one that set 204 or 304 answers that, with no body)"
      const codes = c.reply?.steps.filter((s): s is Extract<typeof s, { n: number }> => s.s === 'code' || s.s === 'status') ?? []
      const last = codes[codes.length - 1]?.n
      if ((last === 204 || last === 304) && enclave.statusCode === last && enclave.body === '') return { statusCode: last, headers: enclave.headers, body: '' }
      if (enclave.statusCode !== 500) return undefined
      // Fastify 3 never answers, so it shows none of the headers the handler set: Enclave's are taken, the status and payload checked.
      const expected = generic500({ statusCode: 500, headers: {}, body: undefined })
      // An onSend hook that replaces the payload replaces this one too (Enclave's then stands).
      const replaced = c.reply?.hooks.some((h) => h.h === 'onSend' && !['same', 'header'].includes(h.does)) === true
      if (replaced) return { statusCode: 500, headers: enclave.headers, body: enclave.body }
      return { ...expected, headers: { ...enclave.headers, ...expected.headers }, body: c.request.method === 'HEAD' ? '' : expected.body }
    },
  },
  {
    id: 'thrown-object-skips-pre-serialization',
    readme: 'like every\n  error payload it skips preSerialization hooks',
    async rewrite(f, context) {
      const shape = context.c.reply
      if (shape === undefined || shape.ending.e !== 'throw' || shape.ending.error !== 'object' || !shape.hooks.some((h) => h.h === 'preSerialization')) return undefined
      return await replayShape(context, { ...shape, hooks: shape.hooks.filter((h) => h.h !== 'preSerialization') })
    },
  },
  {
    id: 'thrown-object-skips-reply-serializer',
    readme: 'and it is JSON (`application/json; charset=utf-8`) even when the handler set `reply.serializer()`',
    async rewrite(f, context) {
      const shape = context.c.reply
      if (shape === undefined || shape.ending.e !== 'throw' || shape.ending.error !== 'object' || !shape.steps.some((s) => s.s === 'serializer')) return undefined
      // The same error payload skips preSerialization hooks and drops a type chosen before it (the
      // two entries above and below): each replays the original shape, so this one drops all three.
      const steps = shape.steps.filter((s) => s.s !== 'serializer' && s.s !== 'type')
      return await replayShape(context, { ...shape, steps, hooks: shape.hooks.filter((h) => h.h !== 'preSerialization') })
    },
  },
  {
    id: 'thrown-non-error-500',
    readme: 'one without a 4xx status, or a thrown string, answers the generic 500 (or the 5xx the reply already has)',
    async rewrite(f, context) {
      const shape = context.c.reply
      const ending = shape?.ending
      // A 5xx the reply already had stays (seed 260:101: reply.code(503) before the throw).
      if (shape === undefined || ending === undefined || ending.e !== 'throw' || !['string', 'number'].includes(ending.error) || f.statusCode < 500 || f.statusCode > 599) return undefined
      // The generic 500 is an error payload that onSend hooks may replace (seed 8 case 71: a hook
      // returning a string keeps the JSON type, where Fastify 3 typed the thrown string text/plain):
      // Fastify 3 is asked with a plain Error thrown instead, whose message the 5xx rule hides.
      if (shape.hooks.some((h) => h.h === 'onSend' && ['string', 'multibyte', 'buffer', 'null'].includes(h.does))) return await replayShape(context, { ...shape, ending: { ...ending, error: 'plain' } })
      return retyped(generic500(f, f.statusCode), shape)
    },
  },
  {
    id: 'null-under-object-schema-hooked',
    readme: '`null` as a property or an array item under an `object` or `array` schema is written `{}` or `[]`',
    async rewrite(f, context) {
      const { c, enclave } = context
      const shape = c.reply
      // The null comes from a preSerialization hook that wraps a null payload (a property: seed
      // 120:146): Fastify 3 asked with the hook giving what Enclave writes for it. (A hook returning
      // null is the value itself: a 500 on both.)
      if (shape?.schema !== true || f.statusCode !== 500 || enclave.statusCode < 200 || enclave.statusCode > 299) return undefined
      const payloadNull = 'p' in shape.ending && shape.ending.p === 'null'
      const hooks = shape.hooks.map((h) => (h.h === 'preSerialization' && h.does === 'wrap' && payloadNull ? { ...h, does: 'wrap-empty' as const } : h))
      if (JSON.stringify(hooks) === JSON.stringify(shape.hooks)) return undefined
      return await replayShape(context, { ...shape, hooks })
    },
  },
  {
    id: 'thrown-non-error-4xx',
    readme: 'when the reply already has a 4xx status (`reply.code(418)` before the\n  throw), a thrown string, number or boolean answers that status in the JSON error shape',
    async rewrite(f, context) {
      const shape = context.c.reply
      const ending = shape?.ending
      if (shape === undefined || ending === undefined || ending.e !== 'throw' || !['string', 'number'].includes(ending.error) || f.statusCode < 400 || f.statusCode > 499) return undefined
      // A hook replacing the payload replaces this one too: Fastify 3 asked with a plain Error thrown under the same status.
      if (shape.hooks.some((h) => h.h === 'onSend' && ['string', 'multibyte', 'buffer', 'null'].includes(h.does))) return await replayShape(context, { ...shape, ending: { ...ending, error: 'plain' } })
      const body = { statusCode: f.statusCode, error: STATUS_CODES[f.statusCode], message: `Non-error value thrown: ${ending.error === 'number' ? 7 : 'a string thrown'}` }
      const text = JSON.stringify(body)
      return retyped({ statusCode: f.statusCode, headers: { ...f.headers, 'content-type': JSON_TYPE, 'content-length': String(Buffer.byteLength(text)) }, body: context.c.request.method === 'HEAD' ? '' : body }, shape)
    },
  },
  {
    id: 'error-drops-content-type',
    readme: 'A Content-Type chosen before the error is dropped before the handlers run',
    async rewrite(f, context) {
      const shape = context.c.reply
      if (shape === undefined || !['throw', 'send-error', 'return-error'].includes(shape.ending.e) || !shape.steps.some((s) => s.s === 'type')) return undefined
      // A thrown plain object also skips preSerialization hooks (the entry above): each entry replays
      // the original shape, so this one drops both (seed 73 case 292).
      const thrownObject = shape.ending.e === 'throw' && shape.ending.error === 'object'
      const hooks = thrownObject ? shape.hooks.filter((h) => h.h !== 'preSerialization') : shape.hooks
      const replayed = await replayShape(context, { ...shape, steps: shape.steps.filter((s) => s.s !== 'type'), hooks })
      // What the handler observed before the error saw the type it chose, in both (seed 18 case 139).
      // Where Fastify 3 gave no answer (it threw outside any promise: seed 185:120), the same steps
      // are asked of it with a plain text sent instead of the error, and read from that answer.
      const observed = f.statusCode >= 0 ? f.headers['x-obs'] : (await replayShape(context, { ...shape, ending: { e: 'send', p: 'string' } })).headers['x-obs']
      return observed === undefined || replayed.statusCode < 0 ? replayed : { ...replayed, headers: { ...replayed.headers, 'x-obs': observed } }
    },
  },
  {
    id: 'call-not-found-own-hooks',
    readme: 'After `reply.callNotFound()` the not-found reply runs the not-found handler\'s preSerialization and onSend hooks',
    async rewrite(first, { c, enclave, replay }) {
      if (c.app === undefined) return undefined
      const theirs = new Set((enclave.headers['x-trace'] ?? '').split(','))
      // The calling route's preSerialization and onSend hooks (its scopes' and its own) that Enclave did not run.
      const callers = servedRoutes(c.app).routes.filter((s) => s.route.handler === 'callNotFound')
      const tags = callers.flatMap((s) => [...s.hookTags.filter((h) => h.stage === 'onSend' || h.stage === 'preSerialization').map((h) => h.tag), ...(s.route.routeHook === 'onSend' || s.route.routeHook === 'preSerialization' ? [`${s.route.tag}.h`] : [])])
      const drop = new Set(tags.filter((tag) => !theirs.has(tag)))
      // One of them made to fail fails only in Fastify 3: asked again without the failure (seed 20 case 238).
      // (Enclave's trace or its built-in 404 shows it reached the caller, the route the request is for: a last-resort answer has neither.)
      const failing = c.request.headers?.['x-fail']?.split('!')[0]
      const path = c.request.url.split('?')[0] as string
      const targeted = callers.some((s) => s.route.method === c.request.method && paramUrlMatches(s.prefix.endsWith('/') && s.route.url.startsWith('/') ? s.prefix + s.route.url.slice(1) : s.prefix + s.route.url, path))
      let f = first
      // A not-found handler's answer shows no trace when no hook of its scope traces (seeds 70:128,
      // 77:299, 133:161, 147:51): the built-in 404, or one of app-build.ts's handlers answering.
      const reached = enclave.headers['x-trace'] !== undefined || notFoundAnswer(enclave)
      if (failing !== undefined && targeted && drop.has(failing) && reached && first.shapeStep !== WITHOUT_FAILURE) {
        const headers = { ...c.request.headers }
        delete headers['x-fail']
        f = { ...await replayUnderRules(c, { ...c.request, headers }, replay), shapeStep: WITHOUT_FAILURE }
      }
      const trace = f.headers['x-trace']
      if (trace === undefined) return f === first ? undefined : f
      const kept = trace.split(',').filter((tag) => !drop.has(tag))
      if (kept.length === trace.split(',').length) return f === first ? undefined : f
      const headers = { ...f.headers }
      if (kept.length === 0) delete headers['x-trace']
      else headers['x-trace'] = kept.join(',')
      return { ...f, headers }
    },
  },
]
