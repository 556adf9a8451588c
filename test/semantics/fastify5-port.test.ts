// A Fastify 5 service ported onto createServer() as its team writes it (session 17, newcomer17b,
// from the packed tarball): Fastify 5 spellings kept (withTypeProvider, logger with redact and a req serializer,
// requestIdHeader + genReqId, trustProxy, decorateRequest('user', null) set by an async onRequest,
// setErrorHandler reading error.validation, setNotFoundHandler with preValidation, @fastify/env,
// @fastify/sensible, @fastify/under-pressure, reply.send() in an async handler, return reply), then
// tested with inject() and supertest. What the client sees and what the logs carry.
import { expect } from 'chai'
import { Writable } from 'node:stream'
import request from 'supertest'
import { Type } from '@sinclair/typebox'
import fastifyEnv from '@fastify/env'
import sensible from '@fastify/sensible'
import underPressure from '@fastify/under-pressure'
import { createServer, type AsyncPlugin, type HandledError, type Scope } from '../../src'

interface PortUser { id: string; role: 'admin' | 'user' }
interface PortHttpErrors { unauthorized(message?: string): Error }

const User = Type.Object({ id: Type.String(), name: Type.String({ minLength: 1 }) })

const users: AsyncPlugin = async (fastify) => {
  const store = new Map<string, { id: string; name: string }>()
  const typed = fastify.withTypeProvider<{ name: 'typebox' }>()
  typed.post('/', { schema: { body: Type.Object({ name: Type.String({ minLength: 1 }) }), response: { 201: User } } }, async (request, reply) => {
    const caller = request.getDecorator<PortUser | null>('user')
    if (caller === null) throw fastify.getDecorator<PortHttpErrors>('httpErrors').unauthorized('no key')
    const user = { id: String(store.size + 1), name: request.body.name }
    store.set(user.id, user)
    reply.code(201).send(user)           // Fastify 5: send() in an async handler, nothing returned
  })
  typed.get('/:id', { schema: { params: Type.Object({ id: Type.String() }), response: { 200: User, 404: Type.Object({ message: Type.String() }) } }, config: { tag: 'read' } }, async (request, reply) => {
    const user = store.get(request.params.id)
    if (user === undefined) return reply.code(404).send({ message: `user ${request.params.id} not found` })
    reply.header('x-route', `${request.routeOptions.url} ${String(request.routeOptions.config.tag)}`)
    return reply.send(user)              // Fastify 5: return reply
  })
}

async function buildPort(lines: Array<Record<string, unknown>>): Promise<Scope> {
  const stream = new Writable({ write(chunk: Buffer, _enc, done) { lines.push(JSON.parse(chunk.toString())); done() } })
  const app = createServer({
    logger: { level: 'info', stream, redact: ['req.headers["x-api-key"]'], serializers: { req: (req: { method: string; url: string; headers: Record<string, string> }) => ({ method: req.method, url: req.url, headers: req.headers }) } },
    requestIdHeader: 'x-request-id',
    genReqId: () => 'generated',
    trustProxy: true,
    forceCloseConnections: 'idle',
  })
  await app.register(fastifyEnv, { schema: { type: 'object', required: ['API_KEY'], properties: { API_KEY: { type: 'string' } } }, data: { API_KEY: 'secret' } })
  await app.register(sensible)
  await app.register(underPressure, { exposeStatusRoute: '/status' })
  app.decorateRequest('user' as never, null as never)
  app.addHook('onRequest', async (request) => {
    const config = app.getDecorator<{ API_KEY: string }>('config')
    request.setDecorator('user', request.headers['x-api-key'] === config.API_KEY ? { id: 'u1', role: 'admin' } : null)
  })
  app.setErrorHandler((error: HandledError, request, reply) => {
    if (error.validation) return reply.code(422).send({ message: error.message, context: error.validationContext, reqId: request.id })
    return reply.send(error)
  })
  app.setNotFoundHandler({ preValidation: async (request) => { request.log.info({ url: request.url }, 'unknown route') } }, (request, reply) => {
    reply.code(404).send({ message: `Route ${request.method}:${request.url} not found` })
  })
  app.register(users, { prefix: '/api/users' })
  return app
}

describe('semantics: a Fastify 5 service ported onto createServer() (newcomer17b)', () => {
  it('answers its inject() and supertest suite as under Fastify 5, with the request id from the header and the API key redacted', async () => {
    const lines: Array<Record<string, unknown>> = []
    const app = await buildPort(lines)
    const created = await app.inject({ method: 'POST', url: '/api/users', headers: { 'x-api-key': 'secret', 'x-request-id': 'abc-123' }, payload: { name: 'Ann' } })
    expect([created.statusCode, created.json()]).to.deep.equal([201, { id: '1', name: 'Ann' }])
    const read = await app.inject('/api/users/1')
    expect([read.statusCode, read.json(), read.headers['x-route']]).to.deep.equal([200, { id: '1', name: 'Ann' }, '/api/users/:id read'])
    expect((await app.inject('/api/users/9')).json()).to.deep.equal({ message: 'user 9 not found' })
    const invalid = await app.inject({ method: 'POST', url: '/api/users', headers: { 'x-api-key': 'secret' }, payload: { name: '' } })
    expect([invalid.statusCode, invalid.json()]).to.deep.equal([422, { message: 'body/name should NOT be shorter than 1 characters', context: 'body', reqId: 'generated' }])
    const anonymous = await app.inject({ method: 'POST', url: '/api/users', payload: { name: 'Bob' } })
    expect([anonymous.statusCode, anonymous.json()]).to.deep.equal([401, { statusCode: 401, error: 'Unauthorized', message: 'no key' }])
    expect((await app.inject('/nope')).json()).to.deep.equal({ message: 'Route GET:/nope not found' })
    expect((await app.inject('/status')).json()).to.deep.equal({ status: 'ok' })
    await app.ready()
    const viaSocket = await request(app.server).get('/api/users/1').set('x-forwarded-for', '203.0.113.9')
    expect([viaSocket.status, viaSocket.body]).to.deep.equal([200, { id: '1', name: 'Ann' }])
    await app.close()
    const first = lines.filter((line) => line.reqId === 'abc-123').map((line) => line.msg)
    expect(first).to.deep.equal(['incoming request', 'request completed'])
    const withKey = lines.find((line) => line.reqId === 'abc-123' && line.req !== undefined) as { req: { headers: Record<string, string> } }
    expect([withKey.req.headers['x-api-key'], withKey.req.headers['x-request-id']]).to.deep.equal(['[Redacted]', 'abc-123'])
    expect(lines.some((line) => line.msg === 'unknown route' && line.url === '/nope')).to.equal(true)
  })
})
