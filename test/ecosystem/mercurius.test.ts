import 'reflect-metadata'
import { createHash } from 'node:crypto'
import { expect } from 'chai'
import WebSocket from 'ws'
import mercurius, { type IResolvers, type MercuriusContext } from 'mercurius'
import { buildSchema } from 'graphql'
import { createHandler as graphqlHttpFastify } from 'graphql-http/lib/use/fastify'
import { createHandler as graphqlHttpNode } from 'graphql-http/lib/use/http'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { Body, Get, Hook, HttpError, Module, Post, Reply, Req, Route, createApp, createServer, type InjectOptions, type Request, type Scope } from '../../src'
import { track } from '../support/servers'
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fastify5 = require('fastify5') as (options?: object) => FastifyInstance

// What mercurius adds, typed from its own declarations (docs/plugins.md "From TypeScript").
declare module '../../src/runtime' {
  interface ScopeDecorations extends Pick<FastifyInstance, 'graphql'> {}
  interface ReplyDecorations extends Pick<FastifyReply, 'graphql'> {}
}
interface User { id: string; name: string }
declare module 'mercurius' {
  interface MercuriusContext { user: User | null }
}

// A product team's notes service: REST controllers it already had, and GraphQL added beside them
// with mercurius in the same module (its README: schema + resolvers, context, loaders, errors,
// subscriptions, persisted queries, GraphiQL off in production).
function notesService(options: { graphiql: boolean }) {
  const users: Record<string, User> = { u1: { id: 'u1', name: 'Ada' }, u2: { id: 'u2', name: 'Grace' } }
  const notes = [{ id: 1, text: 'one', ownerId: 'u1' }, { id: 2, text: 'two', ownerId: 'u2' }, { id: 3, text: 'three', ownerId: 'u1' }]
  const loaderCalls: number[] = []
  const schema = `
    type User { id: ID!, name: String! }
    type Note { id: Int!, text: String!, owner: User! }
    type Query { notes: [Note!]!, me: User, broken: String }
    type Mutation { addNote(text: String!): Note! }
    type Subscription { noteAdded: Note! }
  `
  const resolvers: IResolvers = {
    Query: {
      notes: async () => notes,
      me: async (_root, _args, context: MercuriusContext) => context.user,
      broken: async () => { throw new Error('the notes store is down') },
    },
    Mutation: {
      addNote: async (_root, { text }: { text: string }, context: MercuriusContext) => {
        if (context.user === null) throw new mercurius.ErrorWithProps('sign in first', { code: 'UNAUTHENTICATED' }, 401)
        const note = { id: notes.length + 1, text, ownerId: context.user.id }
        notes.push(note)
        await context.pubsub.publish({ topic: 'NOTE_ADDED', payload: { noteAdded: note } })
        return note
      },
    },
    Subscription: { noteAdded: { subscribe: async (_root, _args, context: MercuriusContext) => context.pubsub.subscribe('NOTE_ADDED') } },
  }
  const loaders = {
    Note: {
      owner: async (queries: { obj: { ownerId: string } }[]) => {
        loaderCalls.push(queries.length)
        return queries.map(({ obj }) => users[obj.ownerId])
      },
    },
  }
  const NewNote = { type: 'object', required: ['text'], additionalProperties: false, properties: { text: { type: 'string', minLength: 1 } } } as const

  @Route('/notes')
  class NotesController {
    @Get('/') list() { return notes }
    @Post('/', { schema: { body: NewNote } })
    add(@Body() body: { text: string }) {
      const note = { id: notes.length + 1, text: body.text, ownerId: 'u1' }
      notes.push(note)
      return note
    }
    // REST answered from the GraphQL schema: the scope's graphql() and the reply's.
    @Get('/count')
    async count(@Req() request: Request) {
      const result = await request.server.graphql<{ notes: unknown[] }>('{ notes { id } }')
      return { count: result.data?.notes.length }
    }
    @Get('/texts') texts(@Reply() reply: Reply) { return reply.graphql('{ notes { text } }') }
  }

  @Module({
    plugins: [[mercurius, {
      schema, resolvers, loaders, subscription: true, graphiql: options.graphiql,
      persistedQueryProvider: mercurius.persistedQueryDefaults.automatic(),
      // Unannotated: typed from mercurius's options (FastifyRequest).
      context: (request) => {
        const id = request.headers['x-user-id']
        return { user: typeof id === 'string' ? users[id] ?? null : null }
      },
    }]],
    controllers: [NotesController],
  })
  class NotesModule {
    // A guard of the whole module: mercurius's routes are routes of the module's context.
    @Hook('onRequest') async banned(request: Request) { if (request.headers['x-banned'] !== undefined) throw new HttpError(403, 'banned') }
  }
  return { NotesModule, loaderCalls }
}

async function boot(options = { graphiql: false }) {
  const service = notesService(options)
  const app = track(await createApp(service.NotesModule))
  await app.ready()
  return { app, loaderCalls: service.loaderCalls }
}

/** An inject() answer's JSON body, for assertions. */
function body(reply: { json(): unknown }): any { return reply.json() }

function gql(app: Scope, query: string, headers: Record<string, string> = {}, variables?: Record<string, unknown>) {
  return app.inject({ method: 'POST', url: '/graphql', payload: { query, variables }, headers })
}

describe('mercurius (GraphQL) in an Enclave module', function () {
  this.timeout(10_000)

  it('answers queries and mutations, with the context built from the request headers', async () => {
    const { app } = await boot()
    const me = await gql(app, '{ me { name } }', { 'x-user-id': 'u2' })
    expect([me.statusCode, body(me)]).to.deep.equal([200, { data: { me: { name: 'Grace' } } }])
    expect((await gql(app, '{ me { name } }')).json()).to.deep.equal({ data: { me: null } })
    const added = await gql(app, 'mutation ($text: String!) { addNote(text: $text) { id text owner { name } } }', { 'x-user-id': 'u1' }, { text: 'four' })
    expect([added.statusCode, body(added)]).to.deep.equal([200, { data: { addNote: { id: 4, text: 'four', owner: { name: 'Ada' } } } }])
    const get = await app.inject({ method: 'GET', url: `/graphql?query=${encodeURIComponent('{ notes { id } }')}` })
    expect(body(get).data.notes).to.have.length(4)
  })

  it('runs the module\'s onRequest hook before /graphql too; mercurius\'s error handler answers its error in GraphQL\'s shape (as in Fastify)', async () => {
    const { app } = await boot()
    const refused = await gql(app, '{ me { name } }', { 'x-banned': '1' })
    expect([refused.statusCode, body(refused)]).to.deep.equal([403, { data: null, errors: [{ message: 'banned' }] }])
    const rest = await app.inject({ method: 'GET', url: '/notes', headers: { 'x-banned': '1' } })
    expect([rest.statusCode, body(rest).message]).to.deep.equal([403, 'banned'])
  })

  it('batches a loader: one call resolves the owner of every note of a list (no N+1)', async () => {
    const { app, loaderCalls } = await boot()
    const reply = await gql(app, '{ notes { text owner { name } } }')
    expect(body(reply).data.notes.map((n: { owner: User }) => n.owner.name)).to.deep.equal(['Ada', 'Grace', 'Ada'])
    expect(loaderCalls).to.deep.equal([3])
  })

  it('reports a resolver error in the errors array with 200, and an ErrorWithProps with its status and extensions', async () => {
    const { app } = await boot()
    const broken = await gql(app, '{ broken notes { id } }')
    expect(broken.statusCode).to.equal(200)
    expect(body(broken).data).to.deep.equal({ broken: null, notes: [{ id: 1 }, { id: 2 }, { id: 3 }] })
    expect(body(broken).errors).to.deep.equal([{ message: 'the notes store is down', locations: [{ line: 1, column: 3 }], path: ['broken'] }])
    const anonymous = await gql(app, 'mutation { addNote(text: "x") { id } }')
    expect(anonymous.statusCode).to.equal(401)
    expect(body(anonymous)).to.deep.include({ data: null })
    expect(body(anonymous).errors[0]).to.deep.include({ message: 'sign in first', extensions: { code: 'UNAUTHENTICATED' } })
  })

  it('answers a query that does not parse or validate, and a body that is not JSON, with 400 in GraphQL\'s error shape (never a 500)', async () => {
    const { app } = await boot()
    const unknownField = await gql(app, '{ nope }')
    expect([unknownField.statusCode, unknownField.headers['content-type']]).to.deep.equal([400, 'application/json; charset=utf-8'])
    expect(body(unknownField)).to.deep.equal({ data: null, errors: [{ message: 'Cannot query field "nope" on type "Query". Did you mean "notes"?', locations: [{ line: 1, column: 3 }] }] })
    const syntax = await gql(app, '{ notes {')
    expect([syntax.statusCode, body(syntax).errors[0].message]).to.deep.equal([400, 'Syntax Error: Expected Name, found <EOF>.'])
    const badVariable = await gql(app, 'mutation ($t: String!) { addNote(text: $t) { id } }', { 'x-user-id': 'u1' }, { t: 5 })
    expect([badVariable.statusCode, body(badVariable).errors[0].message]).to.deep.equal([400, 'Variable "$t" got invalid value 5; String cannot represent a non string value: 5'])
    const notJson = await app.inject({ method: 'POST', url: '/graphql', payload: '{"query":', headers: { 'content-type': 'application/json' } })
    expect([notJson.statusCode, body(notJson)]).to.deep.equal([400, { data: null, errors: [{ message: 'Body is not valid JSON: Unexpected end of JSON input' }] }])
    const getMutation = await app.inject({ method: 'GET', url: `/graphql?query=${encodeURIComponent('mutation { addNote(text: "x") { id } }')}` })
    expect([getMutation.statusCode, body(getMutation)]).to.deep.equal([405, { data: null, errors: [{ message: 'Operation cannot be performed via a GET request' }] }])
  })

  it('runs the schema from a REST controller (request.server.graphql(), reply.graphql()), and the REST routes stay validated', async () => {
    const { app } = await boot()
    expect((await app.inject({ method: 'GET', url: '/notes/count' })).json()).to.deep.equal({ count: 3 })
    expect((await app.inject({ method: 'GET', url: '/notes/texts' })).json()).to.deep.equal({ data: { notes: [{ text: 'one' }, { text: 'two' }, { text: 'three' }] } })
    const invalid = await app.inject({ method: 'POST', url: '/notes', payload: { text: '' } })
    expect([invalid.statusCode, body(invalid).message]).to.deep.equal([400, 'body/text should NOT be shorter than 1 characters'])
    expect((await app.inject({ method: 'POST', url: '/notes', payload: { text: 'rest' } })).statusCode).to.equal(200)
    // From a test, as from any code holding the scope: mercurius decorates the root module's scope,
    // which createApp() returns.
    expect(await app.graphql('{ notes { text } }')).to.deep.equal({ data: { notes: [{ text: 'one' }, { text: 'two' }, { text: 'three' }, { text: 'rest' }] } })
  })

  it('serves GraphiQL only when graphiql is on (off in production)', async () => {
    const { app: production } = await boot({ graphiql: false })
    expect((await production.inject({ method: 'GET', url: '/graphiql' })).statusCode).to.equal(404)
    const { app: development } = await boot({ graphiql: true })
    const page = await development.inject({ method: 'GET', url: '/graphiql' })
    expect([page.statusCode, page.headers['content-type']]).to.deep.equal([200, 'text/html; charset=utf-8'])
    expect((await development.inject({ method: 'GET', url: '/graphiql/main.js' })).statusCode).to.equal(200)
  })

  it('answers automatic persisted queries: a hash alone is PersistedQueryNotFound until the query was sent with it', async () => {
    const { app } = await boot()
    const query = '{ notes { id } }'
    const extensions = { persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(query).digest('hex') } }
    const miss = await app.inject({ method: 'POST', url: '/graphql', payload: { extensions } })
    expect([miss.statusCode, body(miss)]).to.deep.equal([400, { data: null, errors: [{ message: 'PersistedQueryNotFound' }] }])
    expect((await app.inject({ method: 'POST', url: '/graphql', payload: { query, extensions } })).statusCode).to.equal(200)
    const hit = await app.inject({ method: 'POST', url: '/graphql', payload: { extensions } })
    expect([hit.statusCode, body(hit).data.notes]).to.deep.equal([200, [{ id: 1 }, { id: 2 }, { id: 3 }]])
  })

  it('delivers a subscription over a real websocket on loopback (graphql-transport-ws), and close() ends the socket', async () => {
    const { app } = await boot()
    await app.listen({ port: 0, host: '127.0.0.1' })
    const port = (app.server.address() as { port: number }).port
    const client = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws')
    const messages: unknown[] = []
    const next = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no subscription event within 5 s; got ${JSON.stringify(messages)}`)), 5_000)
      client.on('error', reject)
      client.on('message', (data) => {
        const message = JSON.parse(String(data)) as { type: string }
        messages.push(message)
        if (message.type === 'connection_ack') client.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: 'subscription { noteAdded { text owner { name } } }' } }))
        if (message.type === 'next') { clearTimeout(timer); resolve(message) }
      })
    })
    client.on('open', () => client.send(JSON.stringify({ type: 'connection_init' })))
    // Publish until the event arrives: the subscription is registered asynchronously after `subscribe`.
    for (let attempt = 0; attempt < 50 && !messages.some((m) => (m as { type: string }).type === 'next'); attempt++) {
      if (messages.length > 0) await gql(app, 'mutation { addNote(text: "live") { id } }', { 'x-user-id': 'u2' })
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(await next).to.deep.equal({ type: 'next', id: '1', payload: { data: { noteAdded: { text: 'live', owner: { name: 'Grace' } } } } })
    const closed = new Promise<number>((resolve) => client.once('close', (code) => resolve(code)))
    await app.close()
    expect(await closed).to.equal(1005)
  })
})

// The same mercurius, the same requests, on Fastify 5 and on Enclave's runtime API: every answer
// alike but for the differences docs/recipes-graphql.md, "GraphQL" lists.
describe('mercurius on Enclave answers as on Fastify 5', function () {
  this.timeout(10_000)
  const schema = 'type Query { add(x: Int!, y: Int!): Int, who: String, failing: String }'
  const resolvers: IResolvers = {
    Query: {
      add: async (_root, { x, y }: { x: number; y: number }) => x + y,
      who: async (_root, _args, context: MercuriusContext) => context.user?.name ?? null,
      failing: async () => { throw new mercurius.ErrorWithProps('teapot', { code: 'TEAPOT' }, 418) },
    },
  }
  const requests: Record<string, InjectOptions> = {
    post: { method: 'POST', url: '/api/graphql', payload: { query: '{ add(x: 1, y: 2) }' } },
    get: { method: 'GET', url: `/api/graphql?query=${encodeURIComponent('query ($a: Int!) { add(x: $a, y: 2) }')}&variables=${encodeURIComponent('{"a":5}')}` },
    'get, variables not JSON': { method: 'GET', url: `/api/graphql?query=${encodeURIComponent('query ($a: Int!) { add(x: $a, y: 2) }')}&variables={` },
    'application/graphql': { method: 'POST', url: '/api/graphql', payload: '{ add(x: 1, y: 2) }', headers: { 'content-type': 'application/graphql' } },
    batched: { method: 'POST', url: '/api/graphql', payload: [{ query: '{ add(x: 1, y: 2) }' }, { query: '{ who }' }], headers: { 'x-user-id': 'u1' } },
    'ErrorWithProps': { method: 'POST', url: '/api/graphql', payload: { query: '{ failing }' } },
    'variable of the wrong type': { method: 'POST', url: '/api/graphql', payload: { query: 'query ($a: Int!) { add(x: $a, y: 2) }', variables: { a: 'x' } } },
    'preExecution hook throws': { method: 'POST', url: '/api/graphql', payload: { query: '{ who }' }, headers: { 'x-block': '1' } },
    'empty JSON body': { method: 'POST', url: '/api/graphql', headers: { 'content-type': 'application/json' } },
    'unknown operation name': { method: 'POST', url: '/api/graphql', payload: { query: 'query A { who } query B { who }', operationName: 'C' } },
    'no query': { method: 'POST', url: '/api/graphql', payload: {} },
    graphiql: { method: 'GET', url: '/api/graphiql' },
    // The differences README lists.
    'context throws': { method: 'POST', url: '/api/graphql', payload: { query: '{ who }' }, headers: { 'x-context-throws': '1' } },
    'body not JSON': { method: 'POST', url: '/api/graphql', payload: '{"query":', headers: { 'content-type': 'application/json' } },
    PUT: { method: 'PUT', url: '/api/graphql', payload: { query: '{ who }' } },
  }
  const differences: Record<string, [number, unknown]> = {
    'context throws': [500, { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' }],
    'body not JSON': [400, { data: null, errors: [{ message: 'Body is not valid JSON: Unexpected end of JSON input' }] }],
    PUT: [405, { statusCode: 405, code: 'ENC_ERR_METHOD_NOT_ALLOWED', error: 'Method Not Allowed', message: 'Method PUT is not allowed for /api/graphql; allowed: GET, POST, HEAD' }],
  }

  async function answers(app: Scope): Promise<Record<string, [number, string | undefined, string]>> {
    await app.register(mercurius, {
      schema, resolvers, graphiql: true, prefix: '/api', allowBatchedQueries: true,
      context: (request) => {
        if (request.headers['x-context-throws'] !== undefined) throw new Error('no user store')
        return { user: request.headers['x-user-id'] === 'u1' ? { id: 'u1', name: 'Ada' } : null }
      },
    })
    app.graphql.addHook('preExecution', async (_schema, _document, context) => {
      if (context.reply.request.headers['x-block'] !== undefined) throw new Error('blocked by a hook')
    })
    const out: Record<string, [number, string | undefined, string]> = {}
    for (const [name, request] of Object.entries(requests)) {
      const reply = await app.inject(request)
      out[name] = [reply.statusCode, reply.headers['content-type'] as string | undefined, name === 'graphiql' ? reply.body.slice(0, 60) : reply.body]
    }
    await app.close()
    return out
  }

  it('gives the same status, content type and body to each request, but for the listed differences', async () => {
    const fastify = await answers(fastify5() as unknown as Scope)
    const enclave = await answers(track(createServer()))
    for (const name of Object.keys(requests)) {
      if (name in differences) {
        const [status, body] = differences[name]
        expect([enclave[name][0], JSON.parse(enclave[name][2])], name).to.deep.equal([status, body])
        expect(fastify[name][0], name).to.not.equal(undefined)
      } else {
        expect(enclave[name], name).to.deep.equal(fastify[name])
      }
    }
    expect(fastify['context throws'][2]).to.include('no user store')
    expect(fastify.PUT[0]).to.equal(404)
  })
})

// graphql-http, a server-agnostic GraphQL-over-HTTP handler a team might pick instead of mercurius.
describe('graphql-http as an Enclave route handler', function () {
  this.timeout(10_000)
  const schema = buildSchema('type Query { hello(name: String): String }')
  const rootValue = { hello: ({ name }: { name?: string }) => `hi ${name ?? 'you'}` }

  it('its Fastify adapter runs as a handler as it is: the body Enclave parsed, its own status codes and media type', async () => {
    const app = track(createServer())
    const handler = graphqlHttpFastify({ schema, rootValue })
    app.route({ method: ['GET', 'POST'], url: '/graphql', handler: (request, reply) => handler.call(app as never, request as never, reply as never) })
    const accept = 'application/graphql-response+json'
    const post = await app.inject({ method: 'POST', url: '/graphql', payload: { query: '{ hello(name: "ada") }' }, headers: { accept } })
    expect([post.statusCode, post.headers['content-type'], body(post)]).to.deep.equal([200, `${accept}; charset=utf-8`, { data: { hello: 'hi ada' } }])
    const invalid = await app.inject({ method: 'POST', url: '/graphql', payload: { query: '{ nope }' }, headers: { accept } })
    expect([invalid.statusCode, body(invalid).errors[0].message]).to.deep.equal([400, 'Cannot query field "nope" on type "Query".'])
    const get = await app.inject({ method: 'GET', url: `/graphql?query=${encodeURIComponent('{ hello }')}`, headers: { accept } })
    expect(body(get)).to.deep.equal({ data: { hello: 'hi you' } })
  })

  it('its node:http adapter on request.raw/reply.raw reads the body itself: in a scope whose parser leaves the body unread (as in Fastify)', async () => {
    const app = track(createServer())
    const handler = graphqlHttpNode({ schema, rootValue })
    app.register(async function graphql(scope) {
      scope.removeAllContentTypeParsers()
      scope.addContentTypeParser('*', (_request: Request, _payload: unknown, done: (error: Error | null) => void) => done(null))
      scope.route({ method: ['GET', 'POST'], url: '/graphql', handler: (request, reply) => { reply.hijack(); void handler(request.raw, reply.raw) } })
    })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const port = (app.server.address() as { port: number }).port
    const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST', body: JSON.stringify({ query: '{ hello(name: "raw") }' }), signal: AbortSignal.timeout(5_000),
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    })
    expect([response.status, await response.json()]).to.deep.equal([200, { data: { hello: 'hi raw' } }])
  })
})
