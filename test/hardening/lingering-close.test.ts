// An error answered while the client is still sending its request (a 413 on the declared
// length, a malformed head followed by a large body): the connection is closed, but only after
// the client has had the chance to read the answer. Destroying the socket at once made the
// kernel reset the connection under the bytes still arriving, and about half the time the reset
// reached the client before the answer (found by the fuzz8 generative fuzzer).
import { expect } from 'chai'
import { connect } from 'node:net'
import { expectErrorShape, listening, rawClient, sleep, within, type RawClient, type RawResponse } from './helpers'
import type { Scope } from '../../src/runtime'

const BIG = 4 * 1024 * 1024
const ROUNDS = 6

/**
 * A client busy sending that reads its answer only a moment later (as one that writes the whole
 * upload before it reads): the answer waits in its kernel buffer, where a reset would discard it.
 */
async function slowReader(address: string): Promise<RawClient> {
  const client = await rawClient(address)
  client.socket.pause()
  return client
}
async function readLater(client: RawClient): Promise<RawResponse> {
  await sleep(300)
  client.socket.resume()
  return client.next()
}

describe('hardening: an error answered mid-upload reaches the client still sending (lingering close)', function () {
  this.timeout(30_000)
  let handled: string[]
  const routes = (root: Scope): void => {
    root.post('/upload', async () => { handled.push('POST /upload'); return { ok: true } })
    root.get('/secret', async () => { handled.push('GET /secret'); return { secret: true } })
  }
  beforeEach(() => { handled = [] })

  it(`a 413 on a declared length over bodyLimit, the ${BIG}-byte body written at once: the client reads the 413, every time`, async () => {
    const { address } = await listening(routes, { bodyLimit: 1024 })
    for (let round = 0; round < ROUNDS; round++) {
      const client = await slowReader(address)
      client.write(`POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${BIG}\r\n\r\n`)
      client.write(Buffer.alloc(BIG, 0x20))
      const response = await readLater(client)
      expect(response.status, `round ${round}`).to.equal(413)
      expect(response.headers.connection).to.equal('close')
      expect(expectErrorShape(response.body, 413).code).to.equal('ENC_ERR_CTP_BODY_TOO_LARGE')
      await client.waitClosed()
    }
    expect(handled).to.deep.equal([])
  })

  it('a head Node cannot parse followed by a large body: the client reads the 400, every time', async () => {
    const { address } = await listening(routes)
    for (let round = 0; round < ROUNDS; round++) {
      const client = await slowReader(address)
      client.write(`POST /upload HTTP/1.1\r\nHost: x\r\nNo colon here\r\nContent-Length: ${BIG}\r\n\r\n`)
      client.write(Buffer.alloc(BIG, 0x20))
      const response = await readLater(client)
      expect(response.status, `round ${round}`).to.equal(400)
      expect(expectErrorShape(response.body, 400).code).to.equal('ENC_ERR_REQUEST_MALFORMED')
      await client.waitClosed()
    }
  })

  for (const [label, head, status, code] of [
    ['two Host headers', `POST /upload HTTP/1.1\r\nHost: x\r\nHost: evil\r\nContent-Type: application/json\r\nContent-Length: ${BIG}\r\n\r\n`, 400, 'ENC_ERR_REQUEST_BAD_HOST'],
    ['an Expect other than 100-continue', `POST /upload HTTP/1.1\r\nHost: x\r\nExpect: x\r\nContent-Type: application/json\r\nContent-Length: ${BIG - 16}\r\n\r\n`, 417, 'ENC_ERR_REQUEST_EXPECTATION_FAILED'],
    ['a transfer coding other than chunked', `POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\n\r\n${(BIG - 16).toString(16)}\r\n`, 501, 'ENC_ERR_REQUEST_TRANSFER_CODING'],
  ] as const) {
    it(`a head refused before routing (${label}), a large body behind it: the client reads the ${status}, every time`, async () => {
      const { address } = await listening(routes)
      for (let round = 0; round < ROUNDS; round++) {
        const client = await slowReader(address)
        client.write(head)
        client.write(Buffer.alloc(BIG - 16, 0x20))
        const response = await readLater(client)
        expect(response.status, `round ${round}`).to.equal(status)
        expect(expectErrorShape(response.body, status).code).to.equal(code)
        await client.waitClosed()
      }
      expect(handled).to.deep.equal([])
    })
  }

  it('what arrives while the connection lingers is discarded: a request hidden in it is never run', async () => {
    const { address } = await listening(routes, { bodyLimit: 1024 })
    const client = await rawClient(address)
    // The declared body is short; what follows it would be the next request on a kept connection.
    client.write('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2048\r\n\r\n')
    const response = await client.next()
    expect(response.status).to.equal(413)
    client.write(`${' '.repeat(2048)}GET /secret HTTP/1.1\r\nHost: x\r\n\r\n`)
    await client.waitClosed()
    expect(client.pending).to.equal('')
    expect(handled).to.deep.equal([])
  })

  it('a client that keeps its side open and never sends the rest still has the connection closed (the linger is bounded)', async () => {
    const { app, address } = await listening(routes, { bodyLimit: 1024 })
    const { port } = new URL(address)
    // allowHalfOpen: the client does not answer the server's FIN with its own.
    const socket = connect({ host: '127.0.0.1', port: Number(port), allowHalfOpen: true })
    socket.on('error', () => undefined)
    let received = ''
    socket.on('data', (chunk: Buffer) => { received += chunk.toString('latin1') })
    const ended = new Promise<void>((resolve) => socket.once('end', () => resolve()))
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
    socket.write('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n')
    await within(ended, 5_000, 'the answer and the FIN')
    expect(received).to.match(/^HTTP\/1\.1 413 /)
    // The server's side of the connection goes away on its own.
    const count = (): Promise<number> => new Promise((resolve, reject) => app.server.getConnections((error, n) => (error ? reject(error) : resolve(n))))
    await within((async () => { while (await count() > 0) await sleep(50) })(), 10_000, 'the server closing the lingering connection')
    socket.destroy()
    await closed
  })
})
