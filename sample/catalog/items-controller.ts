import { Body, Get, Params, Post, Query, Reply, Req, Route } from '../../src/decorators'
import { HttpError, type Request } from '../../src/runtime'
import { ItemStore, type NewItem } from './item-store'

const listQuery = {
  type: 'object',
  // Local references, both forms of spec §2.3: `#/definitions/<name>` and `#<name>`.
  definitions: {
    tag: { type: 'string', minLength: 1 },
    count: { $id: '#count', type: 'integer', minimum: 0 },
  },
  properties: {
    // An array parameter: `?tags=a&tags=b`. A single `?tags=a` is refused with 400 under the
    // default options (spec §2.7): arrays in the query string are not coerced.
    tags: { type: 'array', items: { $ref: '#/definitions/tag' } },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    offset: { $ref: '#count' },
  },
}

/** GET/POST /items: shared schemas, coercion, a filtered response, attachValidation. */
@Route('/items')
export class ItemsController {
  constructor(private readonly store: ItemStore) {}

  @Get('/', {
    schema: {
      querystring: listQuery,
      response: { 200: { type: 'object', properties: { total: { type: 'integer' }, items: { type: 'array', items: { $ref: 'item#' } } } } },
    },
  })
  list(@Query() query: { tags?: string[]; limit: number; offset?: number }) {
    return this.store.list({ tags: query.tags ?? [], limit: query.limit, offset: query.offset ?? 0 })
  }

  // `id` arrives as a string in the URL; the params schema coerces it to an integer.
  @Get('/:id', { schema: { params: { id: { type: 'integer', minimum: 1 } }, response: { 200: { $ref: 'item#' } } } })
  find(@Params('id') id: number) {
    const item = this.store.get(id)
    if (item === undefined) throw new HttpError(404, `No item with id ${id}`)
    return item
  }

  // The stored item keeps `supplierCost`; the 201 schema (`item#`) leaves it out of the answer.
  @Post('/', { schema: { body: { $ref: 'newItem#' }, response: { 201: { $ref: 'item#' } } } })
  create(@Body() body: NewItem, @Reply() reply: Reply) {
    reply.code(201)
    return this.store.add(body)
  }

  // attachValidation: the handler runs even when the body is invalid and decides the answer (spec §3.1.3).
  @Post('/check', { schema: { body: { $ref: 'newItem#' } }, attachValidation: true })
  check(@Req() request: Request) {
    const error = request.validationError
    return error === null || error === undefined
      ? { valid: true }
      : { valid: false, message: error.message, validationContext: error.validationContext }
  }
}
