// Was: `fastify.setErrorHandler((error: FastifyError, request, reply) => ...)` and a
// `FastifyError`-shaped error class thrown by handlers.
import type { HandledError, Reply, Request, Scope } from '../../../../src'

export class OutOfStock extends Error {
  readonly statusCode = 409
  readonly code = 'OUT_OF_STOCK'
  constructor(readonly sku: string) { super(`${sku} is out of stock`) }
}

export function errorHandler(this: Scope, error: HandledError, request: Request, reply: Reply): void {
  if (error.validation !== undefined) {
    const first = error.validation[0]
    reply.code(400).send({ statusCode: 400, error: 'Bad Request', message: `${error.validationContext ?? 'request'}: ${first?.message ?? error.message}` })
    return
  }
  const status: number = error.statusCode ?? 500
  if (status >= 500) request.log.error({ err: error }, 'order service failed')
  reply.code(status).send({ statusCode: status, error: error.code ?? 'Error', message: error.message })
}
