// @fastify/rate-limit (docs/plugins.md) against clients that play with its key. With the default
// options (trustProxy off) the key is the socket's address, so rotating X-Forwarded-For,
// X-Real-IP or Forwarded on every request, or spreading requests over HTTP/2 streams and sessions
// (h2c and TLS), never buys a request past `max`. A keyGenerator reading a header gets keys named
// __proto__, constructor, toString or nothing: each is its own bucket, counted like any other,
// and Object.prototype is left alone. The HTTP/1.1 sequences are Fastify 5's, status for status.
import { connect as http2Connect, type ClientHttp2Session } from 'node:http2'
import { expect } from 'chai'
import rateLimit from '@fastify/rate-limit'
import type { Scope, ServerOptions } from '../../src/runtime'
import { server } from '../support/servers'
import { RawClient, within } from '../support/raw-http'
import { tlsCert, tlsKey } from '../support/tls'
import { fastify5Reference } from './fastify5-reference'

type Loose = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const MAX = 3

async function declare(app: Loose): Promise<void> {
  app.register(async (s: Loose) => {
    await s.register(rateLimit, { max: MAX, timeWindow: 60_000 })
    s.get('/ip', async (request: Loose) => ({ ip: request.ip }))
  }, { prefix: '/by-ip' })
  app.register(async (s: Loose) => {
    await s.register(rateLimit, { max: MAX, timeWindow: 60_000, keyGenerator: (request: Loose) => String(request.headers['x-key']) })
    s.get('/k', async () => ({ ok: true }))
  }, { prefix: '/by-key' })
}

async function listen(app: Loose): Promise<string> {
  await declare(app)
  return await (app as Scope).listen({ port: 0, host: '127.0.0.1' })
}

async function statusOf(address: string, path: string, headers: string): Promise<number> {
  const client = new RawClient(address)
  client.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${headers}\r\n`)
  try {
    return (await client.next(10_000)).status
  } finally {
    client.destroy()
  }
}

/** Eight requests to /by-ip/ip, each from a different claimed client address. */
const rotating = (i: number): string => `X-Forwarded-For: 203.0.113.${i}\r\nX-Real-IP: 198.51.100.${i}\r\nForwarded: for=192.0.2.${i}\r\n`

function h2Status(session: ClientHttp2Session, headers: Record<string, string>): Promise<number> {
  return within(new Promise<number>((resolve) => {
    const stream = session.request({ ':path': '/by-ip/ip', ...headers })
    let status = 0
    stream.on('response', (h) => { status = Number(h[':status']) })
    stream.on('error', () => undefined)
    stream.on('close', () => resolve(status))
    stream.resume()
    stream.end()
  }), 10_000, 'an HTTP/2 answer')
}

describe('hardening: rate-limit key games', () => {
  const fastify = fastify5Reference(listen)

  it(`rotating X-Forwarded-For, X-Real-IP and Forwarded on every request (trustProxy off): ${MAX} answered, then 429, as on Fastify 5`, async () => {
    const enclave = await listen(server())
    const expected = [...Array<number>(MAX).fill(200), ...Array<number>(8 - MAX).fill(429)]
    for (const [name, address] of [['Enclave', enclave], ['Fastify 5', fastify()]]) {
      const statuses: number[] = []
      for (let i = 0; i < 8; i++) statuses.push(await statusOf(address, '/by-ip/ip', rotating(i)))
      expect(statuses, name).to.deep.equal(expected)
    }
  })

  for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
    it(`a keyGenerator key named ${key}: its own bucket, ${MAX} answered then 429, as on Fastify 5; other keys untouched, Object.prototype too`, async () => {
      const enclave = await listen(server())
      for (const [name, address] of [['Enclave', enclave], ['Fastify 5', fastify()]]) {
        const statuses: number[] = []
        for (let i = 0; i < MAX + 2; i++) statuses.push(await statusOf(address, '/by-key/k', `X-Key: ${key}\r\n`))
        expect(statuses, name).to.deep.equal([...Array<number>(MAX).fill(200), 429, 429])
        expect(await statusOf(address, '/by-key/k', `X-Key: ${key}-not\r\n`), `${name}: another key`).to.equal(200)
      }
      expect(Object.keys(Object.prototype)).to.deep.equal([])
      expect(({} as Record<string, unknown>).current).to.equal(undefined)
    })
  }

  for (const [transport, options] of [['h2c', { http2: true }], ['HTTP/2 over TLS', { http2: true, https: { key: tlsKey, cert: tlsCert } }]] as const) {
    it(`over ${transport}: streams of one session and three fresh sessions, each claiming another address, share the socket's bucket (${MAX}, then 429)`, async () => {
      const app = server(options as ServerOptions)
      const address = await listen(app)
      const connectOptions = transport === 'h2c' ? {} : { ca: tlsCert, servername: 'localhost' }
      const sessions = Array.from({ length: 4 }, () => http2Connect(address, connectOptions))
      try {
        const first = await Promise.all(Array.from({ length: 6 }, (_, i) => h2Status(sessions[0], { 'x-forwarded-for': `203.0.113.${i}` })))
        expect([...first].sort()).to.deep.equal([...Array<number>(MAX).fill(200), ...Array<number>(6 - MAX).fill(429)])
        const others = await Promise.all(sessions.slice(1).map((session, i) => h2Status(session, { 'x-forwarded-for': `198.51.100.${i}`, forwarded: `for=192.0.2.${i}` })))
        expect(others).to.deep.equal([429, 429, 429])
      } finally {
        for (const session of sessions) session.destroy()
      }
    })
  }
})
