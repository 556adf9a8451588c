// Node frames a body by a final `chunked` and passes any transfer coding before it (gzip, chunked)
// on undecoded: the body would be read as if plain. RFC 9112 §6.1: a transfer coding the server
// does not understand SHOULD be a 501.
import { expect } from 'chai'
import { expectErrorShape, listening, rawRequest } from './helpers'

describe('hardening: Transfer-Encoding other than chunked', () => {
  const body = '2\r\n{}\r\n0\r\n\r\n'
  const refused: ReadonlyArray<readonly [string, string]> = [
    ['gzip, chunked on one line', 'Transfer-Encoding: gzip, chunked\r\n'],
    ['gzip then chunked on two lines', 'Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n'],
    ['an unknown coding before chunked', 'Transfer-Encoding: x-custom , chunked\r\n'],
  ]
  for (const [label, lines] of refused) {
    it(`${label}: 501 ENC_ERR_REQUEST_TRANSFER_CODING, the connection closed, no hook or handler run`, async () => {
      let ran = 0
      const { address } = await listening((root) => {
        root.addHook('onRequest', async () => { ran++ })
        root.post('/x', async () => { ran++; return {} })
      })
      const res = await rawRequest(address, `POST /x HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${lines}\r\n${body}`)
      expect(res.status).to.equal(501)
      expect(res.headers.connection).to.equal('close')
      expect(expectErrorShape(res.body, 501).code).to.equal('ENC_ERR_REQUEST_TRANSFER_CODING')
      expect(ran).to.equal(0)
    })
  }

  it('chunked alone, in any case and with spaces around it, is read as before', async () => {
    const { address } = await listening((root) => { root.post('/x', async (request) => request.body) })
    for (const value of ['chunked', 'Chunked', ' CHUNKED ']) {
      const res = await rawRequest(address, `POST /x HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: ${value}\r\nConnection: close\r\n\r\n2\r\n{}\r\n0\r\n\r\n`)
      expect(res.status, value).to.equal(200)
      expect(JSON.parse(res.body), value).to.deep.equal({})
    }
  })
})
