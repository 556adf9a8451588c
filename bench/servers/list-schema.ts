/**
 * The `list` endpoint: GET /list answers 1,000 objects through an array response schema. The
 * array is built once at load, so the handler costs nothing and the serializer is the work.
 */
export const LIST_LENGTH = 1000

export interface Product { id: number; sku: string; name: string; price: number; inStock: boolean; tags: string[] }

export const listSchema = {
  response: {
    200: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          sku: { type: 'string' },
          name: { type: 'string' },
          price: { type: 'number' },
          inStock: { type: 'boolean' },
          tags: { type: 'array', items: { type: 'string' } },
        },
        required: ['id', 'sku', 'name', 'price', 'inStock'],
      },
    },
  },
}

const tagSets = [['new'], ['sale', 'outdoor'], [], ['kids', 'summer', 'sale']]

function product(i: number): Product {
  return {
    id: i + 1,
    sku: `SKU-${String(100000 + i * 7)}`,
    name: `Product number ${i + 1} "quoted" & escaped`,
    price: Math.round((i * 3.7 + 0.99) * 100) / 100,
    inStock: i % 3 !== 0,
    tags: tagSets[i % tagSets.length],
  }
}

/** What every /list handler answers (about 100 KB of JSON). */
export const listPayload: readonly Product[] = Object.freeze(Array.from({ length: LIST_LENGTH }, (_, i) => product(i)))
