/**
 * The app the feature fuzz (fuzz-features.test.ts, bench/fuzz.ts) sends hostile traffic to:
 * the sample (modules, bearer auth, catalog with its 422 error handler) plus one plugin with
 * many features at once: body/query/params/headers schemas, multipart, formbody, cookies, a
 * stream reply, a websocket route, CORS, rate-limit, an async preHandler, version- and
 * host-constrained routes, an error handler that rethrows. `features` only uses the
 * Fastify-shaped API, so the scratch comparison registers it on Fastify 3 and 5 as well.
 */
import { Readable } from 'node:stream'
import cookie from '@fastify/cookie'
import cors from '@fastify/cors'
import formbody from '@fastify/formbody'
import multipart from '@fastify/multipart'
import rateLimit from '@fastify/rate-limit'
import websocket from '@fastify/websocket'
import type WebSocket from 'ws'
import { Module } from '../../src/decorators'
import { createApp, type App } from '../../src/modules'
import type { Reply, Request, Scope, ServerOptions } from '../../src/runtime'
import { sampleRootModule } from '../../sample/sample-app'

/** Timeouts short enough that a request left incomplete is closed within the exchange's wait (fuzz-run.ts). */
export const FUZZ_SERVER_OPTIONS = { headersTimeout: 1_000, requestTimeout: 2_000, bodyTimeout: 1_000, handlerTimeout: 3_000 }

/** The sample's bearer token, for the generator's valid /one requests. */
export const FUZZ_KEY = 'fuzz-key'

const params = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 1_000_000 } } }
const query = { type: 'object', properties: { n: { type: 'integer', maximum: 100 }, tags: { type: 'array', maxItems: 4, items: { type: 'string', maxLength: 10 } }, flag: { type: 'boolean' } } }
const headers = { type: 'object', required: ['x-tenant'], properties: { 'x-tenant': { type: 'string', pattern: '^[a-z]{1,8}$' }, 'x-n': { type: 'integer' } } }
const body = {
  type: 'object', required: ['name'], additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 40 }, price: { type: 'number', minimum: 0 }, qty: { type: 'integer', default: 1 },
    tags: { type: 'array', maxItems: 5, items: { type: 'string' } }, meta: { type: 'object', additionalProperties: { type: ['string', 'number'] } },
  },
}

type CookieRequest = Request & { cookies: Record<string, string | undefined> }
type CookieReply = Reply & { setCookie(name: string, value: string, options?: Record<string, unknown>): Reply }
interface FilePart { filename: string; fieldname: string; toBuffer(): Promise<Buffer> }
type MultipartRequest = Request & { file(): Promise<FilePart | undefined> }

/** What the fuzz app adds to the sample; `ecosystem: false` leaves out the @fastify plugins (Fastify 3 cannot load them). */
export function features({ ecosystem = true } = {}) {
  return async function fuzzFeatures(scope: Scope): Promise<void> {
    if (ecosystem) {
      await scope.register(cors, { origin: ['https://app.example', /\.trusted\.example$/], credentials: true, maxAge: 60 })
      await scope.register(cookie, { secret: 'fuzz-secret' })
      await scope.register(formbody)
      await scope.register(multipart, { limits: { fileSize: 2048, files: 2, fields: 5, fieldSize: 256, headerPairs: 20, parts: 8 }, throwFileSizeLimit: true })
      await scope.register(websocket, { options: { maxPayload: 4096 } })
    }
    scope.get('/fz/seq/:n', async (request) => ({ seq: (request.params as { n: string }).n }))
    scope.post('/fz/items/:id', { schema: { params, querystring: query, headers, body } }, async (request, reply) => {
      reply.code(201)
      return { id: (request.params as { id: number }).id, body: request.body, query: request.query }
    })
    scope.get('/fz/items/:id', { schema: { params, querystring: query } }, async (request) => ({ id: (request.params as { id: number }).id, query: request.query }))
    scope.put('/fz/raw', async (request) => ({ type: typeof request.body, body: request.body ?? null }))
    scope.post('/fz/form', { schema: { body: { type: 'object', properties: { a: { type: 'string', maxLength: 20 }, b: { type: 'integer' } } } } }, async (request) => request.body)
    scope.get('/fz/stream', async (request, reply) => {
      const n = Math.min(Number((request.query as { n?: string }).n) || 3, 20)
      reply.type('text/plain')
      return Readable.from(Array.from({ length: n }, (_, i) => `chunk ${i}\n`))
    })
    scope.get('/fz/slow', async () => { await new Promise((resolve) => setTimeout(resolve, 5)); return { slow: true } })
    scope.get('/fz/v', { constraints: { version: '1.2.0' } }, async () => ({ v: '1.2.0' }))
    scope.get('/fz/v', { constraints: { version: '2.0.0' } }, async () => ({ v: '2.0.0' }))
    scope.get('/fz/v', async () => ({ v: 'none' }))
    scope.get('/fz/host', { constraints: { host: 'api.example' } }, async () => ({ host: 'api' }))
    scope.get('/fz/host', async () => ({ host: 'any' }))
    if (ecosystem) {
      scope.get('/fz/cookie', async (request, reply) => {
        ;(reply as CookieReply).setCookie('seen', String(Object.keys((request as CookieRequest).cookies).length), { path: '/', httpOnly: true, signed: true })
        return { cookies: (request as CookieRequest).cookies }
      })
      scope.post('/fz/upload', async (request) => {
        const file = await (request as MultipartRequest).file()
        if (file === undefined) return { file: null }
        return { field: file.fieldname, filename: file.filename, bytes: (await file.toBuffer()).length }
      })
      scope.get('/fz/ws', { websocket: true }, ((socket: WebSocket) => {
        socket.on('message', (message: Buffer) => socket.send(`echo ${message.length}`))
      }) as never)
    }
    scope.register(async function guarded(child: Scope) {
      child.addHook('preHandler', async (request) => {
        await new Promise((resolve) => setImmediate(resolve))
        if (request.headers.authorization !== 'Token ok') throw Object.assign(new Error('token required'), { statusCode: 401 })
      })
      child.get('/me', async () => ({ me: true }))
      child.post('/echo', { schema: { body: { type: 'object', properties: { a: { type: 'integer' } } } } }, async (request) => request.body)
    }, { prefix: '/fz/auth' })
    scope.register(async function rethrowing(child: Scope) {
      child.setErrorHandler(async (error) => { throw error })
      child.get('/boom', async () => { throw new Error('on purpose') })
      child.get('/bad', async () => { throw Object.assign(new Error('bad on purpose'), { statusCode: 400 }) })
      child.post('/json', { schema: { body: { type: 'object', required: ['a'], properties: { a: { type: 'integer' } } } } }, async (request) => request.body)
    }, { prefix: '/fz/rethrow' })
    if (ecosystem) {
      scope.register(async function limited(child: Scope) {
        await child.register(rateLimit, { max: 3, timeWindow: 60_000, keyGenerator: (request: { headers: Record<string, unknown>; ip: string }) => String(request.headers['x-client'] ?? request.ip) } as never)
        child.get('/hit', async () => ({ hit: true }))
      }, { prefix: '/fz/limited' })
    }
  }
}

/** The sample and the features in one app (module form), listening on loopback. */
export async function fuzzApp(server: ServerOptions): Promise<{ app: App; port: number }> {
  @Module({ plugins: [sampleRootModule({ keys: [FUZZ_KEY], liftGrandchild: false }), features()] })
  class FuzzRoot {}
  const app = await createApp(FuzzRoot, server)
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  return { app, port: Number(new URL(address).port) }
}
