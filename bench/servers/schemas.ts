/**
 * The one source of schemas and payloads for every contender, so each server validates and
 * serializes exactly the same things and the pre-flight can check every answer the same way.
 */

export const twoSchema = {
  response: {
    200: {
      type: 'object',
      properties: { answer: { type: 'integer' }, foo: { type: 'string' } },
      required: ['answer', 'foo'],
    },
  },
}

const itemProperties = {
  name: { type: 'string', maxLength: 50 },
  price: { type: 'number', minimum: 0 },
  tags: { type: 'array', items: { type: 'string' }, maxItems: 5 },
}

export const itemBodySchema = {
  type: 'object',
  properties: itemProperties,
  required: ['name', 'price'],
}

export const itemsSchema = {
  body: itemBodySchema,
  response: {
    201: { type: 'object', properties: itemProperties, required: ['name', 'price'] },
  },
}

export const searchQuerySchema = {
  type: 'object',
  properties: {
    q: { type: 'string', maxLength: 100 },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
  },
  required: ['q'],
}

export const searchSchema = {
  querystring: searchQuerySchema,
  response: {
    200: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          title: { type: 'string' },
          score: { type: 'number' },
          tags: { type: 'array', items: { type: 'string' } },
        },
        required: ['id', 'title', 'score'],
      },
    },
  },
}

export const twoPayload = { answer: 42, foo: 'bar' }

export interface Item { name: string; price: number; tags?: string[] }
export interface SearchHit { id: number; title: string; score: number; tags: string[] }

const hitTags = ['alpha', 'beta']

/** What every /search handler answers: built per request, as a real search handler would. */
export function searchHits(q: string, limit: number): SearchHit[] {
  const hits: SearchHit[] = new Array(limit)
  for (let i = 0; i < limit; i++) {
    hits[i] = { id: i + 1, title: `${q} result ${i + 1}`, score: 1 - i / 100, tags: hitTags }
  }
  return hits
}

/** The requests the load generators send, and what a correct contender answers. */
export const validItem: Item = { name: 'widget', price: 9.99, tags: ['blue', 'small'] }
/** `price` below the minimum: a 400 from the body schema, after the body was parsed. */
export const invalidItem = { name: 'widget', price: -1, tags: ['blue'] }
export const searchQuery = { q: 'abc', limit: '10' }
