import { expect } from 'chai'
import request from 'supertest'
import proxy from '@fastify/http-proxy'
import replyFrom from '@fastify/reply-from'
import websocket from '@fastify/websocket'
import WebSocket from 'ws'
import { createServer, HttpError, type Reply, type Request } from '../../src/runtime'
import { server, track } from '../support/servers'
import { freePort } from '../support/free-port'
import { modes, topology } from './helpers'

/** The second local server the proxy forwards to, on loopback. */
async function upstream(): Promise<string> {
  const up = server()
  up.get('/items/:id', async (req) => ({ id: (req.params as { id: string }).id, query: req.query, via: req.headers['x-via'] ?? null }))
  up.post('/items', async (req, reply) => { reply.code(201).header('x-upstream', 'yes'); return { created: req.body } })
  up.get('/moved', async (_req, reply) => reply.redirect('/items/9'))
  up.get('/fails', async () => { throw new HttpError(409, 'taken') })
  return up.listen({ port: 0, host: '127.0.0.1' })
}

type FromReply = Reply & { from(url: string, options?: object): Reply }

// The registering context's own routes keep Enclave's parsers: the proxy's catch-all parser
// stays in the proxy's context (the plugin is fastify-plugin'ed with `encapsulate: true`).
const probe = async (req: Request) => ({ body: req.body ?? null })

// @fastify/http-proxy README: everything under `prefix` is forwarded to `upstream` (with
// `rewritePrefix`), status, headers and body as the upstream answered; `preHandler` runs first;
// an upstream that refuses the connection is a 500. It is built on @fastify/reply-from's reply.from().
describe('@fastify/http-proxy in Enclave', () => {
  for (const mode of modes) {
    describe(`registered in a ${mode}`, () => {
      it('forwards requests under its prefix to the upstream, and leaves the context\'s own routes alone', async () => {
        const base = await upstream()
        const options = {
          upstream: base,
          prefix: '/api',
          rewritePrefix: '/items',
          replyOptions: { rewriteRequestHeaders: (_req: unknown, headers: Record<string, string>) => ({ ...headers, 'x-via': 'enclave' }) },
        }
        const app = await topology(mode, { plugin: proxy, options, probe })
        await request(app.server).get('/inside/api/3?tag=a').expect(200, { id: '3', query: { tag: 'a' }, via: 'enclave' })
        const created = await request(app.server).post('/inside/api').send({ name: 'ada' }).expect(201, { created: { name: 'ada' } })
        expect(created.headers['x-upstream']).to.equal('yes')
        // The plugin refuses a destination that climbs out of rewritePrefix.
        await request(app.server).get('/inside/api/../fails').expect(400)
        await request(app.server).post('/inside/probe').send({ local: true }).expect(200, { body: { local: true } })
        await request(app.server).get('/outside/api/3').expect(404)
        await request(app.server).get('/api/3').expect(404)
      })
    })
  }

  it('passes the upstream\'s errors and redirects on (the Location under the proxy\'s prefix), and runs preHandler first', async () => {
    const base = await upstream()
    const app = track(createServer())
    await app.register(proxy, {
      upstream: base,
      prefix: '/up',
      preHandler: async (req) => { if (req.headers['x-key'] !== 'k') throw new HttpError(401, 'key needed') },
    })
    await app.ready()
    const conflict = await request(app.server).get('/up/fails').set('x-key', 'k').expect(409)
    expect(conflict.body).to.deep.equal({ statusCode: 409, error: 'Conflict', message: 'taken' })
    const moved = await request(app.server).get('/up/moved').set('x-key', 'k').expect(302)
    expect(moved.headers.location).to.equal('/up/items/9')
    await request(app.server).get('/up/items/1').expect(401, { statusCode: 401, error: 'Unauthorized', message: 'key needed' })
  })

  it('answers 500 when the upstream refuses the connection (the plugin\'s InternalServerError; Enclave shows only the reason phrase)', async () => {
    const app = track(createServer())
    await app.register(proxy, { upstream: `http://127.0.0.1:${await freePort()}`, prefix: '/down' })
    await app.ready()
    await request(app.server).get('/down/x').expect(500, { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
  })

  it('@fastify/reply-from: reply.from() forwards one route\'s request; its client is closed with the app (scope.onClose, test/plugins/plugin-lifecycle-api.test.ts)', async () => {
    const base = await upstream()
    const app = track(createServer())
    await app.register(replyFrom, { base })
    app.get('/item/:id', (req, reply) => { (reply as FromReply).from(`/items/${(req.params as { id: string }).id}?from=reply`) })
    await app.ready()
    await request(app.server).get('/item/7').expect(200, { id: '7', query: { from: 'reply' }, via: null })
  })

  it('proxies websocket connections with websocket: true (through scope.routing), next to HTTP', async () => {
    const up = server()
    await up.register(websocket)
    up.get('/chat', { websocket: true }, ((socket: WebSocket, req: Request) => { socket.on('message', (m) => socket.send(`upstream ${req.url}: ${String(m)}`)) }) as never)
    up.get('/plain', async () => ({ plain: true }))
    const base = await up.listen({ port: 0, host: '127.0.0.1' })
    const app = track(createServer())
    await app.register(proxy, { upstream: base, prefix: '/up', websocket: true })
    const url = await app.listen({ port: 0, host: '127.0.0.1' })
    const client = new WebSocket(`${url.replace('http', 'ws')}/up/chat`)
    const answer = new Promise<string>((resolve, reject) => { client.once('message', (m) => resolve(String(m))); client.once('error', reject) })
    client.once('open', () => client.send('hi'))
    expect(await answer).to.equal('upstream /chat: hi')
    client.close()
    await request(app.server).get('/up/plain').expect(200, { plain: true })
  })
})
