// Upgrade requests served through `scope.routing` (@fastify/websocket, @fastify/http-proxy):
// Node's HTTP parser has let go of their sockets, so neither its timeouts nor
// closeAllConnections() reach them. close() must still end by closeTimeout, and an upgrade
// request answered over HTTP has the request deadline (requestTimeout) of an ordinary one.
import { randomBytes } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { PassThrough } from 'node:stream'
import { expect } from 'chai'
import websocket from '@fastify/websocket'
import type { Scope } from '../../src/runtime'
import { listening, rawClient, sleep, within, type RawClient } from './helpers'

/** A stream that never ends on its own: a byte every 50 ms, for at most 20 s, stopped when the connection goes. */
function endless(): PassThrough {
  const stream = new PassThrough()
  let writes = 0
  const interval = setInterval(() => { if (++writes > 400) clearInterval(interval); else stream.write('x') }, 50)
  stream.once('close', () => clearInterval(interval))
  return stream
}

/** What @fastify/websocket does with the server's 'upgrade' event: a response on the socket, then routing. */
function routeUpgrades(app: Scope): void {
  app.server.on('upgrade', (req: IncomingMessage, socket: Socket) => {
    const res = new ServerResponse(req)
    res.assignSocket(socket)
    app.routing(req, res)
  })
}

async function sendUpgrade(address: string, path: string, upgrade = 'websocket'): Promise<RawClient> {
  const client = await rawClient(address)
  const key = randomBytes(16).toString('base64')
  client.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: ${upgrade}\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n\r\n`)
  return client
}

/** Waits until the client has received `text` (bounded). */
async function received(client: RawClient, text: string): Promise<void> {
  for (let i = 0; i < 500 && !client.pending.includes(text); i++) await sleep(10)
  expect(client.pending).to.include(text)
}

describe('hardening: upgrade requests served through routing', function () {
  this.timeout(15_000)

  it('close() force-closes, at closeTimeout, an upgrade request answered over HTTP with a stream that never ends (issue: close() waited forever)', async () => {
    const { app, address } = await listening((root) => {
      root.register(websocket)
      root.get('/events', (_req, reply) => { reply.send(endless()) })
    }, { closeTimeout: 300 })
    const client = await sendUpgrade(address, '/events', 'probe')
    await received(client, 'HTTP/1.1 200 OK')
    await within(app.close(), 5_000, 'close() with an upgrade request streaming (closeTimeout 300 ms)')
    await client.waitClosed()
  })

  it('an upgrade request answered over HTTP is cut at requestTimeout, as a request on an ordinary connection is', async () => {
    const { app, address } = await listening((root) => {
      root.get('/events', (_req, reply) => { reply.send(endless()) })
    }, { requestTimeout: 300, headersTimeout: 200, closeTimeout: 60_000 })
    routeUpgrades(app)
    const client = await sendUpgrade(address, '/events', 'probe')
    await received(client, 'HTTP/1.1 200 OK')
    // Nobody closes the server: only the request deadline can end this connection.
    await client.waitClosed(5_000)
  })

  it('a websocket the plugin upgraded outlives requestTimeout, and close() still ends by closeTimeout when its client never answers the close frame', async () => {
    const { app, address } = await listening((root) => {
      root.register(async (scope) => {
        await scope.register(websocket)
        scope.get('/ws', { websocket: true }, ((socket: { on(event: string, fn: (data: unknown) => void): void; send(data: string): void }) => {
          socket.on('message', (data) => socket.send(`echo ${String(data)}`))
        }) as never)
      })
    }, { requestTimeout: 300, headersTimeout: 200, closeTimeout: 300 })
    const client = await sendUpgrade(address, '/ws')
    await received(client, 'HTTP/1.1 101 Switching Protocols')
    await sleep(700)
    expect(client.isClosed, 'the websocket was cut by the request deadline').to.equal(false)
    // The plugin's preClose sends a close frame and ws waits 30 s for the answer this client never sends.
    await within(app.close(), 5_000, 'close() with a websocket whose client ignores the close frame (closeTimeout 300 ms)')
    await client.waitClosed()
  })
})
