// Thousands of request headers over HTTP/1.1. 1,500 short fields fit in Node's 16 KB header
// limit, so no 431 stops them; Node then keeps only the first 1,000 in request.headers
// (maxHeadersCount, 2,000 raw entries) and drops the rest without a word. llhttp still frames the
// message from every field it read, so a Content-Length or Transfer-Encoding past the cut frames
// the body (it is read and parsed as the body, and the pipelined request behind is answered after
// it, never taken from the body's bytes), a Content-Type past the cut is simply absent (415), and
// a Host past the cut is a missing Host (400). Each answer is Fastify 3.27.4's status; the header
// count is node:http's own, so a Node upgrade that moves the cut shows up here.
import { createServer as createNodeServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect } from 'chai'
import { expectErrorShape, listening, RawClient, type RawResponse } from './helpers'
import { within } from '../support/raw-http'

type Loose = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const FILLER = Array.from({ length: 1500 }, (_, i) => `a${i}: b\r\n`).join('')
const PROBE = 'GET /probe HTTP/1.1\r\nHost: x\r\n\r\n'
const BODY = '{"a":1}'

/** Each shape with what the first answer is, on Enclave and on Fastify 3.27.4 alike. */
const SHAPES: ReadonlyArray<readonly [string, string, number]> = [
  ['a Content-Length past the cut', `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${FILLER}Content-Length: ${BODY.length}\r\n\r\n${BODY}${PROBE}`, 200],
  ['a Transfer-Encoding: chunked past the cut', `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${FILLER}Transfer-Encoding: chunked\r\n\r\n${BODY.length}\r\n${BODY}\r\n0\r\n\r\n${PROBE}`, 200],
  ['a Content-Type past the cut', `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: ${BODY.length}\r\n${FILLER}Content-Type: application/json\r\n\r\n${BODY}${PROBE}`, 415],
]

/**
 * Sends `text` on one connection and takes `count` answers. `then`: 'closed' waits (bounded) for
 * the server to close the connection; 'kept' shows it kept it by getting one more probe answered
 * on it (in `responses`); none, the connection is left as it is.
 */
async function exchange(address: string, text: string, count: number, then?: 'closed' | 'kept'): Promise<{ responses: RawResponse[]; closed: boolean }> {
  const client = new RawClient(address)
  try {
    client.write(text)
    const responses: RawResponse[] = []
    for (let i = 0; i < count; i++) responses.push(await client.next(5_000))
    if (then === 'closed') await within(client.closed, 5_000, 'the server closing the connection')
    if (then === 'kept') {
      client.write(PROBE)
      responses.push(await client.next(5_000))
    }
    return { responses, closed: client.isClosed }
  } finally {
    client.destroy()
  }
}

function declare(app: Loose, handled: string[]): void {
  app.post('/echo', async (request: Loose) => {
    handled.push('POST /echo')
    return { body: request.body, headers: Object.keys(request.headers).length, contentLength: request.headers['content-length'] ?? null }
  })
  app.get('/probe', async () => { handled.push('GET /probe'); return { probe: true } })
}

describe('hardening: thousands of HTTP/1.1 request headers (Node keeps the first 1,000; framing reads them all)', () => {
  let nodeServer: Server
  let nodeAddress: string
  let nodeCount: number
  let fastify: Loose
  let fastifyAddress: string
  let fastifyHandled: string[]

  before(async () => {
    nodeServer = createNodeServer((req, res) => { nodeCount = Object.keys(req.headers).length; req.resume(); req.on('end', () => res.end('ok')) })
    await new Promise<void>((resolve) => nodeServer.listen(0, '127.0.0.1', resolve))
    nodeAddress = `http://127.0.0.1:${(nodeServer.address() as AddressInfo).port}`
    fastifyHandled = []
    // eslint-disable-next-line @typescript-eslint/no-var-requires
    fastify = require('fastify3')({ logger: false }) as Loose
    declare(fastify, fastifyHandled)
    fastifyAddress = await fastify.listen(0, '127.0.0.1') as string
  })
  after(async () => {
    nodeServer.closeAllConnections()
    nodeServer.close()
    await fastify.close()
  })

  it('1,500 headers under the 16 KB limit are served; request.headers holds what node:http keeps (fewer than were sent)', async () => {
    await exchange(nodeAddress, `GET / HTTP/1.1\r\nHost: x\r\n${FILLER}\r\n`, 1)
    expect(nodeCount).to.be.below(1500)
    const handled: string[] = []
    const { address } = await listening((root) => declare(root, handled))
    const { responses } = await exchange(address, `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n${FILLER}\r\n{}`, 1)
    expect(responses[0].status).to.equal(200)
    expect(JSON.parse(responses[0].body).headers).to.equal(nodeCount)
  })

  for (const [label, text, status] of SHAPES) {
    it(`${label}: ${status} as on Fastify 3.27.4, the body read as a body, the pipelined request behind answered once, the connection kept`, async () => {
      const handled: string[] = []
      const { address } = await listening((root) => declare(root, handled))
      const reference = await within(exchange(fastifyAddress, text, 2), 8_000, 'Fastify 3.27.4')
      const ours = await within(exchange(address, text, 2, 'kept'), 8_000, 'Enclave')
      expect(ours.responses.slice(0, 2).map((r) => r.status)).to.deep.equal(reference.responses.map((r) => r.status)).and.deep.equal([status, 200])
      if (status === 200) expect(JSON.parse(ours.responses[0].body)).to.deep.equal({ body: { a: 1 }, headers: nodeCount, contentLength: null })
      else expect(expectErrorShape(ours.responses[0].body, status).code).to.equal('ENC_ERR_CTP_INVALID_MEDIA_TYPE')
      expect(JSON.parse(ours.responses[1].body)).to.deep.equal({ probe: true })
      // The connection kept: a third request on it (one more probe) is answered.
      expect(JSON.parse(ours.responses[2].body)).to.deep.equal({ probe: true })
      expect([...handled].sort()).to.deep.equal((status === 200 ? ['GET /probe', 'GET /probe', 'POST /echo'] : ['GET /probe', 'GET /probe']))
    })
  }

  it('a Host past the cut is a request without Host: 400 ENC_ERR_REQUEST_NO_HOST, closed, nothing run (Fastify 3.27.4: 400, closed)', async () => {
    const text = `GET /probe HTTP/1.1\r\n${FILLER}Host: x\r\n\r\n${PROBE}`
    const handled: string[] = []
    const { address } = await listening((root) => declare(root, handled))
    const reference = await within(exchange(fastifyAddress, text, 1), 8_000, 'Fastify 3.27.4')
    expect(reference.responses[0].status).to.equal(400)
    const ours = await within(exchange(address, text, 1, 'closed'), 8_000, 'Enclave')
    expect(expectErrorShape(ours.responses[0].body, 400).code).to.equal('ENC_ERR_REQUEST_NO_HOST')
    expect(ours.closed).to.equal(true)
    expect(handled).to.deep.equal([])
  })
})
