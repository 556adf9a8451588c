// The parts of Fastify's plugin API that @fastify/websocket and @fastify/reply-from needed
// (docs/plugins.md "The plugin API Enclave offers"): the preClose hook, avvio's onClose(fn),
// and `routing`, the request listener for requests a plugin receives from the 'upgrade' event.
import { expect } from 'chai'
import { ServerResponse, type IncomingMessage } from 'node:http'
import { connect, type Socket } from 'node:net'
import type { Scope } from '../../src/runtime'
import { build, recordingLogger, server } from '../runtime/helpers'

describe('plugin API: close hooks', () => {
  // Fastify 4+'s preClose (@fastify/websocket closes its sockets in one): on close(), before the
  // server stops accepting and before any onClose hook; parents first; `this` is the scope.
  describe('preClose', () => {
    it('runs on close() while the server still listens, each scope before its children depth first, before the onClose hooks; async and callback', async () => {
      const order: string[] = []
      const app = await build((root) => {
        root.addHook('onClose', async () => { order.push('onClose') })
        root.addHook('preClose', async function (this: Scope) { order.push(`root:${this === root}:${root.server.listening}`) })
        root.register(async (child) => {
          // done called twice, as @fastify/websocket's default preClose does: the second is ignored
          child.addHook('preClose', function (this: Scope, done?: (error?: Error) => void) { order.push(`child:${this === child}`); done!(); done!() })
          child.register(async (grandchild) => { grandchild.addHook('preClose', async () => { order.push('grandchild') }) })
        })
        root.register(async (second) => { second.addHook('preClose', async () => { order.push('second child') }) })
      })
      await app.listen({ port: 0, host: '127.0.0.1' })
      expect(order).to.deep.equal([])
      await app.close()
      // depth first, as Fastify: a child's subtree before the next child
      expect(order).to.deep.equal(['root:true:true', 'child:true', 'grandchild', 'second child', 'onClose'])
    })

    it('a failing preClose hook is logged and close() goes on; close() before boot boots and runs them (Fastify 5)', async () => {
      const logger = recordingLogger()
      const order: string[] = []
      const app = await build((root) => {
        root.addHook('preClose', async () => { throw new Error('could not drain') })
        root.addHook('onClose', async () => { order.push('onClose') })
      }, { logger })
      await app.close()
      expect(order).to.deep.equal(['onClose'])
      expect(logger.entries.some((e) => e.level === 'error' && e.msg === 'preClose hook in root failed')).to.equal(true)

      const unbooted: string[] = []
      const never = server()
      never.addHook('preClose', async () => { unbooted.push('preClose') })
      never.addHook('onClose', async () => { unbooted.push('onClose') })
      await never.close()
      expect(unbooted).to.deep.equal(['preClose', 'onClose'])
    })
  })

  // Scope.onClose is avvio's `instance.onClose(fn)`, which @fastify/reply-from calls: the onClose hook.
  describe('scope.onClose(fn) (avvio, used by @fastify/reply-from)', () => {
    it('adds an onClose hook of the scope, run on close() with the scope, in either form, newest first as avvio runs them', async () => {
      const order: string[] = []
      const app = server()
      app.register(async function plugin(scope: Scope) {
        scope.onClose((instance, done) => { order.push(`callback:${instance === scope}`); done!() })
        scope.onClose(async (instance) => { order.push(`async:${instance === scope}`) })
      })
      await app.ready()
      await app.close()
      // avvio's close queue is last-in-first-out: the hook added second runs first
      expect(order).to.deep.equal(['async:true', 'callback:true'])
    })
  })
})

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
describe('plugin API: scope.routing (Fastify\'s routing)', () => {
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
