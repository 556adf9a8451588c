// The server's request class builds raw.headers more cheaply than Node's getter (server/incoming-message.ts):
// request.headers must be exactly what Node's own getter gives for the same bytes, key order and
// repeated names included, and the very object request.raw.headers answers, as in Fastify 3.
import { createServer as createNodeServer, IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect } from 'chai'
import type { Request } from '../../src/runtime'
import { headersBuiltHere } from '../../src/runtime/server/incoming-message'
import { build, rawRequest } from './helpers'

/** What node:http's own getter makes of each request: its headers as [name, value] entries, in order. */
async function nodeHeaders(texts: readonly string[]): Promise<string[]> {
  const seen: string[] = []
  const server = createNodeServer((req: IncomingMessage, res) => {
    res.setHeader('connection', 'close')
    res.end(JSON.stringify(Object.entries(req.headers)))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  try {
    for (const text of texts) seen.push((await rawRequest(address, text)).body)
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
  return seen
}

const head = (lines: readonly string[]): string => `GET /h HTTP/1.1\r\n${lines.join('\r\n')}\r\nConnection: close\r\n\r\n`

// Lists without a repeated name (built by Enclave) and with one (handed to Node's rules).
const LISTS: readonly string[][] = [
  ['Host: a.test'],
  ['Host: a.test', 'User-Agent: UA', 'Accept: */*', 'X-Mixed-Case: 1', 'x-lower: 2', 'ACCEPT-LANGUAGE: en', 'Set-Cookie: a=1'],
  ['host: a.test', ...Array.from({ length: 40 }, (_, i) => `x-header-${i}: value ${i}`)],
  ['Host: a.test', 'User-Agent: one', 'user-agent: two'],
  ['Host: a.test', 'Accept: a', 'accept: b', 'Cookie: a=1', 'cookie: b=2', 'X-Dup: 1', 'X-DUP: 2'],
  ['Host: a.test', 'Set-Cookie: a=1', 'set-cookie: b=2', 'Authorization: one', 'Authorization: two', 'Content-Type: text/plain', 'content-type: x/y'],
  ['Host: a.test', 'Constructor: c', 'toString: t', '__proto__: p', 'hasOwnProperty: h'],
  ['Host: a.test', 'Empty:', 'x-after-empty: 1'],
  // The five names lower-cased to constants (incoming-message.ts), as clients spell them, and spelt otherwise.
  ['Host: a.test', 'User-Agent: curl/8.5.0', 'Accept: */*', 'Content-Type: application/json', 'Content-Length: 0'],
  ['host: a.test', 'user-agent: ua', 'accept: */*', 'content-type: text/plain', 'content-length: 0'],
  ['HOST: a.test', 'USER-AGENT: ua', 'ACCEPT: */*', 'Content-type: text/plain', 'CONTENT-LENGTH: 0', 'Hosts: b', 'Accepts: c'],
  ['Host: a.test', 'Accept: a', 'ACCEPT: b', 'User-Agent: one', 'USER-AGENT: two'],
]

describe('request.headers built by Enclave (server/incoming-message.ts)', () => {
  it('is built by Enclave on this Node: request.raw is an IncomingMessage of a subclass named as Node\'s (so the tests below test that path)', async () => {
    expect(headersBuiltHere()).to.equal(true)
    const app = await build((root) => {
      root.get('/h', async (request: Request) => ({
        instance: request.raw instanceof IncomingMessage,
        nodeClass: request.raw.constructor === IncomingMessage,
        name: request.raw.constructor.name,
      }))
    })
    const address = await app.listen(0)
    try {
      const res = await rawRequest(address, head(['Host: a.test']))
      expect(JSON.parse(res.body)).to.deep.equal({ instance: true, nodeClass: false, name: 'IncomingMessage' })
    } finally {
      await app.close()
    }
  })

  it('equals what node:http\'s own getter makes of the same request, key order and repeated names included', async () => {
    const app = await build((root) => {
      root.get('/h', async (request: Request) => Object.entries(request.headers))
    })
    const address = await app.listen(0)
    try {
      const texts = LISTS.map(head)
      const expected = await nodeHeaders(texts)
      for (let i = 0; i < texts.length; i++) {
        const res = await rawRequest(address, texts[i])
        expect(res.status, LISTS[i].join(' | ')).to.equal(200)
        expect(JSON.parse(res.body), LISTS[i].join(' | ')).to.deep.equal(JSON.parse(expected[i]))
      }
    } finally {
      await app.close()
    }
  })

  it('is the same on a POST, where the body check reads the headers first, and with requestIdHeader, where the request id does', async () => {
    const app = await build((root) => {
      root.post('/h', async (request: Request) => ({ id: request.id, headers: Object.entries(request.headers) }))
    }, { requestIdHeader: 'X-Request-Id' })
    const address = await app.listen(0)
    try {
      const body = '{"a":1}'
      const text = `POST /h HTTP/1.1\r\nHost: a.test\r\nContent-Type: application/json\r\nX-Request-Id: abc-1\r\nX-Mixed: 1\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`
      const [expected] = await nodeHeaders([text])
      const res = await rawRequest(address, text)
      expect(JSON.parse(res.body)).to.deep.equal({ id: 'abc-1', headers: JSON.parse(expected) })
    } finally {
      await app.close()
    }
  })

  it('is the object request.raw.headers answers, whichever is read first, with a headers schema\'s coercion showing through both', async () => {
    const app = await build((root) => {
      const schema = { headers: { type: 'object', properties: { 'x-n': { type: 'integer' } }, required: ['x-n'] } }
      root.get('/h', { schema }, async (request: Request) => ({ same: request.headers === request.raw.headers, n: request.raw.headers['x-n'] }))
      root.get('/raw-first', async (request: Request) => {
        const raw = request.raw.headers
        return { same: request.headers === raw, tenant: request.headers['x-tenant'] }
      })
    })
    const address = await app.listen(0)
    try {
      const coerced = await rawRequest(address, head(['Host: a.test', 'X-N: 5']))
      expect(JSON.parse(coerced.body)).to.deep.equal({ same: true, n: 5 })
      const rawFirst = await rawRequest(address, head(['Host: a.test', 'X-Tenant: acme']).replace('/h', '/raw-first'))
      expect(JSON.parse(rawFirst.body)).to.deep.equal({ same: true, tenant: 'acme' })
    } finally {
      await app.close()
    }
  })

  it('inject() requests keep their own header object (no Node message behind them)', async () => {
    const app = await build((root) => {
      root.get('/h', async (request: Request) => ({ same: request.headers === request.raw.headers, tenant: request.headers['x-tenant'] }))
    })
    const res = await app.inject({ method: 'GET', url: '/h', headers: { 'X-Tenant': 'acme' } })
    expect(res.json()).to.deep.equal({ same: true, tenant: 'acme' })
    await app.close()
  })
})
