// The same service on the decorator layer, following docs/fastify-compat.md's "Moving the same
// service onto modules and controllers": the root registrations become the module's `plugins`
// (the two autoloaded folders among them), its hooks, error and not-found handlers module methods,
// and `/health` a controller. test/ecosystem/fastify5-bookshop.test.ts runs both builds alike.
import 'reflect-metadata'
import { Route, Get, Module, Hook, ErrorHandler, NotFoundHandler, Logger, createApp, type HandledError, type Request, type Reply } from '../../../../src'
import autoload from '@fastify/autoload'
import sensible from '@fastify/sensible'
import cors from '@fastify/cors'
import rateLimit from '@fastify/rate-limit'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import underPressure from '@fastify/under-pressure'
import { join } from 'node:path'
import { Writable } from 'node:stream'

export const lines: Array<Record<string, unknown>> = []
const sink = new Writable({ write(chunk, _enc, cb) { for (const l of String(chunk).split('\n')) if (l) lines.push(JSON.parse(l)); cb() } })

@Route('/')
class HealthController {
  @Get('/health')
  health(request: Request) { return { status: 'ok', app: request.server.config.APP_NAME } }
}

@Module({
  plugins: [
    sensible,
    [autoload, { dir: join(__dirname, 'plugins') }],
    [cors, { origin: ['https://shop.example'], credentials: true }],
    [underPressure, { maxEventLoopDelay: 60000, exposeStatusRoute: '/status' }],
    [swagger, { openapi: { info: { title: 'Bookshop', version: '1.0.0' } } }],
    [swaggerUi, { routePrefix: '/docs' }],
    [rateLimit, { global: false, max: 3 }],
    [autoload, { dir: join(__dirname, 'routes'), options: { prefix: '/api' } }],
  ],
  controllers: [HealthController],
})
class AppModule {
  @Hook('onRequest') async requestId(request: Request, reply: Reply) { reply.header('x-request-id', request.id) }
  @Hook('onResponse') async timed(request: Request, reply: Reply) { request.log.info({ ms: Math.round(reply.elapsedTime) >= 0 }, 'timed') }
  // Was: `app.addHook('preClose', async () => { app.log.info(...) })`: `this` is the module here, so
  // the app's logger is injected (a child carrying `module`)
  constructor(private readonly log: Logger) {}
  @Hook('preClose') async draining() { this.log.info('preClose: draining') }
  @Hook('onClose') async closed() { this.log.info('onClose') }
  @ErrorHandler() onError(error: HandledError, request: Request, reply: Reply) {
    if (error.validation) return reply.code(400).send({ statusCode: 400, code: 'APP_VALIDATION', error: 'Bad Request', message: error.message, context: error.validationContext })
    if (error.code?.startsWith('APP_')) return reply.code(error.statusCode ?? 500).send({ statusCode: error.statusCode, code: error.code, error: error.name, message: error.message })
    const status = error.statusCode ?? 500
    if (status >= 500) request.log.error({ err: error }, 'unhandled')
    return reply.code(status).send({ statusCode: status, error: status >= 500 ? 'Internal Server Error' : error.name, message: status >= 500 ? 'something went wrong' : error.message })
  }
  @NotFoundHandler() notFound(request: Request, reply: Reply) { return reply.code(404).send({ statusCode: 404, error: 'Not Found', message: `no route ${request.method} ${request.url}` }) }
}

export function build() {
  return createApp(AppModule, { logger: { level: 'info', stream: sink }, genReqId: (req) => String(req.headers['x-request-id'] ?? 'r-' + Math.random().toString(36).slice(2)) })
}
