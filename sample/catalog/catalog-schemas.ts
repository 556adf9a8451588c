import { Schema } from '../../src/decorators'

/**
 * Building blocks shared by the catalog routes. Between them the routes use every reference
 * form of spec §2.3: `catalog#/definitions/tag`, `catalog#/properties/name`, `catalog#sku`,
 * `item#` (root), and, inside route schemas, `#/definitions/<name>` and `#<name>`.
 */
@Schema({
  $id: 'catalog',
  definitions: {
    tag: { type: 'string', minLength: 1, maxLength: 20 },
    price: { type: 'number', minimum: 0 },
    sku: { $id: '#sku', type: 'string', pattern: '^[A-Z]{3}-[0-9]{4}$' },
  },
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 50 },
  },
})
export class CatalogSchema {}

/** The public view of an item. `supplierCost` is not in it, so responses never disclose it (spec §1.6). */
@Schema({
  $id: 'item',
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { $ref: 'catalog#/properties/name' },
    price: { $ref: 'catalog#/definitions/price' },
    sku: { $ref: 'catalog#sku' },
    tags: { type: 'array', items: { $ref: 'catalog#/definitions/tag' } },
  },
})
export class ItemSchema {}

/** What a client sends to create an item (or to check one). */
@Schema({
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
})
export class NewItemSchema {}
