// A Fastify 5.12 service (TypeBox and json-schema-to-ts routes, @fastify/autoload, env, sensible, jwt,
// rate-limit, cors, swagger + swagger-ui, under-pressure, @fastify/error codes) moved onto
// createServer() by docs/fastify-compat.md, "Coming from Fastify 4 or 5". Each edit is commented
// `Was:`; every other line is as the Fastify 5 team wrote it. test/ecosystem/fastify5-bookshop.test.ts
// runs it over HTTP against the answers Fastify 5 gave for the same requests.
// Was: `import Fastify, { type FastifyError, type FastifyInstance } from 'fastify'`
import { createServer, type HandledError, type Scope } from '../../../../src'
import autoload from '@fastify/autoload'
import sensible from '@fastify/sensible'
import cors from '@fastify/cors'
import rateLimit from '@fastify/rate-limit'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import underPressure from '@fastify/under-pressure'
import { join } from 'node:path'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Writable } from 'node:stream'

export const lines: Array<Record<string, unknown>> = []
const sink = new Writable({ write(chunk, _enc, cb) { for (const l of String(chunk).split('\n')) if (l) lines.push(JSON.parse(l)); cb() } })

// Was: `Promise<FastifyInstance>`
export async function build(): Promise<Scope> {
  // Was: `Fastify({ ... })`
  const app = createServer({ logger: { level: 'info', stream: sink }, genReqId: (req) => String(req.headers['x-request-id'] ?? 'r-' + Math.random().toString(36).slice(2)) }).withTypeProvider<TypeBoxTypeProvider>()

  await app.register(sensible)
  await app.register(autoload, { dir: join(__dirname, 'plugins') })
  await app.register(cors, { origin: ['https://shop.example'], credentials: true })
  await app.register(underPressure, { maxEventLoopDelay: 60_000, exposeStatusRoute: '/status' })
  await app.register(swagger, { openapi: { info: { title: 'Bookshop', version: '1.0.0' } } })
  await app.register(swaggerUi, { routePrefix: '/docs' })
  await app.register(rateLimit, { global: false, max: app.config.RATE_MAX })

  app.addHook('onRequest', async (request, reply) => { reply.header('x-request-id', request.id) })
  app.addHook('onResponse', async (request, reply) => { request.log.info({ ms: Math.round(reply.elapsedTime) >= 0 }, 'timed') })
  app.addHook('preClose', async () => { app.log.info('preClose: draining') })
  app.addHook('onClose', async () => { app.log.info('onClose') })

  // Was: `(error: FastifyError, request, reply)`
  app.setErrorHandler((error: HandledError, request, reply) => {
    if (error.validation) {
      return reply.code(400).send({ statusCode: 400, code: 'APP_VALIDATION', error: 'Bad Request', message: error.message, context: error.validationContext })
    }
    if (error.code?.startsWith('APP_')) {
      return reply.code(error.statusCode ?? 500).send({ statusCode: error.statusCode, code: error.code, error: error.name, message: error.message })
    }
    const status = error.statusCode ?? 500
    if (status >= 500) request.log.error({ err: error }, 'unhandled')
    return reply.code(status).send({ statusCode: status, error: status >= 500 ? 'Internal Server Error' : error.name, message: status >= 500 ? 'something went wrong' : error.message })
  })
  app.setNotFoundHandler((request, reply) => reply.code(404).send({ statusCode: 404, error: 'Not Found', message: `no route ${request.method} ${request.url}` }))

  await app.register(autoload, { dir: join(__dirname, 'routes'), options: { prefix: '/api' } })
  app.get('/health', async () => ({ status: 'ok', app: app.config.APP_NAME }))
  return app
}
