// Connections that never send a byte. Node's headersTimeout runs from the moment a connection is
// accepted, but it is checked only every connectionsCheckingInterval (Node's default 30 s, which
// Fastify 3.27.4 and 5 keep: 1,000 silent connections were all still open 8 s past a 1 s
// headersTimeout there). Enclave checks a quarter of the timeout apart (server/node-server.ts), so
// a connection that has sent nothing is answered the JSON 408 or closed soon after headersTimeout,
// and a client cannot pin descriptors by opening connections and keeping quiet. Pinned here.
// Small limits (300 ms) keep the tests short; every wait is bounded; nothing asserts a duration.
import { readdirSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { expect } from 'chai'
import { listening, sleep, within } from './helpers'
import type { Scope } from '../../src/runtime'

const openFds = (): number => readdirSync('/proc/self/fd').length

function open(address: string): { socket: Socket; closed: Promise<void>; received: () => string; isClosed: () => boolean } {
  const socket = connect({ host: '127.0.0.1', port: Number(new URL(address).port) })
  let text = ''
  let closed = false
  socket.setEncoding('latin1')
  // Read, so that the server's close is seen ('end', then 'close').
  socket.on('data', (chunk: string) => { text += chunk })
  socket.on('error', () => undefined)
  return { socket, closed: new Promise((resolve) => socket.once('close', () => { closed = true; resolve() })), received: () => text, isClosed: () => closed }
}

async function app(headersTimeout: number): Promise<{ app: Scope; address: string }> {
  return listening((root) => {
    root.get('/x', async () => ({ ok: true }))
    root.get('/slow', async () => { await sleep(900); return { slow: true } })
  }, { headersTimeout, requestTimeout: 5_000, keepAliveTimeout: 5_000 })
}

describe('hardening: connections that never send a byte', function () {
  this.timeout(15_000)

  it('300 connections that send nothing are closed (or answered the JSON 408) soon after headersTimeout; descriptors come back; a plain GET is served meanwhile', async () => {
    const before = openFds()
    const { app: server, address } = await app(300)
    const conns = Array.from({ length: 300 }, () => open(address))
    try {
      const plain = open(address)
      plain.socket.write('GET /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
      await within(plain.closed, 5_000, 'a plain GET')
      expect(plain.received()).to.match(/^HTTP\/1\.1 200 /)
      await within(Promise.all(conns.map((c) => c.closed)), 10_000, 'the server to close every silent connection')
      // Node's timeout answers the JSON 408 where it still can, else the connection just closes.
      for (const c of conns) expect(c.received()).to.match(/^$|^HTTP\/1\.1 408 [\s\S]*"code":"ENC_ERR_REQUEST_TIMEOUT"/)
    } finally {
      for (const c of conns) c.socket.destroy()
    }
    await server.close()
    expect(openFds()).to.be.at.most(before)
  })

  it('a connection that speaks before the timeout is served, and is not cut while its handler runs past headersTimeout', async () => {
    const { app: server, address } = await app(300)
    const late = open(address)
    await sleep(100)
    late.socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n')
    await sleep(1_200)
    expect(late.isClosed(), 'closed').to.equal(false)
    expect(late.received()).to.match(/^HTTP\/1\.1 200 [\s\S]*\{"slow":true\}$/)
    late.socket.destroy()
    await server.close()
  })

  it('headersTimeout: 0 leaves silent connections open (Node\'s and Fastify 3\'s behaviour)', async () => {
    const { app: server, address } = await app(0)
    const conn = open(address)
    await sleep(700)
    expect(conn.isClosed()).to.equal(false)
    conn.socket.destroy()
    await server.close()
  })
})
