import { runtimeError } from '../errors/runtime-codes'
import { errorPayloadSerializer } from './error-payload'
import type { Request, Reply, Scope } from '../types'
import type { ReplyImpl } from './reply'

/** The built-in 404: the exact payload of Fastify's (no `code`), through the error serializer. */
export function defaultNotFoundHandler(this: Scope, request: Request, reply: Reply): void {
  // A payload the framework builds: preSerialization hooks do not see it (issue 12), onSend does.
  (reply as unknown as ReplyImpl).errorPayload = true
  reply.code(404).serializer(errorPayloadSerializer).type('application/json; charset=utf-8').send({
    statusCode: 404,
    error: 'Not Found',
    message: `Route ${request.method}:${request.url} not found`,
  })
}

export function badUrlHandler(this: Scope, request: Request): never {
  throw runtimeError('ENC_ERR_BAD_URL', { url: request.url })
}

export function methodNotAllowedHandler(this: Scope, request: Request, reply: Reply): never {
  const allowed = (reply as unknown as ReplyImpl).route.serve.allowedMethods(request.url, request.raw)
  reply.header('allow', allowed.join(', '))
  throw runtimeError('ENC_ERR_METHOD_NOT_ALLOWED', { method: request.method, path: request.url.split('?')[0], allowed })
}
