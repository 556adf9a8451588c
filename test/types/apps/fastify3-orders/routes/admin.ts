// Was: the older routes, typed with route generics (`fastify.get<GetOrder>(...)`) and a handler
// declared apart as `RouteHandlerMethod<RawServerDefault, RawRequestDefaultExpression,
// RawReplyDefaultExpression, ShipOrder>`.
import type { AsyncPlugin, Reply, Request, RequestHook } from '../../../../../src'
import type { GetOrder, ShipOrder } from '../schemas'
import { requireAdmin } from '../plugins/auth'

// Was: `const ship: RouteHandlerMethod<..., ShipOrder> = async function (request, reply) {`
export async function ship(request: Request<ShipOrder>, reply: Reply<ShipOrder>) {
  const order = request.server.db.orders.get(request.params.id)
  if (order === undefined) return reply.problem(404, `no order ${request.params.id}`)
  const carrier: 'ups' | 'dhl' = request.body.carrier
  request.log.info({ carrier }, 'shipping')
  return reply.code(200).send({ ...order, status: 'shipped' })
}

// Was: `const stamp: onRequestHookHandler = (request, reply, done) => { ...; done() }`
export const stamp: RequestHook = (request, _reply, done) => {
  request.startedAt = process.hrtime.bigint()
  done()
}

export const adminRoutes: AsyncPlugin = async (app) => {
  app.addHook('onRequest', stamp)
  app.get<GetOrder>('/orders/:id', { preHandler: [requireAdmin] }, async (request, reply) => {
    const tenant: string | undefined = request.headers['x-tenant']
    void tenant
    const order = app.db.orders.get(request.params.id)
    if (order === undefined) return reply.code(404).send()
    return order
  })
  app.post<ShipOrder>('/orders/:id/ship', { preHandler: requireAdmin }, ship)
  app.route<ShipOrder>({ method: 'PUT', url: '/orders/:id/ship', preHandler: requireAdmin, handler: ship })
}
