import { validateHeaderName, validateHeaderValue } from 'node:http'
import type { FrameworkError } from '../errors/framework-error'
import { runtimeError } from '../errors/runtime-codes'
import { endDeadline } from './handler-timeout'
import type { ReplyImpl } from './reply'
import type { Reply, Request } from '../types'
import { commit, isOpen } from './reply-state'
import { pickSerializer } from '../schemas'
import { DeferredBuildError } from '../schemas/deferred-serializer'
import { schemaBuildFailure } from './schema-build-failure'
import { replyAt } from './reply-at'

/**
 * The parts of Fastify's reply API that plugins call beyond send(): redirect, hijack,
 * callNotFound and serialize. Kept out of reply.ts so that the class stays its fields and state.
 */

export function redirectReply(reply: ReplyImpl, a: string | number, b?: string | number): void {
  // Fastify 4+ writes redirect(url, code); Fastify 3 wrote redirect(code, url). Both are read, and
  // a code given as digits (`redirect('301', '/to')`, a value from config) is a code: Fastify
  // 3.27.4 takes any string first argument for the URL (Location: 301, status 302).
  const codeFirst = typeof a === 'number' || (typeof b === 'string' && /^[0-9]{3}$/.test(a))
  const [url, code] = codeFirst ? [b, a] : [a, b]
  if (typeof url !== 'string') {
    throw runtimeError('ENC_ERR_REPLY_INVALID_REDIRECT', { method: reply.request.method, url: reply.request.url, got: typeof url })
  }
  const status = code === undefined ? (reply.statusCode >= 300 && reply.statusCode < 400 ? reply.statusCode : 302) : Number(code)
  reply.header('location', url).code(status).send()
}

/**
 * The caller writes to `reply.raw` itself: the reply counts as written, its deadline ends, and
 * nothing the framework would do later (the 503 of handlerTimeout, a second send) touches it.
 */
export function hijackReply(reply: ReplyImpl): void {
  if (commit(reply)) endDeadline(reply)
}

/**
 * Fastify 5's reply.writeEarlyHints() over Node's res.writeEarlyHints(), which checks none of:
 * the head already written (the 103 would land inside the body), an HTTP/1.0 client (RFC 9110
 * §15.2: no 1xx to it), the other hints' values (written as they are: a CRLF splits the
 * response), and it drops the callback when there is no `link` to send or the connection is
 * closed (an await on it hangs).
 */
export function writeEarlyHints(reply: ReplyImpl, hints: Record<string, string | readonly string[]>, callback?: () => void): void {
  const res = reply.raw
  const req = reply.request.raw
  const refused = (error: unknown): FrameworkError => runtimeError('ENC_ERR_REPLY_INVALID_HEADER',
    { at: `${replyAt(reply)} (writeEarlyHints)`, reason: error instanceof Error ? error.message : String(error) }, { cause: error })
  const named: Record<string, string | string[]> = {}
  for (const name of Object.keys(hints)) {
    const value = hints[name]
    try {
      validateHeaderName(name)
      // Node validates `link` itself (its own syntax, below); the others go out as given.
      if (name.toLowerCase() !== 'link') for (const one of Array.isArray(value) ? value : [value]) validateHeaderValue(name, one)
    } catch (error) {
      throw refused(error)
    }
    named[name.toLowerCase()] = value as string | string[]
  }
  const done = (): void => { if (callback !== undefined) process.nextTick(callback) }
  if (res.headersSent) {
    reply.request.log.warn(reply.route.serve.idFields(reply.request.id, {}), 'reply.writeEarlyHints() was called after the response head was written; ignored')
    done()
    return
  }
  const link = named.link
  // A closed connection: Node drops the callback too.
  if (res.destroyed || res.socket?.destroyed === true ||
    (req.httpVersionMajor === 1 && req.httpVersionMinor === 0) || link === undefined || link === '' || (Array.isArray(link) && link.length === 0)) {
    done()
    return
  }
  try {
    res.writeEarlyHints(named, callback)
  } catch (error) {
    throw refused(error)
  }
}

/**
 * Fastify's reply.callNotFound(): the not-found handler of the route's scope answers, with its
 * preHandler hooks, keeping the headers set so far. The server wires the serving part
 * (ServerContext.serveNotFound) so that this file does not import the pipeline.
 */
export function callNotFound(reply: ReplyImpl): void {
  if (!isOpen(reply)) {
    reply.request.log.warn({ reqId: reply.request.id, code: 'ENC_ERR_REPLY_ALREADY_SENT' }, 'reply.callNotFound() was called after the reply was sent; ignored')
    return
  }
  if (reply.route.serve.endsNotFound(reply.route)) {
    // Already in a not-found handler (calling it again would loop), or on an undecodable URL: Fastify 3 answers a plain 404.
    reply.request.log.warn(reply.route.serve.idFields(reply.request.id, {}), 'Trying to send a NotFound error inside a 404 handler. Sending basic 404 response.')
    reply.code(404).type('text/plain; charset=utf-8').send('404 Not Found')
    return
  }
  hijackReply(reply)
  reply.route.serve.serveNotFound(reply)
  // After the hand-over, so that what it watches (the response's end) is the not-found route's answer.
  if (reply.handOver !== null) reply.handOver(reply.request as unknown as Request, reply as unknown as Reply)
}

export function serializeForReply(reply: ReplyImpl, payload: unknown): string {
  if (reply.customSerializer !== null) return reply.customSerializer(payload)
  if (reply.route.replySerializer !== null) return reply.route.replySerializer(payload, reply.statusCode)
  const serialize = reply.route.serializers === null ? null : pickSerializer(reply.route.serializers, reply.statusCode)
  if (serialize === null) return JSON.stringify(payload)
  try {
    return serialize(payload)
  } catch (error) {
    // A lazy route's serializer for this status, built now, did not compile: the same 500 as when sent.
    throw error instanceof DeferredBuildError ? schemaBuildFailure(reply.route, error.cause) : error
  }
}
