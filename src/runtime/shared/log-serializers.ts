import pino from 'pino'

// Typed here: the inferred type names pino-std-serializers' SerializedError, which a declaration
// build in a clone whose node_modules is linked elsewhere cannot name (TS2742 in the pack test).
const stdErr: (error: Error) => object = pino.stdSerializers.err

/**
 * Fastify 3's log serializers (lib/logger.js): the access log passes the request and the reply
 * themselves under `req` and `res`, so that a user's own `serializers.req` reads what it reads
 * in Fastify (`req.headers`, `req.ip`, `req.id` ...); these turn them into the default lines.
 */
export const fastifyLogSerializers = Object.freeze({
  req(req: { method: string; url: string; headers?: Record<string, unknown>; hostname?: string; ip?: string; socket?: { remotePort?: number } | null }) {
    return {
      method: req.method,
      url: req.url,
      version: req.headers?.['accept-version'],
      hostname: req.hostname,
      remoteAddress: req.ip,
      remotePort: req.socket?.remotePort,
    }
  },
  res(reply: { statusCode: number; raw?: { statusCode: number } }) {
    return { statusCode: reply.raw?.statusCode ?? reply.statusCode }
  },
  err: stdErr,
})
