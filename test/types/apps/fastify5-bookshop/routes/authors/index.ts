// Was: `import type { FastifyPluginAsync } from 'fastify'`
import type { AsyncPlugin } from '../../../../../../src'
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts'
import { AuthorNotFound } from '../../errors'

const params = { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } as const
const body = { type: 'object', properties: { name: { type: 'string', minLength: 2 } }, required: ['name'], additionalProperties: false } as const

const authors: AsyncPlugin = async (fastify) => {
  const app = fastify.withTypeProvider<JsonSchemaToTsProvider>()
  app.get('/', async () => [...app.store.authors.values()])
  app.get('/:id', { schema: { params } }, async (request) => {
    const author = app.store.authors.get(request.params.id)
    if (author === undefined) throw new AuthorNotFound(request.params.id)
    return author
  })
  app.post('/', { schema: { body }, config: { audit: true } }, async (request, reply) => {
    const id = Math.max(...app.store.authors.keys()) + 1
    app.store.authors.set(id, { id, name: request.body.name })
    reply.code(201)
    return { id, name: request.body.name }
  })
}
export default authors
