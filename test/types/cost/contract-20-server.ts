// contract-20-routes.ts without the client: the contract and its implementation only (the server's share).
import { createServer, defineContract, implement } from '../../../src'

const Item = { type: 'object', required: ['id', 'name', 'count'], properties: { id: { type: 'string' }, name: { type: 'string' }, count: { type: 'integer' } }, additionalProperties: false } as const
const NewItem = { type: 'object', required: ['name'], properties: { name: { type: 'string' }, count: { type: 'integer' } }, additionalProperties: false } as const
const Missing = { type: 'object', required: ['message'], properties: { message: { type: 'string' } } } as const

export const api = defineContract({
  get0: { method: 'GET', url: '/items0/:id', schema: { response: { 200: Item, 404: Missing } } },
  list1: { method: 'GET', url: '/items1', schema: { querystring: { type: 'object', properties: { limit: { type: 'integer' }, q: { type: 'string' } } }, response: { 200: { type: 'array', items: Item } } } },
  create2: { method: 'POST', url: '/items2', schema: { body: NewItem, response: { 201: Item, 400: Missing } } },
  update3: { method: 'PATCH', url: '/items3/:id', schema: { params: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } }, body: NewItem, response: { 200: Item, '4xx': Missing } } },
  get4: { method: 'GET', url: '/items4/:id', schema: { response: { 200: Item, 404: Missing } } },
  list5: { method: 'GET', url: '/items5', schema: { querystring: { type: 'object', properties: { limit: { type: 'integer' }, q: { type: 'string' } } }, response: { 200: { type: 'array', items: Item } } } },
  create6: { method: 'POST', url: '/items6', schema: { body: NewItem, response: { 201: Item, 400: Missing } } },
  update7: { method: 'PATCH', url: '/items7/:id', schema: { params: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } }, body: NewItem, response: { 200: Item, '4xx': Missing } } },
  get8: { method: 'GET', url: '/items8/:id', schema: { response: { 200: Item, 404: Missing } } },
  list9: { method: 'GET', url: '/items9', schema: { querystring: { type: 'object', properties: { limit: { type: 'integer' }, q: { type: 'string' } } }, response: { 200: { type: 'array', items: Item } } } },
  create10: { method: 'POST', url: '/items10', schema: { body: NewItem, response: { 201: Item, 400: Missing } } },
  update11: { method: 'PATCH', url: '/items11/:id', schema: { params: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } }, body: NewItem, response: { 200: Item, '4xx': Missing } } },
  get12: { method: 'GET', url: '/items12/:id', schema: { response: { 200: Item, 404: Missing } } },
  list13: { method: 'GET', url: '/items13', schema: { querystring: { type: 'object', properties: { limit: { type: 'integer' }, q: { type: 'string' } } }, response: { 200: { type: 'array', items: Item } } } },
  create14: { method: 'POST', url: '/items14', schema: { body: NewItem, response: { 201: Item, 400: Missing } } },
  update15: { method: 'PATCH', url: '/items15/:id', schema: { params: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } }, body: NewItem, response: { 200: Item, '4xx': Missing } } },
  get16: { method: 'GET', url: '/items16/:id', schema: { response: { 200: Item, 404: Missing } } },
  list17: { method: 'GET', url: '/items17', schema: { querystring: { type: 'object', properties: { limit: { type: 'integer' }, q: { type: 'string' } } }, response: { 200: { type: 'array', items: Item } } } },
  create18: { method: 'POST', url: '/items18', schema: { body: NewItem, response: { 201: Item, 400: Missing } } },
  update19: { method: 'PATCH', url: '/items19/:id', schema: { params: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } }, body: NewItem, response: { 200: Item, '4xx': Missing } } },
})

implement(createServer(), api, {
  get0: async (request) => ({ id: request.params.id, name: 'n', count: 1 }),
  list1: async (request) => [{ id: String(request.query.limit), name: request.query.q ?? '', count: 0 }],
  create2: async (request, reply) => { reply.code(201); return { id: '1', name: request.body.name, count: request.body.count ?? 0 } },
  update3: async (request) => ({ id: String(request.params.id), name: request.body.name, count: 1 }),
  get4: async (request) => ({ id: request.params.id, name: 'n', count: 1 }),
  list5: async (request) => [{ id: String(request.query.limit), name: request.query.q ?? '', count: 0 }],
  create6: async (request, reply) => { reply.code(201); return { id: '1', name: request.body.name, count: request.body.count ?? 0 } },
  update7: async (request) => ({ id: String(request.params.id), name: request.body.name, count: 1 }),
  get8: async (request) => ({ id: request.params.id, name: 'n', count: 1 }),
  list9: async (request) => [{ id: String(request.query.limit), name: request.query.q ?? '', count: 0 }],
  create10: async (request, reply) => { reply.code(201); return { id: '1', name: request.body.name, count: request.body.count ?? 0 } },
  update11: async (request) => ({ id: String(request.params.id), name: request.body.name, count: 1 }),
  get12: async (request) => ({ id: request.params.id, name: 'n', count: 1 }),
  list13: async (request) => [{ id: String(request.query.limit), name: request.query.q ?? '', count: 0 }],
  create14: async (request, reply) => { reply.code(201); return { id: '1', name: request.body.name, count: request.body.count ?? 0 } },
  update15: async (request) => ({ id: String(request.params.id), name: request.body.name, count: 1 }),
  get16: async (request) => ({ id: request.params.id, name: 'n', count: 1 }),
  list17: async (request) => [{ id: String(request.query.limit), name: request.query.q ?? '', count: 0 }],
  create18: async (request, reply) => { reply.code(201); return { id: '1', name: request.body.name, count: request.body.count ?? 0 } },
  update19: async (request) => ({ id: String(request.params.id), name: request.body.name, count: 1 }),
})
