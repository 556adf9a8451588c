// Was: `export function build(opts: FastifyServerOptions = {}): FastifyInstance { const app = fastify(opts) ...`
import { createServer, type Scope, type ServerOptions } from '../../../../src'
import './augment'
import db from './plugins/db'
import auth, { type Account } from './plugins/auth'
import { errorHandler } from './errors'
import { ordersRoutes } from './routes/orders'
import { adminRoutes } from './routes/admin'

const tokens: Record<string, Account> = {
  'admin-token': { id: 1, name: 'ada', roles: ['admin'] },
  'clerk-token': { id: 2, name: 'cid', roles: ['clerk'] },
}

export function build(opts: ServerOptions = {}): Scope {
  const app = createServer({ logger: { level: 'warn' }, ...opts })
  app.decorate('config', { currency: 'EUR', pageSize: 20 })
  app.decorateRequest('startedAt', BigInt(0))
  app.decorateReply('problem', function (status: number, detail: string) {
    this.code(status).send({ statusCode: status, error: status >= 500 ? 'Internal Server Error' : 'Client Error', message: detail })
  })
  app.register(db, { url: 'postgres://localhost/orders', poolSize: 2 })
  app.register(auth, { tokens })
  app.setErrorHandler(errorHandler)
  app.register(ordersRoutes, { prefix: '/orders', pageSize: app.config.pageSize })
  app.register(adminRoutes, { prefix: '/admin' })
  return app
}
