// leftovers §3: past maxRequestsPerSocket, Node itself drops the request with a bare 503 (it emits
// 'dropRequest' with no response object, then writes the 503 itself), before any Enclave code runs.
// Fastify 3.27.4 hands the option to Node the same way (lib/server.js), so this is parity; the test
// pins it against Fastify 3.27.4 itself and the README documents it ("Limits and timeouts").
import { expect } from 'chai'
import type { AddressInfo } from 'node:net'
import { listening, rawClient, type RawResponse } from '../hardening/helpers'

const request = 'GET /x HTTP/1.1\r\nHost: x\r\n\r\n'

/** Three pipelined requests on one connection whose limit is 2: what each answer is. */
async function threePipelined(address: string): Promise<RawResponse[]> {
  const client = await rawClient(address)
  client.write(request + request + request)
  const answers = [await client.next(), await client.next(), await client.next()]
  client.destroy()
  return answers
}

const shape = (r: RawResponse) => ({ status: r.status, connection: r.headers.connection, type: r.headers['content-type'], body: r.body })
/** Everything but the date. */
const whole = (r: RawResponse) => ({ status: r.status, headers: { ...r.headers, date: undefined }, body: r.body })

describe('maxRequestsPerSocket: the request past the limit gets Node\'s bare 503, as in Fastify 3.27.4 (leftovers §3)', () => {
  it('answers the limit\'s last request with Connection: close, and one pipelined past it with an empty 503 (no JSON body)', async () => {
    const { app, address } = await listening((root) => { root.get('/x', async () => ({ ok: true })) }, { maxRequestsPerSocket: 2 })
    try {
      const [first, last, dropped] = await threePipelined(address)
      expect([first.status, first.headers.connection, last.status, last.headers.connection]).to.deep.equal([200, 'keep-alive', 200, 'close'])
      expect(shape(dropped)).to.deep.equal({ status: 503, connection: 'close', type: undefined, body: '' })
    } finally { await app.close() }
  })

  it('is exactly what Fastify 3.27.4 answers on the same connection', async () => {
    const fastify = require('fastify3')({ logger: false, maxRequestsPerSocket: 2 })
    fastify.get('/x', async () => ({ ok: true }))
    await fastify.listen(0, '127.0.0.1')
    const { app, address } = await listening((root) => { root.get('/x', async () => ({ ok: true })) }, { maxRequestsPerSocket: 2 })
    try {
      const reference = await threePipelined(`http://127.0.0.1:${(fastify.server.address() as AddressInfo).port}`)
      const ours = await threePipelined(address)
      expect(ours.map(whole)).to.deep.equal(reference.map(whole))
    } finally {
      await fastify.close()
      await app.close()
    }
  })
})
