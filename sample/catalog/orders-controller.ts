import { Body, Post, Reply, Route } from '../../src/decorators'
import { HttpError } from '../../src/runtime'
import { NewOrder, Order } from './catalog-schemas'
import { ItemStore } from './item-store'

let nextOrderId = 1

/** POST /orders: its module answers validation errors with 422 instead of 400. */
@Route('/orders')
export class OrdersController {
  constructor(private readonly store: ItemStore) {}

  @Post('/', { schema: { response: { 201: Order } } })
  create(@Body() order: NewOrder, @Reply() reply: Reply): Order {
    const item = this.store.get(order.itemId)
    if (item === undefined) throw new HttpError(404, `No item with id ${order.itemId}`)
    reply.code(201)
    return { orderId: nextOrderId++, itemId: item.id, quantity: order.quantity, total: item.price * order.quantity }
  }
}
