import { Body, Post, Reply, Route } from '../../src/decorators'
import { HttpError } from '../../src/runtime'
import { ItemStore } from './item-store'

let nextOrderId = 1

/** POST /orders: its module answers validation errors with 422 instead of 400. */
@Route('/orders')
export class OrdersController {
  constructor(private readonly store: ItemStore) {}

  @Post('/', {
    schema: {
      body: {
        type: 'object',
        required: ['itemId', 'quantity'],
        properties: { itemId: { type: 'integer', minimum: 1 }, quantity: { type: 'integer', minimum: 1, maximum: 100 } },
      },
      response: { 201: { type: 'object', properties: { orderId: { type: 'integer' }, itemId: { type: 'integer' }, quantity: { type: 'integer' }, total: { type: 'number' } } } },
    },
  })
  create(@Body() body: { itemId: number; quantity: number }, @Reply() reply: Reply) {
    const item = this.store.get(body.itemId)
    if (item === undefined) throw new HttpError(404, `No item with id ${body.itemId}`)
    reply.code(201)
    return { orderId: nextOrderId++, itemId: item.id, quantity: body.quantity, total: item.price * body.quantity }
  }
}
