// Framing shapes a reverse proxy in front may read differently from Node (request smuggling and
// desync): Transfer-Encoding folded, listed or repeated, chunk sizes and extensions with bare LF
// or odd digits, trailers that try to reframe, Content-Length spellings. Enclave answers what
// Node's parser decides, and each shape is also sent to a bare node:http server so that a Node
// upgrade that changes a decision shows up here as a table to revisit. Refused: one JSON 400 and a
// closed connection, the request hidden behind never run. Accepted: the request and the one
// pipelined behind it are both answered, in order, on a connection that stays open.
// (Content-Length with Transfer-Encoding, two Content-Lengths, a malformed chunk size and a
// Transfer-Encoding other than chunked are in parser-errors.test.ts and transfer-coding.test.ts.)
import { createServer as createNodeServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect } from 'chai'
import { expectErrorShape, listening, RawClient, type RawResponse } from './helpers'
import { within } from '../support/raw-http'

const HIDDEN = 'GET /hidden HTTP/1.1\r\nHost: x\r\n\r\n'
const PROBE = 'GET /probe HTTP/1.1\r\nHost: x\r\n\r\n'
const post = (headers: string, body: string, after: string): string =>
  `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n${headers}\r\n${body}${after}`

const refused: ReadonlyArray<readonly [string, string]> = [
  ['Transfer-Encoding folded onto the next line (obs-fold), beside a Content-Length', post('Transfer-Encoding:\r\n chunked\r\nContent-Length: 3\r\n', '0\r\n\r\n', HIDDEN)],
  ['Transfer-Encoding folded after another value', post('Transfer-Encoding: x\r\n chunked\r\n', '0\r\n\r\n', HIDDEN)],
  ['Transfer-Encoding: chunked, identity (chunked not last)', post('Transfer-Encoding: chunked, identity\r\n', '3\r\nabc\r\n0\r\n\r\n', HIDDEN)],
  ['chunked applied twice in one header', post('Transfer-Encoding: chunked, chunked\r\n', '3\r\nabc\r\n0\r\n\r\n', HIDDEN)],
  ['two Transfer-Encoding: chunked headers', post('Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n', '3\r\nabc\r\n0\r\n\r\n', HIDDEN)],
  ['a vertical tab before chunked', post('Transfer-Encoding: \x0bchunked\r\n', '3\r\nabc\r\n0\r\n\r\n', HIDDEN)],
  ['a space between Transfer-Encoding and its colon', post('Transfer-Encoding : chunked\r\nContent-Length: 3\r\n', 'abc', HIDDEN)],
  ['a chunk extension ended by a bare LF', post('Transfer-Encoding: chunked\r\n', '3;foo\nbar\r\nabc\r\n0\r\n\r\n', HIDDEN)],
  ['chunk sizes ended by bare LF', post('Transfer-Encoding: chunked\r\n', '3\nabc\n0\n\n', HIDDEN)],
  ['chunk data ended by a bare CR', post('Transfer-Encoding: chunked\r\n', '3\r\nabc\r0\r\n\r\n', HIDDEN)],
  ['chunk data longer than its size', post('Transfer-Encoding: chunked\r\n', '3\r\nabcdef\r\n0\r\n\r\n', HIDDEN)],
  ['a chunk size that overflows 64 bits', post('Transfer-Encoding: chunked\r\n', '10000000000000003\r\nabc\r\n0\r\n\r\n', HIDDEN)],
  ['a chunk size written 0x3', post('Transfer-Encoding: chunked\r\n', '0x3\r\nabc\r\n0\r\n\r\n', HIDDEN)],
  ['a space after the chunk size', post('Transfer-Encoding: chunked\r\n', '3 \r\nabc\r\n0\r\n\r\n', HIDDEN)],
  ['a Content-Length in the trailer', post('Transfer-Encoding: chunked\r\n', '3\r\nabc\r\n0\r\nContent-Length: 50\r\n\r\n', HIDDEN)],
  ['a Transfer-Encoding in the trailer', post('Transfer-Encoding: chunked\r\n', '3\r\nabc\r\n0\r\nTransfer-Encoding: chunked\r\n\r\n', HIDDEN)],
  ['Content-Length: 3, 3 (a list)', post('Content-Length: 3, 3\r\n', 'abc', HIDDEN)],
  ['Content-Length: +3', post('Content-Length: +3\r\n', 'abc', HIDDEN)],
  ['Content-Length: -3', post('Content-Length: -3\r\n', 'abc', HIDDEN)],
  ['Content-Length: 0x3', post('Content-Length: 0x3\r\n', 'abc', HIDDEN)],
  ['Content-Length: 1 3', post('Content-Length: 1 3\r\n', 'abc', HIDDEN)],
  ['a Content-Length past 2^64', post('Content-Length: 99999999999999999999999\r\n', 'abc', HIDDEN)],
  ['header lines ended by bare LF', 'POST /echo HTTP/1.1\nHost: x\nContent-Type: text/plain\nContent-Length: 3\n\nabc' + HIDDEN],
  ['a bare CR inside the header block', post('X-A: 1\rContent-Length: 3\r\n', 'abc', HIDDEN)],
  ['a NUL in a header value', `GET /probe HTTP/1.1\r\nHost: x\r\nX-A: a\x00b\r\n\r\n${HIDDEN}`],
]

const accepted: ReadonlyArray<readonly [string, string, string]> = [
  ['chunk extensions (quoted values too) are skipped', post('Transfer-Encoding: chunked\r\n', '3;foo=bar;q="x y"\r\nabc\r\n0;last\r\n\r\n', PROBE), 'abc'],
  ['leading zeros in a chunk size', post('Transfer-Encoding: chunked\r\n', '0000003\r\nabc\r\n0\r\n\r\n', PROBE), 'abc'],
  ['a Content-Length with leading zeros', post('Content-Length: 003\r\n', 'abc', PROBE), 'abc'],
  ['a GET whose Content-Length body looks like a request: the body is a body', `GET /probe HTTP/1.1\r\nHost: x\r\nContent-Length: ${HIDDEN.length}\r\n\r\n${HIDDEN}${PROBE}`, ''],
]

/** Everything the server writes on one connection until it closes it or goes quiet; the answers parsed. */
async function exchange(address: string, text: string, expected: number): Promise<{ responses: RawResponse[]; closed: boolean }> {
  const client = new RawClient(address)
  client.write(text)
  const responses: RawResponse[] = []
  // One more than expected, briefly: a second answer to a refused request would show here.
  for (let i = 0; i <= expected; i++) {
    try {
      responses.push(await client.next(i < expected ? 5_000 : 200))
    } catch {
      break
    }
  }
  // A refusal closes; an accepted exchange stays open after its answers.
  const closed = await within(client.closed.then(() => true), 200, 'close').catch(() => false)
  client.destroy()
  return { responses, closed }
}

describe('hardening: desync shapes a proxy may read differently (Enclave follows Node\'s parser)', () => {
  let handled: string[]
  let address: string
  let nodeAddress: string
  let nodeServer: Server
  let nodeHandled: string[]

  before(async () => {
    nodeHandled = []
    nodeServer = createNodeServer((req, res) => { nodeHandled.push(req.url as string); req.resume(); req.on('end', () => res.end('ok')) })
    await new Promise<void>((resolve) => nodeServer.listen(0, '127.0.0.1', resolve))
    nodeAddress = `http://127.0.0.1:${(nodeServer.address() as AddressInfo).port}`
  })
  after(() => { nodeServer.closeAllConnections(); nodeServer.close() })

  beforeEach(async () => {
    handled = []
    nodeHandled = []
    ;({ address } = await listening((root) => {
      root.post('/echo', async (request) => { handled.push('POST /echo'); return { body: request.body } })
      root.get('/probe', async () => { handled.push('GET /probe'); return { probe: true } })
      root.get('/hidden', async () => { handled.push('GET /hidden'); return { hidden: true } })
    }))
  })

  for (const [label, text] of refused) {
    it(`${label}: one 400 ENC_ERR_REQUEST_MALFORMED, the connection closed, the request behind never run`, async () => {
      const node = await exchange(nodeAddress, text, 1)
      expect(node.responses.map((r) => r.status), 'node:http alone refuses it too').to.deep.equal([400])
      const { responses, closed } = await exchange(address, text, 1)
      expect(responses.map((r) => r.status)).to.deep.equal([400])
      expect(expectErrorShape(responses[0].body, 400).code).to.equal('ENC_ERR_REQUEST_MALFORMED')
      expect(closed).to.equal(true)
      expect(handled).to.deep.equal([])
      expect(nodeHandled).to.not.include('/hidden')
    })
  }

  for (const [label, text, body] of accepted) {
    it(`${label}: both requests answered in order on a connection that stays open`, async () => {
      const node = await exchange(nodeAddress, text, 2)
      expect(node.responses.map((r) => r.status), 'node:http alone accepts it too').to.deep.equal([200, 200])
      const { responses, closed } = await exchange(address, text, 2)
      expect(responses.map((r) => r.status)).to.deep.equal([200, 200])
      if (text.startsWith('POST')) expect(JSON.parse(responses[0].body)).to.deep.equal({ body })
      expect(JSON.parse(responses[1].body)).to.deep.equal({ probe: true })
      expect(closed).to.equal(false)
      // Pipelined requests run concurrently (pipelining.test.ts): the handlers in any order, the answers in order.
      expect([...handled].sort()).to.deep.equal([text.startsWith('POST') ? 'POST /echo' : 'GET /probe', 'GET /probe'].sort())
    })
  }
})
