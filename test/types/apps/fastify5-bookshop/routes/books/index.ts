// Was: `import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'`
import type { AsyncPlugin } from '../../../../../../src'
import { Type } from '@fastify/type-provider-typebox'
import { BookNotFound, OutOfStock } from '../../errors'

const Book = Type.Object({ id: Type.Integer(), title: Type.String(), authorId: Type.Integer(), tags: Type.Array(Type.String()), stock: Type.Integer() })
const NewBook = Type.Object({ title: Type.String({ minLength: 1, maxLength: 80 }), authorId: Type.Integer({ minimum: 1 }), tags: Type.Optional(Type.Array(Type.String())), stock: Type.Optional(Type.Integer({ minimum: 0, default: 1 })) }, { additionalProperties: false })
const Params = Type.Object({ id: Type.Integer({ minimum: 1 }) })
const Query = Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 50, default: 10 }), tag: Type.Optional(Type.String()) })

const books: AsyncPlugin = async (app) => {
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-books-api', '1')
    return payload
  })
  app.get('/', { schema: { querystring: Query, response: { 200: Type.Object({ items: Type.Array(Book), total: Type.Integer() }) } } }, async (request) => {
    const all = [...app.store.books.values()].filter((b) => request.query.tag === undefined || b.tags.includes(request.query.tag))
    return { items: all.slice(0, request.query.limit), total: all.length }
  })
  app.get('/:id', { schema: { params: Params, response: { 200: Book } } }, async (request, reply) => {
    const book = app.store.books.get(request.params.id)
    if (book === undefined) return reply.notFound(`no book ${request.params.id}`)
    return book
  })
  app.post('/', { onRequest: [app.authenticate], schema: { body: NewBook, response: { 201: Book } } }, async (request, reply) => {
    const book = { id: app.store.nextId++, title: request.body.title, authorId: request.body.authorId, tags: request.body.tags ?? [], stock: request.body.stock ?? 1 }
    app.store.books.set(book.id, book)
    request.log.child({ bookId: book.id }).info('book created')
    return reply.code(201).header('location', `/books/${book.id}`).send(book)
  })
  app.post('/:id/buy', { schema: { params: Params } }, async (request) => {
    const book = app.store.books.get(request.params.id)
    if (book === undefined) throw new BookNotFound(request.params.id)
    if (book.stock === 0) throw new OutOfStock(book.title)
    book.stock -= 1
    return { ok: true, left: book.stock }
  })
  app.delete('/:id', { onRequest: [app.authenticate, app.requireAdmin], schema: { params: Params } }, async (request, reply) => {
    if (!app.store.books.delete(request.params.id)) throw app.httpErrors.notFound()
    return reply.code(204).send()
  })
}
export default books
