import { expect } from 'chai'
import { ServerResponse, type IncomingMessage } from 'node:http'
import { connect, type Socket } from 'node:net'
import { build } from './helpers'
import type { Scope } from '../../src/runtime'

/** Sends an upgrade request on a raw connection; resolves with all it received once the server closed it. */
function upgrade(app: Scope, path: string): Promise<string> {
  const { port } = app.server.address() as { port: number }
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let received = ''
    socket.on('data', (chunk) => { received += chunk.toString() })
    socket.once('error', reject)
    socket.once('close', () => resolve(received))
    socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\nUpgrade: probe\r\n\r\n`)
  })
}

/** What @fastify/websocket does with the server's 'upgrade' event: a response on the socket, then routing. */
function routeUpgrades(app: Scope): void {
  app.server.on('upgrade', (req: IncomingMessage, socket: Socket) => {
    const res = new ServerResponse(req)
    res.assignSocket(socket)
    app.routing(req, res)
  })
}

// Fastify's `fastify.routing`: the server's request listener, for requests a plugin receives
// elsewhere (an 'upgrade'), through the same routes and hooks.
describe('runtime: scope.routing (Fastify\'s routing)', () => {
  it('serves an upgrade request through the routes and hooks, then closes its socket (no HTTP parser is left to reuse it)', async () => {
    const app = await build((root) => {
      root.addHook('onRequest', async (_req, reply) => { reply.header('x-hooked', 'yes') })
      root.get('/hello', async (req) => ({ hello: req.headers.upgrade }))
      root.register(async (child) => { child.get('/child', async () => 'child') })
    })
    routeUpgrades(app)
    await app.listen({ port: 0, host: '127.0.0.1' })
    const answered = await upgrade(app, '/hello')
    expect(answered).to.match(/^HTTP\/1.1 200 OK\r\n/).and.contain('x-hooked: yes').and.contain('Connection: close')
    expect(answered.endsWith('{"hello":"probe"}')).to.equal(true)
    expect(await upgrade(app, '/missing')).to.match(/^HTTP\/1.1 404 Not Found\r\n/)
    // close() does not wait on the sockets those requests came on
    await app.close()
  })

  it('is one function for every scope, and leaves a socket whose reply was hijacked to the handler', async () => {
    let child: Scope | undefined
    const app = await build((root) => {
      root.register(async (c) => { child = c })
      root.get('/raw', async (req, reply) => {
        reply.hijack()
        req.raw.socket.end('HTTP/1.1 101 Switching Protocols\r\nUpgrade: probe\r\nConnection: Upgrade\r\n\r\nhijacked')
      })
    })
    expect(child!.routing).to.equal(app.routing)
    routeUpgrades(app)
    await app.listen({ port: 0, host: '127.0.0.1' })
    const answered = await upgrade(app, '/raw')
    expect(answered).to.equal('HTTP/1.1 101 Switching Protocols\r\nUpgrade: probe\r\nConnection: Upgrade\r\n\r\nhijacked')
  })
})
