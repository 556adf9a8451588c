// A reply written before the request's body has arrived (a 414, a 401 from a guard, a GET with
// a body nobody reads): a chunked or over-limit body is not drained but the connection closed,
// and a timeout later in that body never earns the client a second, unsolicited response.
// Short limits keep the tests short; every wait is bounded, no assertion is about time.
import { expect } from 'chai'
import type { Scope, ServerOptions } from '../../src/runtime'
import { expectErrorShape, listening, rawClient, sleep } from './helpers'

const CHUNKED_HEAD = (method: string, path: string): string =>
  `${method} ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`

describe('hardening: replies written before the body is read', () => {
  it('a 414 (maxQueryKeys) before a trickled chunked body closes the connection, with no second response', async () => {
    const { address } = await listening((root) => { root.post('/any', async () => 'ok') }, { maxQueryKeys: 3, requestTimeout: 1000, headersTimeout: 500 })
    const client = await rawClient(address)
    client.write(CHUNKED_HEAD('POST', '/any?a=1&b=1&c=1&d=1'))
    client.write('1\r\n \r\n')
    const res = await client.next()
    expect(res.status).to.equal(414)
    expect(res.headers.connection).to.equal('close')
    expect(expectErrorShape(res.body, 414).code).to.equal('ENC_ERR_QUERY_TOO_MANY_KEYS')
    for (let i = 0; i < 30 && !client.isClosed; i++) { client.write('1\r\n \r\n'); await sleep(20) }
    await client.waitClosed(3000)
    expect(client.pending).to.equal('')
  })

  // Each answers before its chunked body has arrived; the next body chunk must not be waited for.
  const answeredEarly: Array<[string, (root: Scope) => void, ServerOptions, string, number]> = [
    ['a 414 (maxParamLength) before a chunked body closes the connection',
      (root) => { root.post('/p/:id', async () => 'ok') }, { maxParamLength: 5 }, CHUNKED_HEAD('POST', '/p/abcdefgh'), 414],
    ['a 401 from an onRequest hook before a chunked body closes the connection', (root) => {
      root.addHook('onRequest', async (_req, reply) => { reply.code(401).send({ denied: true }) })
      root.post('/guarded', async () => 'ok')
    }, {}, CHUNKED_HEAD('POST', '/guarded'), 401],
    ['a GET with an unfinished chunked body is answered and closed',
      (root) => { root.get('/raw', async () => ({ ok: true })) }, {}, CHUNKED_HEAD('GET', '/raw'), 200],
  ]
  for (const [title, declare, options, head, status] of answeredEarly) {
    it(title, async () => {
      const { address } = await listening(declare, options)
      const client = await rawClient(address)
      client.write(head + '1\r\n \r\n')
      const res = await client.next()
      expect(res.status).to.equal(status)
      expect(res.headers.connection).to.equal('close')
      await client.waitClosed(3000)
    })
  }

  it('a GET with an unfinished body over bodyLimit is answered and closed', async () => {
    const { address } = await listening((root) => { root.get('/raw', async () => ({ ok: true })) }, { bodyLimit: 10 })
    const client = await rawClient(address)
    client.write('GET /raw HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nabc')
    const res = await client.next()
    expect(res.headers.connection).to.equal('close')
    await client.waitClosed(3000)
  })

  it('a GET with a small sized body keeps the connection: the body is drained and the next request served', async () => {
    const { address } = await listening((root) => { root.get('/raw', async () => ({ ok: true })) })
    const client = await rawClient(address)
    client.write('GET /raw HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nab')
    const first = await client.next()
    expect(first.status).to.equal(200)
    expect(first.headers.connection).to.equal('keep-alive')
    client.write('cdGET /raw HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    expect((await client.next()).status).to.equal(200)
    await client.waitClosed(3000)
  })

  it('a request timeout in a small body left unsent after the answer closes without a second response', async () => {
    const { address } = await listening((root) => { root.get('/raw', async () => ({ ok: true })) }, { headersTimeout: 200, requestTimeout: 300 })
    const client = await rawClient(address)
    client.write('GET /raw HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\nab')
    const res = await client.next()
    expect(res.status).to.equal(200)
    expect(res.headers.connection).to.equal('keep-alive')
    await client.waitClosed(4000)
    expect(client.pending).to.equal('')
  })
})
