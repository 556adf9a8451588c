// Over HTTP/2 the request's host is `:authority` (request.hostname reads it when no Host is sent):
// it is held to the Host rules (README's differences: the Host header line; RFC 9113 §8.3.1: no
// userinfo, and a Host naming another host than :authority is malformed). Without this a request
// with `:authority: user@a.example` (nghttp2 itself refuses a path or a space there) was served, and one with `:authority: a` and
// `host: evil` was routed by a proxy as one host and answered by the app as the other.
import { expect } from 'chai'
import { connect as http2Connect, type ClientHttp2Session } from 'node:http2'
import { expectErrorShape, server, within } from './helpers'

interface H2Answer { status: number; body: string }

function ask(session: ClientHttp2Session, headers: Record<string, string>): Promise<H2Answer> {
  return within(new Promise<H2Answer>((resolve, reject) => {
    const stream = session.request({ ':path': '/h', ...headers })
    let status = 0
    let body = ''
    stream.on('response', (h) => { status = Number(h[':status']) })
    stream.setEncoding('utf8')
    stream.on('data', (chunk: string) => { body += chunk })
    stream.on('end', () => resolve({ status, body }))
    stream.on('error', reject)
  }), 5_000, 'an HTTP/2 answer')
}

describe('hardening: HTTP/2 :authority is held to the Host rules', () => {
  let session: ClientHttp2Session | undefined
  let ran = 0
  afterEach(() => { session?.destroy(); session = undefined })

  async function open(): Promise<ClientHttp2Session> {
    ran = 0
    const app = server({ http2: true })
    app.addHook('onRequest', async () => { ran++ })
    app.get('/h', async (request) => ({ hostname: request.hostname }))
    session = http2Connect(await app.listen({ port: 0, host: '127.0.0.1' }))
    session.on('error', () => undefined)
    return session
  }

  const refused: ReadonlyArray<readonly [string, Record<string, string>]> = [
    ['userinfo in :authority', { ':authority': 'user@a.example' }],
    ['a port that is not digits in :authority', { ':authority': 'a.example:80a' }],
    ['a Host naming another host than :authority', { ':authority': 'a.example', host: 'evil.example' }],
    ['a Host naming another port than :authority', { ':authority': 'a.example:8443', host: 'a.example' }],
  ]
  for (const [label, headers] of refused) {
    it(`${label}: 400 ENC_ERR_REQUEST_BAD_HOST, no hook run, the session goes on serving`, async () => {
      const client = await open()
      const answer = await ask(client, headers)
      expect(answer.status).to.equal(400)
      expect(expectErrorShape(answer.body, 400).code).to.equal('ENC_ERR_REQUEST_BAD_HOST')
      expect(ran).to.equal(0)
      expect(await ask(client, { ':authority': 'a.example' })).to.deep.equal({ status: 200, body: '{"hostname":"a.example"}' })
    })
  }

  const accepted: ReadonlyArray<readonly [string, Record<string, string>, string]> = [
    [':authority alone, with a port', { ':authority': 'shop.example:8080' }, 'shop.example:8080'],
    [':authority as an IPv6 literal', { ':authority': '[::1]:3000' }, '[::1]:3000'],
    ['a Host equal to :authority but for case', { ':authority': 'A.example', host: 'a.EXAMPLE' }, 'a.EXAMPLE'],
  ]
  for (const [label, headers, hostname] of accepted) {
    it(`${label} is served, hostname as Fastify 3 reads it (Host, else :authority)`, async () => {
      const answer = await ask(await open(), headers)
      expect(answer).to.deep.equal({ status: 200, body: JSON.stringify({ hostname }) })
      expect(ran).to.equal(1)
    })
  }
})
