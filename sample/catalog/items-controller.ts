import { Body, Get, Params, Post, Query, Reply, Req, Route } from '../../src/decorators'
import { HttpError, type Request } from '../../src/runtime'
import { Item, ItemId, ItemPage, ItemQuery, NewItem } from './catalog-schemas'
import { ItemStore, type StoredItem } from './item-store'

/**
 * GET/POST /items: shared schemas, coercion, a filtered response, attachValidation. Request
 * schemas come from the parameter types (`@Query() query: ItemQuery`); response schemas are
 * given per status, and the return types are checked against them at compile time.
 */
@Route('/items')
export class ItemsController {
  constructor(private readonly store: ItemStore) {}

  @Get('/', { schema: { response: { 200: ItemPage } } })
  list(@Query() query: ItemQuery): ItemPage {
    return this.store.list({ tags: query.tags ?? [], limit: query.limit, offset: query.offset ?? 0 })
  }

  @Get('/:id', { schema: { response: { 200: Item } } })
  find(@Params() params: ItemId): StoredItem {
    const item = params.id === undefined ? undefined : this.store.get(params.id)
    if (item === undefined) throw new HttpError(404, `No item with id ${params.id}`)
    return item
  }

  // The stored item keeps `supplierCost`; the 201 schema (`item#`) leaves it out of the answer.
  @Post('/', { schema: { response: { 201: Item } } })
  create(@Body() body: NewItem, @Reply() reply: Reply): StoredItem {
    reply.code(201)
    return this.store.add(body)
  }

  // attachValidation: the handler runs even when the body is invalid and decides the answer (spec §3.1.3).
  @Post('/check', { schema: { body: NewItem }, attachValidation: true })
  check(@Req() request: Request) {
    const error = request.validationError
    return error === null || error === undefined
      ? { valid: true }
      : { valid: false, message: error.message, validationContext: error.validationContext }
  }
}
