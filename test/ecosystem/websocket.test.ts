import 'reflect-metadata'
import { expect } from 'chai'
import request from 'supertest'
import WebSocket from 'ws'
import websocket from '@fastify/websocket'
import type { FastifyInstance } from 'fastify'
import { Get, Module, OnRequest, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { createServer, HttpError, type Request, type RequestOf, type Scope } from '../../src/runtime'
import { injectable } from '../../src'
import { track } from '../support/servers'

// The plugin's route options, declared as docs/plugins.md says ("From TypeScript").
declare module '../../src/runtime/types' {
  interface PluginRouteOptions { websocket?: boolean; wsHandler?: (socket: WebSocket, request: Request) => unknown }
}

type WsRequest = Request & { ws: boolean }
type WsScope = Scope & { websocketServer: WebSocket.Server }

/** Echoes each message back with the url and a header the HTTP side of the request saw. */
function echo(socket: WebSocket, req: Request): void {
  socket.on('message', (message) => socket.send(`${req.url} ${String(req.headers['x-user'] ?? '-')}: ${String(message)}`))
}

/** Scope form, as the README writes it; /room is guarded by an onRequest hook of its context. */
async function scopeApp(): Promise<Scope> {
  const app = track(createServer())
  app.get('/before', async () => ({ http: true }))
  app.register(async function chat(scope) {
    await scope.register(websocket)
    scope.get('/echo', { websocket: true }, echo as never)
    scope.route({ method: 'GET', url: '/both', handler: async () => ({ http: true }), wsHandler: echo })
    scope.register(async function room(guarded) {
      guarded.addHook('onRequest', async (req) => { if (req.headers['x-user'] === undefined) throw new HttpError(401, 'who are you?') })
      guarded.get('/room', { websocket: true }, echo as never)
    })
  }, { prefix: '/chat' })
  app.register(async function sibling(scope) { scope.get('/probe', async (req) => ({ ws: (req as Partial<WsRequest>).ws ?? null })) }, { prefix: '/other' })
  await app.listen({ port: 0, host: '127.0.0.1' })
  return app
}

/** Module form: the plugin in the module's plugins, a websocket route in its controller. */
async function moduleApp(): Promise<Scope> {
  @Route() class Before { @Get('/before') before() { return { http: true } } }
  @Route() class Chat {
    // (socket, request) as the plugin passes them: no parameter decorators (see docs/plugins.md),
    // and the socket typed `unknown` (the route type check knows only the request's parts).
    @Get('/echo', { websocket: true }) echo(socket: unknown, req: Request) { echo(socket as WebSocket, req) }
    @Get('/both', { wsHandler: echo }) both() { return { http: true } }
  }
  @Module({
    // The guarded room: a context of its own under the module's, as in the scope form.
    plugins: [websocket, async function room(scope: Scope) {
      scope.addHook('onRequest', async (req) => { if (req.headers['x-user'] === undefined) throw new HttpError(401, 'who are you?') })
      scope.get('/room', { websocket: true }, echo as never)
    }],
    controllers: [Chat],
    prefix: '/chat',
  }) class ChatModule {}
  @Route() class Probe { @Get('/probe') probe(req: Request) { return { ws: (req as Partial<WsRequest>).ws ?? null } } }
  @Module({ controllers: [Probe], prefix: '/other' }) class OtherModule {}
  @Module({ plugins: [ChatModule, OtherModule], controllers: [Before] }) class AppModule {}
  const app = track(await createApp(AppModule))
  await app.listen({ port: 0, host: '127.0.0.1' })
  return app
}

function wsUrl(app: Scope, path: string): string {
  const address = app.server.address() as { port: number }
  return `ws://127.0.0.1:${address.port}${path}`
}

/** Opens a socket, sends one message, resolves with the reply (or rejects with the refusal). */
function roundTrip(url: string, message: string, headers: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const client = new WebSocket(url, { headers })
    client.once('open', () => client.send(message))
    client.once('message', (data) => { resolve(String(data)); client.close() })
    client.once('error', reject)
  })
}

async function refusal(url: string, headers: Record<string, string> = {}): Promise<string> {
  try {
    await roundTrip(url, 'x', headers)
  } catch (error) {
    return (error as Error).message
  }
  throw new Error(`${url} was expected to refuse the upgrade`)
}

// @fastify/websocket README: `{ websocket: true }` routes get `(socket, request)` after the
// request went through the context's hooks; `wsHandler` beside an HTTP handler serves both on one
// url; an HTTP request to a websocket route is 404; the plugin closes its sockets on close().
describe('@fastify/websocket in Enclave', function () {
  this.timeout(10_000)
  for (const [layer, build] of [['scope', scopeApp], ['module', moduleApp]] as const) {
    describe(`registered in a ${layer}`, () => {
      it('serves websocket routes next to HTTP routes, through the context\'s hooks', async () => {
        const app = await build()
        expect(await roundTrip(wsUrl(app, '/chat/echo'), 'hello')).to.equal('/chat/echo -: hello')
        expect(await roundTrip(wsUrl(app, '/chat/both'), 'hi')).to.equal('/chat/both -: hi')
        await request(app.server).get('/chat/both').expect(200, { http: true })
        await request(app.server).get('/chat/echo').expect(404)
        await request(app.server).get('/before').expect(200, { http: true })
        expect(await roundTrip(wsUrl(app, '/chat/room'), 'knock', { 'x-user': 'ada' })).to.equal('/chat/room ada: knock')
        expect(await refusal(wsUrl(app, '/chat/room'))).to.equal('Unexpected server response: 401')
      })

      it('answers an upgrade to a path without a websocket route over HTTP, and leaves sibling contexts alone', async () => {
        const app = await build()
        expect(await refusal(wsUrl(app, '/nowhere'))).to.equal('Unexpected server response: 404')
        expect(await refusal(wsUrl(app, '/before'))).to.equal('Unexpected server response: 200')
        await request(app.server).get('/other/probe').expect(200, { ws: null })
      })

      it('closes open websocket connections when the app closes (its preClose hook)', async () => {
        const app = await build()
        const client = new WebSocket(wsUrl(app, '/chat/echo'))
        await new Promise((resolve, reject) => { client.once('open', resolve); client.once('error', reject) })
        const closed = new Promise<number>((resolve) => client.once('close', (code) => resolve(code)))
        await app.close()
        expect(await closed).to.equal(1005)
      })
    })
  }

  it('a rolling deploy: the plugin\'s preClose option (docs/plugins.md) closes sockets with 1001 and a reason, and close() does not wait closeTimeout', async () => {
    @Route() class Chat { @Get('/echo', { websocket: true }) echo(socket: unknown, req: Request) { echo(socket as WebSocket, req) } }
    @Module({
      plugins: [[websocket, {
        preClose(this: FastifyInstance, done: () => void) {
          for (const client of this.websocketServer.clients) client.close(1001, 'server restarting')
          this.websocketServer.close()
          done()
        },
      }]],
      controllers: [Chat],
    }) class ChatModule {}
    const app = track(await createApp(ChatModule, { closeTimeout: 60_000 }))
    await app.listen({ port: 0, host: '127.0.0.1' })
    const client = new WebSocket(wsUrl(app, '/echo'))
    await new Promise((resolve, reject) => { client.once('open', resolve); client.once('error', reject) })
    const closed = new Promise<[number, string]>((resolve) => client.once('close', (code, reason) => resolve([code, String(reason)])))
    const started = Date.now()
    await app.close()
    expect(Date.now() - started).to.be.below(5_000)
    expect(await closed).to.deep.equal([1001, 'server restarting'])
  })

  it('answers injectWS, the plugin\'s in-process test client, through the same routes', async () => {
    const app = track(createServer())
    await app.register(websocket)
    app.get('/echo', { websocket: true }, echo as never)
    await app.ready()
    const client = await (app as Scope & { injectWS(path: string): Promise<WebSocket> }).injectWS('/echo')
    const reply = new Promise<string>((resolve) => client.once('message', (data) => resolve(String(data))))
    client.send('in-process')
    expect(await reply).to.equal('/echo -: in-process')
    client.terminate()
  })

  // The runtime API types a `{ websocket: true }` shortcut's handler as the plugin calls it:
  // (socket, request), the request typed from the route's schema; no cast to `never`.
  it('a websocket shortcut route gets (socket, request) as typed, the request with its schema-typed params', async () => {
    const app = track(createServer())
    await app.register(websocket)
    const params = { type: 'object', required: ['room'], properties: { room: { type: 'string' } } } as const
    app.get('/rooms/:room/ws', { websocket: true, schema: { params } }, (socket: WebSocket, req) => {
      const room: string = req.params.room
      socket.on('message', (m) => socket.send(`${room}: ${String(m)}`))
    })
    await app.listen({ port: 0, host: '127.0.0.1' })
    expect(await roundTrip(wsUrl(app, '/rooms/general/ws'), 'hi')).to.equal('general: hi')
  })

  // The object form is typed the same way when `websocket: true` is a literal (route() used to type it (request, reply)).
  it('a websocket route() in object form gets (socket, request) as typed, the request with its schema-typed params', async () => {
    const app = track(createServer())
    await app.register(websocket)
    const params = { type: 'object', required: ['room'], properties: { room: { type: 'string' } } } as const
    app.route({ method: 'GET', url: '/rooms/:room/ws', websocket: true, schema: { params }, handler: (socket: WebSocket, req) => {
      const room: string = req.params.room
      socket.on('message', (m) => socket.send(`${room} (route): ${String(m)}`))
    } })
    await app.listen({ port: 0, host: '127.0.0.1' })
    expect(await roundTrip(wsUrl(app, '/rooms/general/ws'), 'hi')).to.equal('general (route): hi')
  })

  // docs/plugins.md "In a controller": a guard class on the websocket route authenticates the
  // upgrade from a query token (browsers cannot set headers on a websocket).
  it('in a controller, a guard class on the websocket route refuses the upgrade with its 401 and lets a valid token through', async () => {
    @injectable() class TokenInQuery {
      handle(request: Request): void {
        if ((request.query as { token?: string }).token !== 'good') throw new HttpError(401, 'a valid ?token= is required')
      }
    }
    @Route('/rooms') class Rooms {
      @OnRequest(TokenInQuery) @Get('/:room/ws', { websocket: true })
      join(connection: unknown, req: Request) {
        const socket = connection as WebSocket
        socket.on('message', (m) => socket.send(`${(req.params as { room: string }).room}: ${String(m)}`))
      }
    }
    @Module({ plugins: [websocket], controllers: [Rooms], providers: [TokenInQuery] }) class RoomsModule {}
    const app = track(await createApp(RoomsModule))
    await app.listen({ port: 0, host: '127.0.0.1' })
    expect(await refusal(wsUrl(app, '/rooms/general/ws'))).to.equal('Unexpected server response: 401')
    expect(await refusal(wsUrl(app, '/rooms/general/ws?token=bad'))).to.equal('Unexpected server response: 401')
    expect(await roundTrip(wsUrl(app, '/rooms/general/ws?token=good'), 'hi')).to.equal('general: hi')
  })

  // `{ websocket: true }` checks the controller method as (socket, request): the socket typed as declared, no cast from unknown.
  it('in a controller, a websocket method declares its socket as ws\'s WebSocket and its request typed from the route schema', async () => {
    const params = { type: 'object', required: ['room'], properties: { room: { type: 'string' } } } as const
    @Route('/typed') class Typed {
      @Get('/:room/ws', { websocket: true, schema: { params } })
      join(socket: WebSocket, req: RequestOf<{ params: typeof params }>) {
        const room: string = req.params.room
        socket.on('message', (m) => socket.send(`${room} (controller): ${String(m)}`))
      }
    }
    @Module({ plugins: [websocket], controllers: [Typed] }) class TypedModule {}
    const app = track(await createApp(TypedModule))
    await app.listen({ port: 0, host: '127.0.0.1' })
    expect(await roundTrip(wsUrl(app, '/typed/general/ws'), 'hi')).to.equal('general (controller): hi')
  })

  it('refuses a websocket handler on a method other than GET, at declaration', async () => {
    const app = track(createServer())
    await app.register(websocket)
    expect(() => app.post('/ws', { websocket: true }, echo as never)).to.throw('websocket handler can only be declared in GET method')
    expect((app as WsScope).websocketServer).to.be.instanceOf(WebSocket.Server)
  })
})
