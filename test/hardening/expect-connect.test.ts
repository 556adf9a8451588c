// `Expect` and CONNECT get the JSON error shape (Node answers a bare 417, or closes a CONNECT
// without a word), and a 100-continue body is invited only once it is wanted. Raw sockets:
// the interim `100 Continue` and the connection's fate are wire behaviour. Every wait is bounded.
import { connect } from 'node:net'
import { expect } from 'chai'
import type { Scope, ServerOptions } from '../../src/runtime'
import { expectErrorShape, listening, rawClient, sleep } from './helpers'

const JSON_HEAD = (path: string, length: number, extra = ''): string =>
  `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n${extra}\r\n`

describe('hardening: Expect and CONNECT', () => {
  it('an unknown expectation (Expect: 200-ok) is a JSON 417 ENC_ERR_REQUEST_EXPECTATION_FAILED, and the handler does not run', async () => {
    let ran = false
    const { address } = await listening((root) => { root.post('/any', async () => { ran = true; return 'ok' }) })
    const client = await rawClient(address)
    client.write(JSON_HEAD('/any', 2, 'Expect: 200-ok\r\n'))
    const res = await client.next()
    expect(res.status).to.equal(417)
    expect(expectErrorShape(res.body, 417).code).to.equal('ENC_ERR_REQUEST_EXPECTATION_FAILED')
    expect(res.headers.connection).to.equal('close')
    await client.waitClosed()
    expect(ran).to.equal(false)
  })

  it('a CONNECT request is a JSON 501 ENC_ERR_REQUEST_CONNECT_UNSUPPORTED, then the connection is closed', async () => {
    const { address } = await listening((root) => { root.get('/x', async () => 'x') })
    const client = await rawClient(address)
    client.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n')
    const res = await client.next()
    expect(res.status).to.equal(501)
    expect(expectErrorShape(res.body, 501).code).to.equal('ENC_ERR_REQUEST_CONNECT_UNSUPPORTED')
    await client.waitClosed()
  })

  it('a CONNECT whose client resets the connection at once does not take the process down (the socket Node hands over has no error listener)', async () => {
    const { address } = await listening((root) => { root.get('/x', async () => ({ x: 1 })) })
    const { port } = new URL(address)
    for (let i = 0; i < 30; i++) {
      await new Promise<void>((resolve) => {
        const socket = connect({ host: '127.0.0.1', port: Number(port) }, () => {
          socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n')
          socket.resetAndDestroy()
          resolve()
        })
        socket.on('error', () => undefined)
      })
    }
    await sleep(50)
    const client = await rawClient(address)
    client.write('GET /x HTTP/1.1\r\nHost: x\r\n\r\n')
    expect((await client.next()).status).to.equal(200)
  })

  // Each answer is certain before the body is sent: no `100 Continue`, no body awaited, the connection closed.
  const answeredWithoutBody: Array<[string, (root: Scope) => void, ServerOptions, string, number]> = [
    ['Expect: 100-continue with a declared length over bodyLimit: 413 without inviting the body, connection closed',
      (root) => { root.post('/any', async () => 'ok') }, { bodyLimit: 1000 }, JSON_HEAD('/any', 2_000_000, 'Expect: 100-continue\r\n'), 413],
    ['Expect: 100-continue with an unsupported content type: 415 without inviting the body, connection closed',
      (root) => { root.post('/any', async () => 'ok') }, {},
      'POST /any HTTP/1.1\r\nHost: x\r\nContent-Type: image/png\r\nContent-Length: 10\r\nExpect: 100-continue\r\n\r\n', 415],
    ['Expect: 100-continue refused by an onRequest guard: the body is not invited and the connection is closed', (root) => {
      root.addHook('onRequest', async (_req, reply) => { reply.code(401).send({ denied: true }) })
      root.post('/any', async () => 'ok')
    }, {}, JSON_HEAD('/any', 7, 'Expect: 100-continue\r\n'), 401],
  ]
  for (const [title, declare, options, head, status] of answeredWithoutBody) {
    it(title, async () => {
      const { address } = await listening(declare, options)
      const client = await rawClient(address)
      client.write(head)
      const res = await client.next()
      expect(res.status).to.equal(status)
      expect(res.headers.connection).to.equal('close')
      await client.waitClosed()
      expect(client.pending).to.equal('')
    })
  }

  it('Expect: 100-continue with an acceptable body: 100 Continue, then the body is read and answered, keep-alive', async () => {
    const { address } = await listening((root) => { root.post('/echo', async (req) => ({ body: req.body })) })
    const client = await rawClient(address)
    client.write(JSON_HEAD('/echo', 7, 'Expect: 100-continue\r\n'))
    const interim = await client.next()
    expect(interim.status).to.equal(100)
    client.write('{"a":1}')
    const res = await client.next()
    expect(res.status).to.equal(200)
    expect(JSON.parse(res.body)).to.deep.equal({ body: { a: 1 } })
    expect(res.headers.connection).to.equal('keep-alive')
    // The connection is still good for another request.
    client.write('GET /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    expect((await client.next()).status).to.equal(404)
    await sleep(0)
    client.destroy()
  })
})
