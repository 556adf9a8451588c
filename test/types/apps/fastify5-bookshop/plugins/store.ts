import { lift } from '../../../../../src'

export interface Book { id: number; title: string; authorId: number; tags: string[]; stock: number }
export interface Author { id: number; name: string }
export class Store {
  books = new Map<number, Book>([[1, { id: 1, title: 'Dune', authorId: 1, tags: ['sf'], stock: 2 }], [2, { id: 2, title: 'Emma', authorId: 2, tags: ['classic'], stock: 0 }]])
  authors = new Map<number, Author>([[1, { id: 1, name: 'Herbert' }], [2, { id: 2, name: 'Austen' }]])
  nextId = 3
}

// Was: `declare module 'fastify' { interface FastifyInstance { ... } interface FastifyRequest { ... } }`
declare module '../../../../../src' {
  interface ScopeDecorations { store: Store }
  interface RequestDecorations { ctx: { requestStartedBy: string; tags: string[] } | null; isInternal: boolean }
}

// Was: `fp(`
export default lift(async (app) => {
  app.decorate('store', new Store())
  // v5: a reference-type request decoration cannot be an object: a null placeholder set per request
  app.decorateRequest('ctx', null)
  // a getter for a derived value (v5's { getter } form)
  app.decorateRequest('isInternal', { getter() { return this.headers['x-internal'] === '1' } })
  app.addHook('onRequest', async (request) => {
    request.setDecorator('ctx', { requestStartedBy: String(request.headers['x-client'] ?? 'anonymous'), tags: [] })
  })
}, { name: 'store' })
