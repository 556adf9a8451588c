import pino from 'pino'

/**
 * Fastify 3's log serializers (lib/logger.js): the access log passes the request and the reply
 * themselves under `req` and `res`, so that a user's own `serializers.req` reads what it reads
 * in Fastify (`req.headers`, `req.ip`, `req.id` ...); these turn them into the default lines.
 */
interface LoggedRequest { method: string; url: string; headers?: Record<string, unknown>; hostname?: string; ip?: string; socket?: { remotePort?: number } | null }
interface LoggedReply { statusCode: number; raw?: { statusCode: number } }

export const fastifyLogSerializers: Readonly<{
  req(req: LoggedRequest): Record<string, unknown>
  res(reply: LoggedReply): { statusCode: number }
  err(error: Error): Record<string, unknown>
}> = Object.freeze({
  req(req: LoggedRequest) {
    return {
      method: req.method,
      url: req.url,
      version: req.headers?.['accept-version'],
      hostname: req.hostname,
      remoteAddress: req.ip,
      remotePort: req.socket?.remotePort,
    }
  },
  res(reply: LoggedReply) {
    return { statusCode: reply.raw?.statusCode ?? reply.statusCode }
  },
  err: pino.stdSerializers.err as unknown as (error: Error) => Record<string, unknown>,
})
