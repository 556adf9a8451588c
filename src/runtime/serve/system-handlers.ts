import { runtimeError } from '../errors/runtime-codes'
import { pathEnd } from './request-target'
import { notFoundPayloadSerializer } from './error-payload'
import type { Request, Reply, Scope } from '../types'
import type { ReplyImpl } from './reply'

/** The built-in 404: the exact payload of Fastify's (no `code`, Fastify's key order). */
export function defaultNotFoundHandler(this: Scope, request: Request, reply: Reply): void {
  // A payload the framework builds: preSerialization hooks do not see it (issue 12), onSend does.
  (reply as unknown as ReplyImpl).errorPayload = true
  const message = `Route ${request.method}:${request.url} not found`
  // Fastify 3 logs each unmatched URL at info level (its "log debug for 404" test), with the
  // message alone: the per-request child logger Enclave makes already carries the id, so no
  // fields object is built for pino to merge (the same line). A logger without children gets the id.
  const serve = (reply as unknown as ReplyImpl).route.serve
  if (serve.childLogs) request.log.info(message)
  else request.log.info(serve.idFields(request.id, {}), message)
  reply.code(404).serializer(notFoundPayloadSerializer).type('application/json; charset=utf-8').send({
    message,
    error: 'Not Found',
    statusCode: 404,
  })
}

/** A URL that cannot be decoded: the `frameworkErrors` option answers it when given (Fastify 3), else the built-in 400. */
export function badUrlHandler(this: Scope, request: Request, reply: Reply): unknown {
  const error = runtimeError('ENC_ERR_BAD_URL', { url: request.url })
  const handler = (reply as unknown as ReplyImpl).route.serve.frameworkErrors
  if (handler === null) throw error
  return handler.call(this, error, request, reply)
}

export function methodNotAllowedHandler(this: Scope, request: Request, reply: Reply): never {
  const allowed = (reply as unknown as ReplyImpl).route.serve.allowedMethods(request.url, request.raw)
  reply.header('allow', allowed.join(', '))
  throw runtimeError('ENC_ERR_METHOD_NOT_ALLOWED', { method: request.method, path: request.url.slice(0, pathEnd(request.url)), allowed })
}
