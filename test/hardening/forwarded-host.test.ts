// X-Forwarded-Host under trustProxy is held to the rule the Host header is (RFC 9112 §3.2,
// host-header.test.ts): a Host that is no host[:port] is a 400, and a forwarded host that is no
// host[:port] (a path, a query, userinfo, a space, a tab, raw non-ASCII bytes, an open bracket) is
// ignored, so request.hostname, request.host and request.port come from the Host instead. Such a
// value would otherwise reach the absolute URLs an app builds from request.hostname (links in
// mails, redirects, @fastify/url-data). Valid forwarded hosts (a port, an IP literal, the last of
// a list) are used as before. Fastify 3.27.4 returns the last entry as written (README).
import { expect } from 'chai'
import urlData from '@fastify/url-data'
import type { Scope } from '../../src/runtime'
import { listening, rawRequest } from './helpers'

type Loose = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

const IGNORED = ['evil.example/reset?to=', 'evil.example#x', 'user@evil.example', 'good.example evil.example', 'evil\texample', 'év.example', '[::1', 'evil.example:80x', 'a.example, evil.example/x']
const USED: ReadonlyArray<readonly [string, string]> = [['api.example', 'api.example'], ['api.example:8443', 'api.example:8443'], ['[::1]:9', '[::1]:9'], ['a.example, b.example', 'b.example'], ['xn--bcher-kva.example', 'xn--bcher-kva.example']]

function declare(root: Scope): void {
  const r = root as unknown as Loose
  r.get('/where', async (request: Loose) => ({ hostname: request.hostname, host: request.host, port: request.port }))
  r.register(async (s: Loose) => {
    await s.register(urlData)
    s.get('/url', async (request: Loose) => ({ host: request.urlData('host') }))
  })
}

const get = (path: string, forwarded: string): string => `GET ${path} HTTP/1.1\r\nHost: good.example:8080\r\nConnection: close\r\nX-Forwarded-Host: ${forwarded}\r\n\r\n`

describe('hardening: X-Forwarded-Host that is no host[:port] never becomes request.hostname', () => {
  let address: string
  beforeEach(async () => { ({ address } = await listening(declare, { trustProxy: true })) })

  for (const forwarded of IGNORED) {
    it(`${JSON.stringify(forwarded)}: request.hostname, host and port are the Host's (good.example:8080); @fastify/url-data's host too`, async () => {
      const where = await rawRequest(address, Buffer.from(get('/where', forwarded), 'latin1'))
      expect(where.status).to.equal(200)
      expect(JSON.parse(where.body)).to.deep.equal({ hostname: 'good.example:8080', host: 'good.example:8080', port: 8080 })
      const url = await rawRequest(address, Buffer.from(get('/url', forwarded), 'latin1'))
      expect(JSON.parse(url.body)).to.deep.equal({ host: 'good.example' })
    })
  }

  for (const [forwarded, hostname] of USED) {
    it(`${JSON.stringify(forwarded)} from a trusted peer is used: request.hostname ${hostname}`, async () => {
      const where = await rawRequest(address, get('/where', forwarded))
      expect(JSON.parse(where.body).hostname).to.equal(hostname)
    })
  }

  it('from a peer trustProxy does not trust, even a valid X-Forwarded-Host is ignored (README)', async () => {
    const untrusted = await listening(declare, { trustProxy: '10.0.0.0/8' })
    const where = await rawRequest(untrusted.address, get('/where', 'api.example'))
    expect(JSON.parse(where.body).hostname).to.equal('good.example:8080')
  })
})
