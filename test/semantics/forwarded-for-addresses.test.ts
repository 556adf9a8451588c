// Under trustProxy, request.ip and request.ips hold IP addresses only (README differences):
// proxy-addr (and so Fastify 3.27.4) returns X-Forwarded-For entries as written, so under
// `trustProxy: true` any client could make request.ip `<script>`. An address with a port is the
// address; the first entry that is no address ends the walk, and request.ip is the last kept.
import { expect } from 'chai'
import { createServer } from '../../src'

async function seen(trustProxy: boolean | number | string, forwardedFor: string): Promise<{ ip: string; ips: string[] }> {
  const app = createServer({ trustProxy })
  app.get('/ip', async (request) => ({ ip: request.ip, ips: request.ips }))
  try {
    return (await app.inject({ url: '/ip', remoteAddress: '10.0.0.2', headers: { 'x-forwarded-for': forwardedFor } })).json()
  } finally { await app.close() }
}

describe('semantics: with trustProxy, request.ip and request.ips are IP addresses (README differences)', () => {
  it('trustProxy: true and a client-written garbage entry: the walk stops at it, request.ip is the hop that passed it on', async () => {
    expect(await seen(true, '<script>, 203.0.113.7')).to.deep.equal({ ip: '203.0.113.7', ips: ['10.0.0.2', '203.0.113.7'] })
    expect(await seen(true, 'unknown')).to.deep.equal({ ip: '10.0.0.2', ips: ['10.0.0.2'] })
    // Entries beyond the bad one are not trusted either, even where they are addresses.
    expect(await seen(true, '198.51.100.1, _hidden, 203.0.113.7')).to.deep.equal({ ip: '203.0.113.7', ips: ['10.0.0.2', '203.0.113.7'] })
  })

  it('an address with a port (as some cloud proxies write) is the address; IPv6 as is or in brackets with a port', async () => {
    expect(await seen(true, '198.51.100.1:4711')).to.deep.equal({ ip: '198.51.100.1', ips: ['10.0.0.2', '198.51.100.1'] })
    expect(await seen(true, '[2001:db8::1]:4711, 2001:db8::2')).to.deep.equal({ ip: '2001:db8::1', ips: ['10.0.0.2', '2001:db8::2', '2001:db8::1'] })
    expect(await seen(true, '1.2.3.4:port')).to.deep.equal({ ip: '10.0.0.2', ips: ['10.0.0.2'] })
  })

  it('a hop count and a subnet list keep their rules: a garbage entry within the trusted hops ends the walk too', async () => {
    expect(await seen(2, 'garbage, 203.0.113.7')).to.deep.equal({ ip: '203.0.113.7', ips: ['10.0.0.2', '203.0.113.7'] })
    expect(await seen(1, 'garbage')).to.deep.equal({ ip: '10.0.0.2', ips: ['10.0.0.2'] })
    // proxy-addr never trusts a non-IP under a list: it would be returned as the client; here the hop before it is.
    expect(await seen('10.0.0.0/8', 'garbage')).to.deep.equal({ ip: '10.0.0.2', ips: ['10.0.0.2'] })
    expect(await seen('10.0.0.0/8', '203.0.113.9, 10.1.1.1')).to.deep.equal({ ip: '203.0.113.9', ips: ['10.0.0.2', '10.1.1.1', '203.0.113.9'] })
  })

  it('without trustProxy, X-Forwarded-For is not read at all', async () => {
    const app = createServer()
    app.get('/ip', async (request) => ({ ip: request.ip, ips: request.ips ?? 'none' }))
    try {
      expect((await app.inject({ url: '/ip', remoteAddress: '10.0.0.2', headers: { 'x-forwarded-for': '<script>' } })).json()).to.deep.equal({ ip: '10.0.0.2', ips: 'none' })
    } finally { await app.close() }
  })
})
