// A Host value is as long as the request head lets it be (~16 KB), and find-my-way runs each RegExp
// host constraint on it whole: an unanchored `/.*\.example\.com$/` is quadratic there (15,000
// characters: 0.24 s of CPU per request). No DNS name with a port is longer than 260 characters
// (router.ts MAX_ROUTABLE_HOST), so a longer value is routed as if no Host had been sent.
import { expect } from 'chai'
import { listening, rawRequest, server } from './helpers'
import type { Scope } from '../../src/runtime'
import { MAX_ROUTABLE_HOST } from '../../src/runtime/serve/router'

function hostServer(): Scope {
  const app = server()
  app.get('/h', { constraints: { host: /.*\.example\.com$/ } }, async () => ({ route: 'example' }))
  app.get('/h', async () => ({ route: 'any' }))
  app.get('/only', { constraints: { host: 'api.example.com' } }, async () => ({ route: 'api' }))
  return app
}

/** A Host of exactly `length` characters that the constraint's RegExp matches. */
const hostOf = (length: number): string => `${'a.'.repeat(length)}`.slice(0, length - '.example.com'.length).replace(/\.$/, 'a') + '.example.com'

describe('hardening: Host values too long to name a host never reach a host constraint', () => {
  it(`a Host of ${MAX_ROUTABLE_HOST} characters (253 + a trailing dot + :65535) is matched by a RegExp host constraint; one character more is routed as if no Host were sent`, async () => {
    const app = hostServer()
    expect(MAX_ROUTABLE_HOST).to.equal(260)
    expect(hostOf(260)).to.have.length(260)
    expect((await app.inject({ url: '/h', headers: { host: hostOf(260) } })).json()).to.deep.equal({ route: 'example' })
    expect((await app.inject({ url: '/h', headers: { host: hostOf(261) } })).json()).to.deep.equal({ route: 'any' })
    expect((await app.inject({ url: '/h', headers: { host: 'www.example.com:8080' } })).json()).to.deep.equal({ route: 'any' })
    expect((await app.inject({ url: '/only', headers: { host: 'api.example.com' } })).json()).to.deep.equal({ route: 'api' })
    expect((await app.inject({ url: '/only', headers: { host: `${'a'.repeat(250)}.api.example.com` } })).statusCode).to.equal(404)
  })

  it('over a socket, a 15,000-character Host (as much as the head holds) is answered by the unconstrained route and the server goes on', async () => {
    const { address } = await listening((app) => {
      app.get('/h', { constraints: { host: /.*\.example\.com$/ } }, async () => ({ route: 'example' }))
      app.get('/h', async () => ({ route: 'any' }))
    })
    const long = await rawRequest(address, `GET /h HTTP/1.1\r\nHost: ${'a.'.repeat(7_500)}example.com\r\nConnection: close\r\n\r\n`)
    expect([long.status, JSON.parse(long.body)]).to.deep.equal([200, { route: 'any' }])
    const next = await rawRequest(address, 'GET /h HTTP/1.1\r\nHost: www.example.com\r\nConnection: close\r\n\r\n')
    expect([next.status, JSON.parse(next.body)]).to.deep.equal([200, { route: 'example' }])
  })
})
