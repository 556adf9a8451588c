// README differences the errors family meets (errors.ts): each rewrites Fastify 3's answer into
// Enclave's under the rule, asking Fastify 3 again (with the shape changed) where the rule says
// "as Fastify 3 answers".
import { STATUS_CODES } from 'node:http'
import type { Answer } from './case'
import type { KnownDifference, RewriteContext } from './difference-types'
import { errorsRoute, type ErrorShape, type HandlerKind, type Where } from './errors'

const JSON_TYPE = 'application/json; charset=utf-8'
const ORDER: Where[] = ['root', 'plugin', 'nested']

/** The error handlers the route's errors meet, nearest first. */
function chainOf(shape: ErrorShape): HandlerKind[] {
  return ORDER.slice(0, ORDER.indexOf(shape.where) + 1).reverse().map((w) => shape.handlers[w]).filter((k): k is HandlerKind => k !== undefined)
}

function generic500(headers: Record<string, string>): Answer {
  const body = { statusCode: 500, error: STATUS_CODES[500], message: STATUS_CODES[500] }
  return { statusCode: 500, headers: { ...headers, 'content-type': JSON_TYPE, 'content-length': String(Buffer.byteLength(JSON.stringify(body))) }, body }
}

function record(body: unknown): Record<string, unknown> | undefined {
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? body as Record<string, unknown> : undefined
}

/** An error payload of the built-in reply (statusCode and message). */
function isErrorPayload(body: Record<string, unknown> | undefined): boolean {
  return body !== undefined && typeof body.statusCode === 'number' && typeof body.message === 'string' && !('handledBy' in body) && !('syncFrom' in body)
}

async function replayShape(context: RewriteContext, shape: ErrorShape): Promise<Answer> {
  return await context.replay(context.c.request, errorsRoute(shape))
}

const PASSES_ON: HandlerKind[] = ['rethrow', 'throw-new', 'throw-plain', 'send-error', 'return-undefined']

/** Whether the README's "Error handlers chain" changes where this shape's errors go (the first entry below). */
function chains(shape: ErrorShape): boolean {
  const chain = chainOf(shape)
  // A hook failing on every payload fails each handler's own answer too: that failure goes up as well.
  const payloadFails = shape.fail?.every === true && (shape.fail.stage === 'preSerialization' || shape.fail.stage === 'onSend')
  return chain.length >= 2 && (payloadFails || chain.slice(0, -1).some((k) => PASSES_ON.includes(k)))
}

export const ERRORS_DIFFERENCES: KnownDifference[] = [
  {
    id: 'errors-handlers-chain',
    readme: 'Error handlers chain: when one throws or sends the error on, the next one up (the parent scope\'s) gets it before the built-in reply; Fastify 3 goes straight to its default handler.',
    async rewrite(f, context) {
      const shape = context.c.errors
      if (shape === undefined || shape.chain || !chains(shape)) return undefined
      return await replayShape(context, { ...shape, chain: true })
    },
  },
  {
    id: 'errors-handler-own-failure',
    readme: 'What an error handler throws other than the error it was given, without a 4xx/5xx status of its own and without choosing one (`reply.code()`), is its own failure: a logged generic 500',
    rewrite(f, { c }) {
      if (c.errors === undefined || !chainOf(c.errors).includes('throw-plain')) return undefined
      const body = record(f.body)
      if (body === undefined || typeof body.message !== 'string' || !body.message.startsWith('plain from') || f.statusCode === 500) return undefined
      // The failure reaches the next handler up (or the built-in reply) as a 500.
      if (isErrorPayload(body)) return generic500(f.headers)
      return { ...f, statusCode: 500 }
    },
  },
  {
    id: 'errors-status-out-of-range',
    readme: 'an error with `statusCode: 600` likewise answers a generic 500 where\n  Fastify 3 answers',
    async rewrite(f, context) {
      const shape = context.c.errors
      if (shape?.fail?.error !== '600' || f.statusCode !== 600) return undefined
      const body = record(f.body)
      if (!isErrorPayload(body) || body?.statusCode !== 600) return { ...f, statusCode: 500 }
      // The built-in reply: "read as one without a status", so the reply's own error status stands
      // when it has one (a handler's reply.code(400) before its payload failed: seed 161:216), as
      // Fastify 3 answers an error without a status; else a 500 (its message hidden by that rule).
      const replayed = await replayShape(context, { ...shape, statusless: true, ...(chains(shape) ? { chain: true } : {}) })
      return replayed.statusCode < 0 ? generic500(f.headers) : replayed
    },
  },
  {
    id: 'errors-handler-returns-nothing',
    readme: 'An error handler that returns without sending (and without returning\n  `reply`) answers 500 `ENC_ERR_REPLY_NOTHING_SENT` at once; Fastify 3 leaves the request hanging.',
    async rewrite(f, context) {
      const { c, enclave } = context
      const chain = c.errors === undefined ? [] : chainOf(c.errors)
      if (f.statusCode !== -1 || !chain.some((k) => k === 'return-undefined' || k === 'sync-return')) return undefined
      // An onSend hook failing on every payload fails that coded 500 too, as it fails the built-in reply:
      // Fastify 3 asked without the handlers that answer nothing (seeds 106:44, 111:34).
      const fail = c.errors!.fail
      // (Not a preSerialization hook: the built-in error payload skips those.)
      if (fail?.every === true && fail.stage === 'onSend') {
        const handlers = Object.fromEntries(Object.entries(c.errors!.handlers).filter(([, k]) => k !== 'return-undefined' && k !== 'sync-return'))
        const replayed = await replayShape(context, { ...c.errors!, handlers, chain: true })
        return replayed.statusCode < 0 ? undefined : replayed
      }
      // Handlers chain (the entry above): the next one up gets the coded error and answers as it does,
      // which Fastify 3, hanging, cannot show: the answer must at least come from a later handler.
      const first = chain.findIndex((k) => k === 'return-undefined' || k === 'sync-return')
      const later = ORDER.slice(0, ORDER.indexOf(c.errors!.where) + 1).reverse().filter((w) => c.errors!.handlers[w] !== undefined).slice(first + 1)
      if (later.length > 0 && enclave.statusCode >= 400 && later.some((w) => (enclave.headers['x-trace'] ?? '').includes(`eh:${w}`))) return enclave
      // Fastify 3 never answers, so it shows none of the headers: Enclave's are taken, the status and
      // payload checked (the generic 500, or the coded error as the next handler up answered it).
      if (enclave.statusCode !== 500) return undefined
      const text = typeof enclave.body === 'string' ? enclave.body : JSON.stringify(enclave.body)
      return text.includes('ENC_ERR_REPLY_NOTHING_SENT') ? enclave : generic500({ ...enclave.headers })
    },
  },
  {
    id: 'errors-validation-status',
    readme: 'A validation error also carries `statusCode: 400` when it reaches `setErrorHandler`',
    rewrite(f, { c }) {
      const body = record(f.body)
      if (c.errors?.validation === undefined || body === undefined || body.validation !== true || body.statusCode !== null) return undefined
      const rewritten = { ...body, statusCode: 400 }
      return { ...f, headers: { ...f.headers, 'content-length': String(Buffer.byteLength(JSON.stringify(rewritten))) }, body: rewritten }
    },
  },
  {
    id: 'errors-last-resort-headers',
    readme: 'When the error reply itself fails (an onSend hook that throws on it too), the last-resort answer carries only its own headers',
    rewrite(f, { c }) {
      // Only a hook failing on every payload fails the error reply too.
      if (c.errors?.fail?.stage !== 'onSend' || c.errors.fail.every !== true || f.statusCode < 400) return undefined
      const kept: Record<string, string> = {}
      for (const name of ['content-type', 'content-length']) if (f.headers[name] !== undefined) kept[name] = f.headers[name] as string
      return Object.keys(kept).length === Object.keys(f.headers).length ? undefined : { ...f, headers: kept }
    },
  },
  {
    id: 'errors-onsend-fails-4xx',
    readme: 'The same holds for an onSend hook that fails on a 4xx\n  payload (Fastify 3 and 5 both sent its message under the 4xx): a 500, logged once',
    rewrite(f, { c }) {
      const fail = c.errors?.fail
      // A failure without a 4xx/5xx status of its own, on an error reply (the hook fails on every payload).
      if (fail?.stage !== 'onSend' || fail.every !== true || !['plain', '302', '99', '600'].includes(fail.error) || f.statusCode < 400 || f.statusCode > 499) return undefined
      const kept: Record<string, string> = {}
      for (const name of ['content-type', 'content-length']) if (f.headers[name] !== undefined) kept[name] = f.headers[name] as string
      return generic500(kept)
    },
  },
]
