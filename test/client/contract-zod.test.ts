// A contract whose schemas are zod (Standard Schema), served by implement() with
// fastify-type-provider-zod's compilers and called by the typed client, over a socket (fetch) and
// through inject(): validated at both ends (the server always; the client when `validateRequests`),
// and a multipart/form-data route whose client body is a FormData (@fastify/multipart on the server).
// Types: test/types/fixtures/contract-zod-multipart.ts.
import { expect } from 'chai'
import { z } from 'zod'
import multipart from '@fastify/multipart'
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import { createClient, createServer, defineContract, implement, type Scope } from '../../src'

const NewBook = z.object({ title: z.string().min(1), tags: z.array(z.string()).default([]) })
const Book = z.object({ id: z.number(), title: z.string(), tags: z.array(z.string()) })
const api = defineContract({
  addBook: { method: 'POST', url: '/shelves/:shelf/books', schema: { params: z.object({ shelf: z.coerce.number().int() }), body: NewBook, response: { 201: Book } } },
  search: { method: 'GET', url: '/books', schema: { querystring: z.object({ q: z.string().min(2), limit: z.coerce.number().default(10) }), response: { 200: z.array(Book) } } },
  upload: { method: 'POST', url: '/covers/:id', schema: { consumes: ['multipart/form-data'], response: { 201: z.object({ name: z.string(), type: z.string(), bytes: z.number(), note: z.string() }) } } },
  form: { method: 'POST', url: '/form', schema: { consumes: ['application/x-www-form-urlencoded', 'text/plain'] } },
})

interface FilePart { filename: string; mimetype: string; fields: Record<string, { value?: string }>; toBuffer(): Promise<Buffer> }

function bookServer(): { app: Scope; seen: string[] } {
  const app = createServer()
  const seen: string[] = []
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  app.register(multipart)
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body) => Object.fromEntries(new URLSearchParams(body as string)))
  app.addHook('onRequest', async (request) => { seen.push(`${request.method} ${request.url}`) })
  implement(app, api, {
    addBook: async (request, reply) => { reply.code(201); return { id: request.params.shelf, title: request.body.title, tags: request.body.tags } },
    search: async (request) => [{ id: request.query.limit, title: request.query.q, tags: [] }],
    upload: async (request, reply) => {
      const file = await (request as unknown as { file(): Promise<FilePart> }).file()
      reply.code(201)
      return { name: file.filename, type: file.mimetype, bytes: (await file.toBuffer()).length, note: file.fields.note?.value ?? '' }
    },
    form: async (request) => ({ type: request.headers['content-type'], body: request.body }),
  })
  return { app, seen }
}

const transports: Array<[string, (app: Scope, validateRequests?: boolean) => Promise<ReturnType<typeof createClient<typeof api>>>]> = [
  ['fetch over a socket', async (app, validateRequests) => createClient(api, { baseUrl: await app.listen({ port: 0, host: '127.0.0.1' }), validateRequests })],
  ['inject', async (app, validateRequests) => { await app.ready(); return createClient(api, { app, validateRequests }) }],
]

for (const [name, connect] of transports) {
  describe(`the typed client with a zod contract (${name})`, function () {
    this.timeout(30_000)
    let server: ReturnType<typeof bookServer>
    beforeEach(() => { server = bookServer() })
    afterEach(() => server.app.close())

    it('sends the input type and reads the output: a default filled and a path parameter coerced by the server', async () => {
      const client = await connect(server.app)
      const added = await client.addBook({ params: { shelf: '3' }, body: { title: 'Dune' } })
      expect([added.status, added.body]).to.deep.equal([201, { id: 3, title: 'Dune', tags: [] }])
      const found = await client.search({ query: { q: 'dune' } })
      expect([found.status, found.body]).to.deep.equal([200, [{ id: 10, title: 'dune', tags: [] }]])
    })

    it('without validateRequests (the default) an invalid call is sent, and the server answers its validation 400', async () => {
      const client = await connect(server.app)
      const bad = await client.addBook({ params: { shelf: 'x' }, body: { title: '' } })
      expect(bad.status).to.equal(400)
      expect(bad.body).to.include({ statusCode: 400, error: 'Bad Request' })
      expect(bad.headers.get('x-enclave-client-validation')).to.equal(null)
      expect(server.seen).to.deep.equal(['POST /shelves/x/books'])
    })

    it('with validateRequests an invalid call is answered by the client with the same 400 shape, and no request is made', async () => {
      const client = await connect(server.app, true)
      const bad = await client.addBook({ params: { shelf: 'x' }, body: { title: '', tags: ['ok', 7 as unknown as string] } })
      expect(bad.status).to.equal(400)
      expect(bad.body).to.deep.include({ statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request' })
      const message = (bad.body as { message: string }).message
      expect(message).to.match(/^params\/shelf .+, body\/title .+, body\/tags\/1 .+$/)
      expect(bad.headers.get('x-enclave-client-validation')).to.equal('refused')
      const short = await client.search({ query: { q: 'd' } })
      expect([short.status, (short.body as { message: string }).message]).to.deep.equal([400, 'querystring/q Too small: expected string to have >=2 characters'])
      expect(server.seen, 'nothing reached the server').to.deep.equal([])
      // A valid call still goes through, and is sent as given (the server fills the default).
      const added = await client.addBook({ params: { shelf: 4 }, body: { title: 'Emma' } })
      expect([added.status, added.body]).to.deep.equal([201, { id: 4, title: 'Emma', tags: [] }])
      expect(server.seen).to.deep.equal(['POST /shelves/4/books'])
    })

    it('sends a FormData body to a multipart route as fetch encodes it (the boundary in its Content-Type), a file and a field', async () => {
      const client = await connect(server.app)
      const form = new FormData()
      form.append('note', 'front')
      form.append('cover', new Blob([new Uint8Array([1, 2, 3, 4, 5])], { type: 'image/png' }), 'cover.png')
      const uploaded = await client.upload({ params: { id: '1' }, body: form })
      expect([uploaded.status, uploaded.body]).to.deep.equal([201, { name: 'cover.png', type: 'image/png', bytes: 5, note: 'front' }])
    })

    it('sends URLSearchParams and text to a route that consumes them as they are, each with its own Content-Type', async () => {
      const client = await connect(server.app)
      const form = await client.form({ body: new URLSearchParams({ a: '1', b: 'two' }) })
      expect(form.body).to.deep.equal({ type: 'application/x-www-form-urlencoded;charset=UTF-8', body: { a: '1', b: 'two' } })
      const text = await client.form({ body: 'plain words' })
      expect(text.body).to.deep.equal({ type: 'text/plain;charset=UTF-8', body: 'plain words' })
    })
  })
}
