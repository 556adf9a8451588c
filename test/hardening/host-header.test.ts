// RFC 9112 §3.2: a server MUST answer 400 to a request with more than one Host line or a Host
// value that is no host[:port]. Node keeps the first of two Host lines; a proxy in front may
// keep the other, so one request means two hosts (cache poisoning, links built from hostname).
import { expect } from 'chai'
import { expectErrorShape, listening, rawRequest, server } from './helpers'

describe('hardening: the Host header (RFC 9112 §3.2)', () => {
  const refused: ReadonlyArray<readonly [string, string]> = [
    ['two Host lines', 'GET /h HTTP/1.1\r\nHost: a.example\r\nHost: evil.example\r\n\r\n'],
    ['two Host lines apart, on HTTP/1.0', 'GET /h HTTP/1.0\r\nHost: a.example\r\nAccept: */*\r\nhost: evil.example\r\n\r\n'],
    ['a path in the value', 'GET /h HTTP/1.1\r\nHost: evil.example/x?y\r\n\r\n'],
    ['a space in the value', 'GET /h HTTP/1.1\r\nHost: a b\r\n\r\n'],
    ['userinfo in the value', 'GET /h HTTP/1.1\r\nHost: user@a.example\r\n\r\n'],
    ['raw non-ASCII bytes (not punycode)', 'GET /h HTTP/1.1\r\nHost: b\xc3\xbccher.example\r\n\r\n'],
    ['a port that is not digits', 'GET /h HTTP/1.1\r\nHost: a.example:80a\r\n\r\n'],
  ]
  for (const [label, text] of refused) {
    it(`${label}: 400 ENC_ERR_REQUEST_BAD_HOST, the connection closed, no hook or handler run`, async () => {
      let ran = 0
      const { address } = await listening((root) => {
        root.addHook('onRequest', async () => { ran++ })
        root.get('/h', async () => { ran++; return {} })
      })
      const res = await rawRequest(address, Buffer.from(text, 'latin1'))
      expect(res.status).to.equal(400)
      expect(res.headers.connection).to.equal('close')
      expect(expectErrorShape(res.body, 400).code).to.equal('ENC_ERR_REQUEST_BAD_HOST')
      expect(ran).to.equal(0)
    })
  }

  const accepted: ReadonlyArray<readonly [string, string]> = [
    ['a name with a port', 'shop.example:8080'],
    ['an IPv6 literal with a port', '[::1]:3000'],
    ['an IPv6 link-local literal with its zone (RFC 6874) and a port', '[fe80::1%25eth0]:3000'],
    ['an IPv4 address', '127.0.0.1'],
    ['punycode', 'xn--bcher-kva.example'],
    ['underscores and an empty port', 'my_service.internal:'],
    ['an empty value (a target without authority)', ''],
  ]
  for (const [label, host] of accepted) {
    it(`${label} (${JSON.stringify(host)}) is served, hostname as sent`, async () => {
      const { address } = await listening((root) => { root.get('/h', async (request) => ({ hostname: request.hostname })) })
      const res = await rawRequest(address, `GET /h HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)
      expect(res.status).to.equal(200)
      expect(JSON.parse(res.body)).to.deep.equal({ hostname: host })
    })
  }

  it('inject() with a bad host header gets the same 400', async () => {
    const app = server()
    app.get('/h', async () => ({}))
    const res = await app.inject({ url: '/h', headers: { host: 'a.example/evil' } })
    expect(res.statusCode).to.equal(400)
    expect(expectErrorShape(res.body, 400).code).to.equal('ENC_ERR_REQUEST_BAD_HOST')
  })
})
