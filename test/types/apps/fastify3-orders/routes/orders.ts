// Was: `const orders: FastifyPluginAsync<{ pageSize: number }> = async (fastify, opts) => {` with
// `fastify.withTypeProvider<TypeBoxTypeProvider>()`: the TypeBox schemas type the handlers.
import { Type } from '@sinclair/typebox'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { AsyncPlugin } from '../../../../../src'
import { Order, OrderInput, Problem, listQuery } from '../schemas'
import { OutOfStock } from '../errors'
import { audit } from '../logger'
import { requireAccount } from '../plugins/auth'

export interface OrdersOptions { pageSize: number }

export const ordersRoutes: AsyncPlugin<OrdersOptions> = async (fastify, opts) => {
  // Kept as written: Enclave answers the same scope, typed as before.
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>()
  app.post('/', {
    preHandler: requireAccount,
    schema: { body: OrderInput, response: { 201: Order, 409: Problem } },
  }, async (request, reply) => {
    const input = request.body
    const sku: string = input.sku
    if (input.quantity > 100) throw new OutOfStock(sku)
    const order = { id: app.db.nextId(), sku, quantity: input.quantity, status: 'open' as const, total: input.quantity * 9.5 }
    app.db.orders.set(order.id, order)
    audit(request.log, 'order.created', { id: order.id, by: request.account?.name })
    return reply.code(201).send(order)
  })

  app.get('/', { schema: { querystring: listQuery, response: { 200: Type.Array(Order) } } }, async (request) => {
    const page: number = request.query.page
    const all = [...app.db.orders.values()].filter((o) => request.query.status === undefined || o.status === request.query.status)
    return all.slice((page - 1) * opts.pageSize, page * opts.pageSize)
  })
}
