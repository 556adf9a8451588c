import 'reflect-metadata'
import { expect } from 'chai'
import { request as httpRequest } from 'node:http'
import { PassThrough, Readable } from 'node:stream'
import fastifySse from '@fastify/sse'
import fastify5 from 'fastify5'
import { Get, Module, Reply, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { track, server } from '../support/servers'
import { within } from '../support/raw-http'

// @fastify/sse 0.6 (the official Server-Sent Events plugin; fastify-plugin `fastify: '5.x'`), as
// its README uses it: a route option `sse: 'only' | 'dual' | 'manual' | true | { kind, heartbeat }`
// read by an onRoute hook that wraps the handler, and `reply.sse.send()` of messages, strings,
// async iterables and Readables, written to reply.raw. Compared with Fastify 5 over real sockets,
// from the runtime API and from a module, beside Enclave's own event streams (a returned stream
// typed text/event-stream) on the same server.
type Any = any
interface Answer { status: number; type: unknown; cacheControl: unknown; extra: unknown; body: string }

function get(address: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return within(new Promise((resolve, reject) => {
    const req = httpRequest(`${address}${path}`, { agent: false, headers }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => { body += chunk })
      res.on('end', () => resolve({ status: res.statusCode as number, type: res.headers['content-type'], cacheControl: res.headers['cache-control'], extra: res.headers['x-extra'], body }))
    })
    req.on('error', reject)
    req.end()
  }), 5_000, `GET ${path}`)
}

/** The README's routes, on either framework. */
async function declareEvents(app: Any): Promise<void> {
  await app.register(fastifySse, { heartbeatInterval: 0 })
  app.get('/events', { sse: 'only' }, async (_request: Any, reply: Any) => {
    reply.header('x-extra', 'kept')
    await reply.sse.send({ id: '1', event: 'update', data: { n: 1 } })
    await reply.sse.send('plain')
    await reply.sse.send((async function * () { yield { data: 'a' }; yield { data: 'b' } })())
  })
  app.get('/dual', { sse: 'dual' }, async (_request: Any, reply: Any) => {
    if (reply.sse === undefined) return { json: true }
    await reply.sse.send({ data: 'streamed' })
  })
  app.get('/resume', { sse: { kind: 'only', heartbeat: false } }, async (_request: Any, reply: Any) => {
    await reply.sse.replay(async (lastId: string) => { await reply.sse.send({ id: String(Number(lastId) + 1), data: 'missed' }) })
    await reply.sse.send({ data: 'live' })
  })
  app.get('/readable', { sse: 'only' }, async (_request: Any, reply: Any) => {
    await reply.sse.send(Readable.from([{ data: 'r1' }, { data: 'r2' }]))
  })
  app.get('/fails', { sse: 'only' }, async () => { throw Object.assign(new Error('no feed'), { statusCode: 409 }) })
}

const probes: Array<[string, Record<string, string>]> = [
  ['/events', {}], ['/events', { accept: 'text/event-stream' }], ['/events', { accept: 'application/json' }],
  ['/dual', {}], ['/dual', { accept: 'text/event-stream' }], ['/resume', { 'last-event-id': '41' }], ['/resume', {}],
  ['/readable', {}], ['/fails', {}],
]

describe('@fastify/sse in Enclave', () => {
  it('serves the README\'s routes as Fastify 5 does: 406 for a client refusing SSE, dual routes, Last-Event-ID replay, iterables and Readables, reply.header() kept, a thrown error answered as JSON', async () => {
    const app = server()
    await declareEvents(app)
    const reference = fastify5()
    try {
      await declareEvents(reference)
      const ours = await app.listen({ port: 0, host: '127.0.0.1' })
      const theirs = await reference.listen({ port: 0, host: '127.0.0.1' })
      for (const [path, headers] of probes) {
        expect(await get(ours, path, headers), `${path} ${JSON.stringify(headers)}`).to.deep.equal(await get(theirs, path, headers))
      }
      expect((await get(ours, '/events')).body).to.equal('id: 1\nevent: update\ndata: {"n":1}\n\ndata: plain\n\ndata: "a"\n\ndata: "b"\n\n')
      expect((await get(ours, '/resume', { 'last-event-id': '41' })).body).to.equal('id: 42\ndata: "missed"\n\ndata: "live"\n\n')
      expect(await get(ours, '/events', { accept: 'application/json' })).to.include({ status: 406 })
    } finally { await reference.close() }
  })

  it('works from a module (@Module plugins, the route option on @Get, reply by @Reply()) beside Enclave\'s own event stream on the same app', async () => {
    @Route('/feed')
    class Feed {
      @Get('/plugin', { sse: 'only' } as never)
      async plugin(@Reply() reply: Any): Promise<void> {
        await reply.sse.send({ event: 'tick', data: { from: 'plugin' } })
      }

      // Enclave's own: a returned stream typed text/event-stream (README "Server-Sent Events").
      @Get('/own')
      own(@Reply() reply: Any): unknown {
        const stream = new PassThrough()
        stream.end('event: tick\ndata: {"from":"enclave"}\n\n')
        return reply.type('text/event-stream').send(stream)
      }
    }
    @Module({ plugins: [[fastifySse, { heartbeatInterval: 0 }]], controllers: [Feed] })
    class AppModule {}
    const app = track(await createApp(AppModule))
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const plugin = await get(address, '/feed/plugin')
    expect(plugin).to.deep.include({ status: 200, type: 'text/event-stream', body: 'event: tick\ndata: {"from":"plugin"}\n\n' })
    const own = await get(address, '/feed/own')
    expect(own).to.deep.include({ status: 200, body: 'event: tick\ndata: {"from":"enclave"}\n\n' })
    expect(own.type).to.match(/^text\/event-stream/)
    expect((await get(address, '/feed/plugin', { accept: 'application/json' })).status).to.equal(406)
  })

  /** GET /live's body: a keepAlive() route sending one event, then a second 200 ms after its handler returned. */
  async function liveBody(app: Any, hijack: boolean): Promise<string> {
    await app.register(fastifySse, { heartbeatInterval: 0 })
    app.get('/live', { sse: 'only' }, async (_request: Any, reply: Any) => {
      if (hijack) reply.hijack()
      reply.sse.keepAlive()
      await reply.sse.send({ data: 'first' })
      setTimeout(() => { reply.sse.send({ data: 'second' }).then(() => reply.sse.close(), () => undefined) }, 200)
    })
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    return within(new Promise<string>((resolve) => {
      let body = ''
      const req = httpRequest(`${address}/live`, { agent: false }, (res) => {
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => { body += chunk })
        res.on('end', () => resolve(body))
        res.on('error', () => resolve(`${body}(cut)`))
      })
      req.on('error', () => resolve(`${body}(cut)`))
      req.end()
    }), 5_000, 'GET /live')
  }

  it('keepAlive(): the handler streams after it returned, with or without reply.hijack() first, as on Fastify 5 (a head written through reply.raw hands the response to the handler)', async () => {
    const reference = fastify5()
    const referenceHijacked = fastify5()
    try {
      expect(await liveBody(server(), true)).to.equal('data: "first"\n\ndata: "second"\n\n')
      expect(await liveBody(referenceHijacked, true)).to.equal('data: "first"\n\ndata: "second"\n\n')
      expect(await liveBody(server({ logger: false }), false)).to.equal('data: "first"\n\ndata: "second"\n\n')
      expect(await liveBody(reference, false)).to.equal('data: "first"\n\ndata: "second"\n\n')
    } finally { await reference.close(); await referenceHijacked.close() }
  })

  it('close() with a hijacked keepAlive() stream open cuts it at closeTimeout and runs reply.sse.onClose (Fastify 5\'s close() waits for the client to leave)', async () => {
    const app = server({ closeTimeout: 1_000 })
    let closed = 0
    await app.register(fastifySse as Any, { heartbeatInterval: 0 })
    app.get('/live', { sse: 'only' } as never, async (_request: Any, reply: Any) => {
      reply.hijack()
      reply.sse.keepAlive()
      reply.sse.onClose(() => { closed++ })
      await reply.sse.send({ data: 'connected' })
    })
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    let received = ''
    const first = new Promise<void>((resolve) => {
      const req = httpRequest(`${address}/live`, { agent: false }, (res) => {
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => { received += chunk; resolve() })
        res.on('error', () => undefined)
      })
      req.on('error', () => undefined)
      req.end()
    })
    await within(first, 5_000, 'the first event')
    // Still open after its handler returned (a hijacked response is the handler's).
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect([received, closed]).to.deep.equal(['data: "connected"\n\n', 0])
    // Generous bound: closeTimeout is 1 s; only a hang (Fastify 5's wait for the client) fails it.
    await within(app.close(), 10_000, 'close() with an @fastify/sse stream open')
    expect(closed).to.equal(1)
  })
})
