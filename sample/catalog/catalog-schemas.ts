import { SchemaClass } from '../../src/decorators'

/**
 * Every shape of the catalog, declared once. Each class is at the same time the JSON Schema that
 * validates or serializes it and the TypeScript type handlers use (src/decorators/schema-class.ts).
 * Between them the routes use every reference form of spec §2.3: `catalog#/definitions/tag`,
 * `catalog#/properties/name`, `catalog#sku` (a named subschema), `item#` (root), and
 * `#/definitions/<name>` inside a schema.
 */

/** Building blocks, not a shape of its own: a plain shared schema (listed in CatalogModule's schemas). */
export const catalogSchema = {
  $id: 'catalog',
  definitions: {
    tag: { type: 'string', minLength: 1, maxLength: 20 },
    price: { type: 'number', minimum: 0 },
    sku: { $id: '#sku', type: 'string', pattern: '^[A-Z]{3}-[0-9]{4}$' },
  },
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 50 },
  },
} as const

/** The public view of an item. `supplierCost` is not in it, so responses never disclose it (spec §1.6). */
export class Item extends SchemaClass({
  $id: 'item',
  type: 'object',
  required: ['id', 'name', 'price', 'tags'],
  properties: {
    id: { type: 'integer' },
    name: { $ref: 'catalog#/properties/name' },
    price: { $ref: 'catalog#/definitions/price' },
    sku: { $ref: 'catalog#sku' },
    tags: { type: 'array', items: { $ref: 'catalog#/definitions/tag' } },
  },
}, { references: [catalogSchema] }) {}

/** What a client sends to create an item (or to check one). */
export class NewItem extends SchemaClass({
  $id: 'newItem',
  type: 'object',
  required: ['name', 'price'],
  properties: {
    name: { $ref: 'catalog#/properties/name' },
    price: { $ref: 'catalog#/definitions/price' },
    sku: { $ref: 'catalog#sku' },
    tags: { type: 'array', maxItems: 5, items: { $ref: 'catalog#/definitions/tag' } },
    supplierCost: { type: 'number', minimum: 0 },
  },
}, { references: [catalogSchema] }) {}

/** GET /items answers a page of items through the `item#` root reference. */
export class ItemPage extends SchemaClass({
  type: 'object',
  required: ['total', 'items'],
  properties: { total: { type: 'integer' }, items: { type: 'array', items: { $ref: 'item#' } } },
}, { references: [Item, catalogSchema] }) {}

/** GET /items?tags=a&tags=b&limit=20&offset=0 */
export class ItemQuery extends SchemaClass({
  type: 'object',
  // Local references (spec §2.3). The `#<name>` form (a subschema `$id`) works at run time, but
  // json-schema-to-ts cannot type it, so typed schemas use `#/definitions/<name>`.
  definitions: {
    tag: { type: 'string', minLength: 1 },
    count: { type: 'integer', minimum: 0 },
  },
  properties: {
    // An array parameter: `?tags=a&tags=b`. A single `?tags=a` is refused with 400 under the
    // default options (spec §2.7): arrays in the query string are not coerced.
    tags: { type: 'array', items: { $ref: '#/definitions/tag' } },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    offset: { $ref: '#/definitions/count' },
  },
}) {}

/** `/items/:id`: the id arrives as a string in the URL; the schema coerces it to an integer. */
export class ItemId extends SchemaClass({ type: 'object', properties: { id: { type: 'integer', minimum: 1 } } }) {}

export class NewOrder extends SchemaClass({
  type: 'object',
  required: ['itemId', 'quantity'],
  properties: { itemId: { type: 'integer', minimum: 1 }, quantity: { type: 'integer', minimum: 1, maximum: 100 } },
}) {}

export class Order extends SchemaClass({
  type: 'object',
  required: ['orderId', 'itemId', 'quantity', 'total'],
  properties: { orderId: { type: 'integer' }, itemId: { type: 'integer' }, quantity: { type: 'integer' }, total: { type: 'number' } },
}) {}
