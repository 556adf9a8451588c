// The cost figure of a 20-route contract (README "Typed client"): the contract, its implementation
// and a call of every route with its answer narrowed. scripts/contract-type-cost.js compiles it
// alone and beside contract-20-baseline.ts (the same schemas, no contract), by `tsc --extendedDiagnostics`.
import { createClient, createServer, defineContract, implement } from '../../../src'

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

export async function callAll(): Promise<string[]> {
  const client = createClient(api, { baseUrl: 'http://localhost:3000' })
  const out: string[] = []
  const r0 = await client.get0({ params: { id: '1' } }); if (r0.status === 200) out.push(r0.body.name)
  const r1 = await client.list1({ query: { limit: 3 } }); if (r1.status === 200) out.push(r1.body[0].name)
  const r2 = await client.create2({ body: { name: 'x' } }); if (r2.status === 201) out.push(r2.body.id)
  const r3 = await client.update3({ params: { id: 1 }, body: { name: 'y' } }); if (r3.status === 200) out.push(r3.body.name)
  const r4 = await client.get4({ params: { id: '1' } }); if (r4.status === 200) out.push(r4.body.name)
  const r5 = await client.list5({ query: { limit: 3 } }); if (r5.status === 200) out.push(r5.body[0].name)
  const r6 = await client.create6({ body: { name: 'x' } }); if (r6.status === 201) out.push(r6.body.id)
  const r7 = await client.update7({ params: { id: 1 }, body: { name: 'y' } }); if (r7.status === 200) out.push(r7.body.name)
  const r8 = await client.get8({ params: { id: '1' } }); if (r8.status === 200) out.push(r8.body.name)
  const r9 = await client.list9({ query: { limit: 3 } }); if (r9.status === 200) out.push(r9.body[0].name)
  const r10 = await client.create10({ body: { name: 'x' } }); if (r10.status === 201) out.push(r10.body.id)
  const r11 = await client.update11({ params: { id: 1 }, body: { name: 'y' } }); if (r11.status === 200) out.push(r11.body.name)
  const r12 = await client.get12({ params: { id: '1' } }); if (r12.status === 200) out.push(r12.body.name)
  const r13 = await client.list13({ query: { limit: 3 } }); if (r13.status === 200) out.push(r13.body[0].name)
  const r14 = await client.create14({ body: { name: 'x' } }); if (r14.status === 201) out.push(r14.body.id)
  const r15 = await client.update15({ params: { id: 1 }, body: { name: 'y' } }); if (r15.status === 200) out.push(r15.body.name)
  const r16 = await client.get16({ params: { id: '1' } }); if (r16.status === 200) out.push(r16.body.name)
  const r17 = await client.list17({ query: { limit: 3 } }); if (r17.status === 200) out.push(r17.body[0].name)
  const r18 = await client.create18({ body: { name: 'x' } }); if (r18.status === 201) out.push(r18.body.id)
  const r19 = await client.update19({ params: { id: 1 }, body: { name: 'y' } }); if (r19.status === 200) out.push(r19.body.name)
  return out
}
