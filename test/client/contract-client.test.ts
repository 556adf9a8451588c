// Contracts (defineContract) served by implement() and called by the typed client (createClient):
// with a real listening server (fetch over loopback) and with the inject transport (no socket).
import { expect } from 'chai'
import { createServer as createHttpServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createClient, createServer, defineContract, implement, isFrameworkError, type Scope } from '../../src'

const Note = { type: 'object', required: ['id', 'title'], properties: { id: { type: 'string' }, title: { type: 'string' } } } as const
const NotFound = { type: 'object', required: ['message'], properties: { message: { type: 'string' } } } as const

const api = defineContract({
  getNote: { method: 'GET', url: '/notes/:id', schema: { response: { 200: Note, 404: NotFound } } },
  listNotes: { method: 'GET', url: '/notes', schema: { querystring: { type: 'object', properties: { limit: { type: 'integer' }, tag: { type: 'array', items: { type: 'string' } } } }, response: { 200: { type: 'array', items: Note } } } },
  createNote: {
    method: 'POST', url: '/notes',
    schema: { body: { type: 'object', required: ['title'], properties: { title: { type: 'string', minLength: 1 } }, additionalProperties: false }, response: { 201: Note } },
  },
  file: { method: 'GET', url: '/files/*' },
  echoHeader: { method: 'GET', url: '/echo', schema: { headers: { type: 'object', required: ['x-token'], properties: { 'x-token': { type: 'string' } } } } },
  text: { method: 'GET', url: '/text' },
  slow: { method: 'GET', url: '/slow' },
  boom: { method: 'GET', url: '/boom', schema: { response: { 200: Note } } },
  // Fastify's idiom for "no content": a 204 whose schema is `{ type: 'null' }`.
  deleteNote: { method: 'DELETE', url: '/notes/:id', schema: { response: { 204: { type: 'null' }, 404: NotFound } } },
  probe: { method: 'HEAD', url: '/probe', schema: { response: { 200: Note } } },
})

function notesServer(): Scope {
  const app = createServer()
  const notes = new Map([['1', { id: '1', title: 'first', secret: 'not in the schema' }]])
  implement(app, api, {
    getNote: async (request, reply) => notes.get(request.params.id) ?? reply.code(404).send({ message: `no note ${request.params.id}` }),
    listNotes: async (request) => [{ id: String(request.query.limit), title: (request.query.tag ?? []).join('+') }],
    createNote: async (request, reply) => { reply.code(201); return { id: '2', title: request.body.title } },
    file: async (request) => ({ path: request.params['*'] }),
    echoHeader: async (request) => ({ token: request.headers['x-token'] }),
    text: async (_request, reply) => reply.type('text/plain').send('plain words'),
    slow: async () => new Promise((resolve) => setTimeout(() => resolve({ late: true }), 300)),
    boom: async () => { throw new Error('broken') },
    deleteNote: async (request, reply) => (request.params.id === '1' ? reply.code(204).send() : reply.code(404).send({ message: 'gone' })),
    probe: async (_request, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(),
  })
  return app
}

// Both transports run the same assertions: the client answers alike over a socket and through inject().
const transports: Array<[string, () => Promise<{ client: ReturnType<typeof createClient<typeof api>>; close: () => Promise<void> }>]> = [
  ['a real listening server (fetch)', async () => {
    const app = notesServer()
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    return { client: createClient(api, { baseUrl: address }), close: () => app.close() }
  }],
  ['inject (no socket)', async () => {
    const app = notesServer()
    await app.ready()
    return { client: createClient(api, { app }), close: () => app.close() }
  }],
]

for (const [name, start] of transports) {
  describe(`typed client over ${name}`, function () {
    let client: Awaited<ReturnType<typeof start>>['client']
    let close: () => Promise<void>
    before(async () => { ({ client, close } = await start()) })
    after(async () => close())

    it('substitutes and percent-encodes path params; answers the declared status with the JSON body, serialized by the response schema', async () => {
      const found = await client.getNote({ params: { id: '1' } })
      expect(found.status).to.equal(200)
      // `secret` is not in the response schema: the server's serializer dropped it, as for any route.
      expect(found.body).to.deep.equal({ id: '1', title: 'first' })
      expect(found.headers.get('content-type')).to.match(/^application\/json/)
      const missing = await client.getNote({ params: { id: 'a b/c' } })
      expect(missing).to.deep.include({ status: 404, body: { message: 'no note a b/c' } })
    })

    it('sends the query (numbers as text, an array as the name repeated), validated and coerced by the server', async () => {
      const list = await client.listNotes({ query: { limit: 5, tag: ['a', 'b'] } })
      expect(list).to.deep.include({ status: 200, body: [{ id: '5', title: 'a+b' }] })
    })

    it('sends a JSON body; a body the schema refuses is the server\'s 400, returned as an answer, not thrown', async () => {
      const created = await client.createNote({ body: { title: 'new' } })
      expect(created).to.deep.include({ status: 201, body: { id: '2', title: 'new' } })
      const refused = await client.createNote({ body: { title: '' } })
      expect(refused.status).to.equal(400)
      expect(refused.body).to.deep.include({ statusCode: 400, error: 'Bad Request' })
      expect((refused.body as { message: string }).message).to.match(/title/)
    })

    it('keeps a wildcard\'s slashes and encodes each segment', async () => {
      const file = await client.file({ params: { '*': 'docs/a b.txt' } })
      expect(file).to.deep.include({ status: 200, body: { path: 'docs/a b.txt' } })
    })

    it('sends the headers part; a required header missing is the server\'s 400', async () => {
      expect(await client.echoHeader({ headers: { 'x-token': 't1' } })).to.deep.include({ status: 200, body: { token: 't1' } })
      const refused = await client.echoHeader({ headers: {} as { 'x-token': string } })
      expect(refused.status).to.equal(400)
    })

    it('answers a non-JSON body as its text, and a status the route does not declare (a 500) as an answer with its body', async () => {
      expect(await client.text()).to.deep.include({ status: 200, body: 'plain words' })
      const failed = await client.boom()
      expect(failed.status).to.equal(500)
      expect(failed.body).to.deep.include({ statusCode: 500, error: 'Internal Server Error' })
    })

    it('a 204 (no content) answers its body as undefined, as typed, not the empty text; a 404 beside it keeps its JSON body', async () => {
      const deleted = await client.deleteNote({ params: { id: '1' } })
      expect(deleted.status).to.equal(204)
      expect(deleted.body).to.equal(undefined)
      expect(await client.deleteNote({ params: { id: '2' } })).to.deep.include({ status: 404, body: { message: 'gone' } })
    })

    it('a HEAD route answers its body as undefined, whatever its response schema says', async () => {
      const probed = await client.probe()
      expect(probed.status).to.equal(200)
      expect(probed.body).to.equal(undefined)
    })

    it('an AbortSignal stops the call: it rejects with the signal\'s reason (AbortError), not a status', async () => {
      const controller = new AbortController()
      const pending = client.slow({ signal: controller.signal })
      setTimeout(() => controller.abort(), 20)
      const error = await pending.then(() => null, (e: unknown) => e)
      expect(error).to.be.instanceOf(Error)
      expect((error as Error).name).to.equal('AbortError')
      const already = await client.getNote({ params: { id: '1' }, signal: AbortSignal.abort() }).then(() => null, (e: unknown) => e)
      expect((already as Error).name).to.equal('AbortError')
    })
  })
}

describe('typed client: errors that are not answers', () => {
  it('a refused connection is thrown as ENC_ERR_CLIENT_NETWORK naming the route and url, with the cause (never returned as a status)', async () => {
    // A port that was just free: nothing listens there.
    const probe = createHttpServer()
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
    const { port } = probe.address() as AddressInfo
    await new Promise<void>((resolve) => probe.close(() => resolve()))
    const client = createClient(api, { baseUrl: `http://127.0.0.1:${port}` })
    const error = await client.getNote({ params: { id: '1' } }).then(() => null, (e: unknown) => e)
    expect(isFrameworkError(error)).to.equal(true)
    expect((error as { code: string }).code).to.equal('ENC_ERR_CLIENT_NETWORK')
    expect((error as Error).message).to.include('getNote: GET http://127.0.0.1').and.include('/notes/1')
    expect((error as Error).cause).to.be.instanceOf(Error)
  })

  it('an answer that says JSON but is not JSON is thrown as ENC_ERR_CLIENT_RESPONSE', async () => {
    const raw: Server = createHttpServer((_req, res) => { res.setHeader('content-type', 'application/json'); res.end('{oops') })
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve))
    try {
      const client = createClient(api, { baseUrl: `http://127.0.0.1:${(raw.address() as AddressInfo).port}` })
      const error = await client.text().then(() => null, (e: unknown) => e)
      expect((error as { code: string }).code).to.equal('ENC_ERR_CLIENT_RESPONSE')
    } finally {
      await new Promise<void>((resolve) => raw.close(() => resolve()))
    }
  })

  it('createClient() refuses options without an absolute baseUrl or an app (ENC_ERR_CLIENT_OPTIONS)', () => {
    expect(() => createClient(api, {})).to.throw(/ENC_ERR_CLIENT_OPTIONS|baseUrl must be an absolute URL/)
    expect(() => createClient(api, { baseUrl: '/relative' })).to.throw(/baseUrl must be an absolute URL/)
    expect(() => createClient(api, { app: {} as never })).to.throw(/no inject\(\) method/)
  })

  it('a call missing a path parameter fails before sending, naming it', async () => {
    const app = notesServer()
    const client = createClient(api, { app })
    const error = await client.getNote({ params: {} as { id: string } }).then(() => null, (e: unknown) => e)
    expect((error as { code: string }).code).to.equal('ENC_ERR_CLIENT_OPTIONS')
    expect((error as Error).message).to.include('params.id')
    await app.close()
  })

  it('fills a path by the router\'s own rules: two params in one segment, a (regex) dropped (nested groups too), an escaped colon, a trailing optional left out', async () => {
    const paths = defineContract({
      span: { method: 'GET', url: '/range/:from-:to' },
      file: { method: 'GET', url: '/files/:name.:ext' },
      digits: { method: 'GET', url: '/n/:id(^\\d+)/x' },
      colon: { method: 'GET', url: '/a::b/:id' },
      maybe: { method: 'GET', url: '/maybe/:id?' },
      nested: { method: 'GET', url: '/g/:id(^(?:\\d+))/x' },
    })
    const app = createServer()
    const echo = async (request: { params: unknown; url: string }) => ({ url: request.url, params: request.params })
    implement(app, paths, { span: echo, file: echo, digits: echo, colon: echo, maybe: echo, nested: echo })
    await app.ready()
    const client = createClient(paths, { app })
    expect((await client.span({ params: { from: '1', to: '9' } })).body).to.deep.equal({ url: '/range/1-9', params: { from: '1', to: '9' } })
    expect((await client.file({ params: { name: 'report', ext: 'pdf' } })).body).to.deep.equal({ url: '/files/report.pdf', params: { name: 'report', ext: 'pdf' } })
    expect((await client.digits({ params: { id: '42' } })).body).to.deep.equal({ url: '/n/42/x', params: { id: '42' } })
    expect((await client.colon({ params: { id: '7' } })).body).to.deep.equal({ url: '/a:b/7', params: { id: '7' } })
    expect((await client.maybe({ params: {} as { id?: string } })).body).to.deep.include({ url: '/maybe' })
    // The path-params type reads one level of (regex) group: the nested one is given untyped.
    expect((await client.nested({ params: { id: '8' } as never })).body).to.deep.equal({ url: '/g/8/x', params: { id: '8' } })
    await app.close()
  })

  it('sends the client\'s shared headers (a function is called per call) under the call\'s own', async () => {
    const app = createServer()
    const seen: unknown[] = []
    app.get('/echo', async (request) => { seen.push(request.headers.authorization); return {} })
    let n = 0
    const client = createClient(defineContract({ echo: { method: 'GET', url: '/echo' } }), { app, headers: () => ({ authorization: `Bearer ${++n}` }) })
    await client.echo()
    await client.echo({ headers: { authorization: 'Bearer own' } })
    expect(seen).to.deep.equal(['Bearer 1', 'Bearer own'])
    await app.close()
  })
})
