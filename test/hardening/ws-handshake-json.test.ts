// Malformed websocket handshakes under @fastify/websocket: ws answered them with a text/html 400
// (a bare sentence), the one error on the server outside the JSON shape. Enclave listens to ws's
// 'wsClientError' and answers { statusCode, code, error, message }, then closes the connection; a
// listener the application adds itself takes over. Every exchange bounded at 2 s.
import { connect } from 'node:net'
import { expect } from 'chai'
import websocket from '@fastify/websocket'
import type { WebSocket, WebSocketServer } from 'ws'
import { server } from '../support/servers'
import { expectErrorShape } from './helpers'
import type { Scope } from '../../src/runtime'

const KEY = 'dGhlIHNhbXBsZSBub25jZQ=='
const upgrade = (headers: string, method = 'GET'): string =>
  `${method} /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n${headers}\r\n`

function exchange(port: number, bytes: string, ms = 2_000): Promise<{ head: string; body: string; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port })
    let text = ''
    const done = (closed: boolean): void => {
      const at = text.indexOf('\r\n\r\n')
      resolve({ head: at < 0 ? text : text.slice(0, at), body: at < 0 ? '' : text.slice(at + 4), closed })
    }
    const guard = setTimeout(() => { socket.destroy(); done(false) }, ms)
    socket.on('data', (chunk: Buffer) => { text += chunk.toString('latin1') })
    socket.on('error', () => undefined)
    socket.on('close', () => { clearTimeout(guard); done(true) })
    socket.write(bytes)
  })
}

async function wsApp(): Promise<{ app: Scope; port: number }> {
  const app = server()
  await app.register(websocket)
  app.get('/ws', { websocket: true }, ((socket: WebSocket) => { socket.on('message', (m: Buffer) => socket.send(m)) }) as never)
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  return { app, port: Number(new URL(address).port) }
}

const CASES: Array<[string, string, number, RegExp]> = [
  ['a short Sec-WebSocket-Key', upgrade('Sec-WebSocket-Key: short\r\nSec-WebSocket-Version: 13\r\n'), 400, /Sec-WebSocket-Key/],
  ['no Sec-WebSocket-Key', upgrade('Sec-WebSocket-Version: 13\r\n'), 400, /Sec-WebSocket-Key/],
  ['Sec-WebSocket-Version 99', upgrade(`Sec-WebSocket-Key: ${KEY}\r\nSec-WebSocket-Version: 99\r\n`), 400, /Sec-WebSocket-Version/],
  ['an unparsable Sec-WebSocket-Protocol', upgrade(`Sec-WebSocket-Key: ${KEY}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: a,,b\r\n`), 400, /Sec-WebSocket-Protocol/],
  ['Upgrade: h2c', 'GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n\r\n', 400, /Upgrade/],
]

describe('hardening: malformed websocket handshakes are answered in the JSON error shape', function () {
  this.timeout(10_000)

  for (const [name, request, status, reason] of CASES) {
    it(`${name}: ${status} ENC_ERR_WS_HANDSHAKE_INVALID in JSON with ws's reason, the connection closed; a good handshake still upgrades`, async () => {
      const { port } = await wsApp()
      const bad = await exchange(port, request)
      expect(bad.head.split('\r\n')[0]).to.equal(`HTTP/1.1 ${status} Bad Request`)
      expect(bad.head).to.match(/\r\ncontent-type: application\/json; charset=utf-8\r\n/i)
      expect(bad.head).to.match(/\r\nconnection: close/i)
      const parsed = expectErrorShape(bad.body, status)
      expect(parsed.code).to.equal('ENC_ERR_WS_HANDSHAKE_INVALID')
      expect(parsed.message).to.match(reason)
      expect(bad.closed).to.equal(true)
      const good = await exchange(port, upgrade(`Sec-WebSocket-Key: ${KEY}\r\nSec-WebSocket-Version: 13\r\n`), 300)
      expect(good.head.split('\r\n')[0]).to.equal('HTTP/1.1 101 Switching Protocols')
    })
  }

  it('an unknown version keeps ws\'s Sec-WebSocket-Version: 13, 8 hint', async () => {
    const { port } = await wsApp()
    const bad = await exchange(port, upgrade(`Sec-WebSocket-Key: ${KEY}\r\nSec-WebSocket-Version: 99\r\n`))
    expect(bad.head).to.match(/\r\nSec-WebSocket-Version: 13, 8(\r\n|$)/)
  })

  it('a wsClientError listener the application adds answers instead (Enclave\'s stays out)', async () => {
    const { app, port } = await wsApp()
    const wss = (app as unknown as { websocketServer: WebSocketServer }).websocketServer
    wss.on('wsClientError', (_error, socket) => { socket.end('HTTP/1.1 418 I\'m a Teapot\r\nConnection: close\r\nContent-Length: 0\r\n\r\n') })
    const bad = await exchange(port, upgrade('Sec-WebSocket-Version: 13\r\n'))
    expect(bad.head.split('\r\n')[0]).to.equal('HTTP/1.1 418 I\'m a Teapot')
    expect(bad.body).to.equal('')
  })
})
