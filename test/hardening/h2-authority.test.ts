// HTTP/2's :authority stands for the Host header (RFC 9113 §8.3.1) and is held to the rule
// host-header.test.ts checks for Host: a value that is no host[:port] is 400
// ENC_ERR_REQUEST_BAD_HOST before any hook. nghttp2 already resets a stream whose :authority has a
// space, a path or raw non-ASCII; it passes userinfo (`user@host`), which reached
// request.hostname. A `host` header beside :authority naming another host is the same 400 (the
// RFC's "SHOULD treat as malformed"): Node's request.headers.host wins over :authority, so a
// proxy routing on one and the app building URLs from the other would disagree. Only the stream
// is answered; the session serves on. Over h2c and over TLS.
import { connect as http2Connect, type ClientHttp2Session } from 'node:http2'
import { expect } from 'chai'
import type { ServerOptions } from '../../src/runtime'
import { expectErrorShape, listening } from './helpers'
import { within } from '../support/raw-http'
import { tlsCert, tlsKey } from '../support/tls'

interface Answer { status: number; body: string }

function ask(session: ClientHttp2Session, headers: Record<string, string>): Promise<Answer> {
  return within(new Promise<Answer>((resolve, reject) => {
    const stream = session.request({ ':path': '/h', ...headers })
    let status = 0
    let body = ''
    stream.setEncoding('utf8')
    stream.on('response', (h) => { status = Number(h[':status']) })
    stream.on('data', (chunk: string) => { body += chunk })
    stream.on('error', reject)
    stream.on('close', () => resolve({ status, body }))
    stream.end()
  }), 5_000, 'an HTTP/2 answer')
}

const REFUSED: ReadonlyArray<readonly [string, Record<string, string>]> = [
  ['userinfo in :authority', { ':authority': 'user@a.example' }],
  ['userinfo and a port in :authority', { ':authority': 'user:pw@a.example:8080' }],
  ['a port that is not digits in :authority', { ':authority': 'a.example:80a' }],
  ['a host header naming another host than :authority', { ':authority': 'a.example', host: 'evil.example' }],
  ['a host header with another port than :authority', { ':authority': 'a.example:8080', host: 'a.example:9090' }],
]
const SERVED: ReadonlyArray<readonly [string, Record<string, string>, string]> = [
  [':authority with a port', { ':authority': 'shop.example:8080' }, 'shop.example:8080'],
  [':authority, an IPv6 literal', { ':authority': '[::1]:3000' }, '[::1]:3000'],
  ['a host header equal to :authority but for case', { ':authority': 'A.example', host: 'a.EXAMPLE' }, 'a.EXAMPLE'],
  ['a host header without the default port :authority writes, and with a trailing dot', { ':authority': 'a.example:443', host: 'a.example.' }, 'a.example.'],
]

describe('hardening: HTTP/2 :authority is held to the Host rule (RFC 9113 §8.3.1)', () => {
  for (const [transport, options, connectOptions] of [
    ['h2c', { http2: true }, {}],
    ['TLS', { http2: true, https: { key: tlsKey, cert: tlsCert } }, { ca: tlsCert, servername: 'localhost' }],
  ] as const) {
    it(`over ${transport}: ${REFUSED.length} shapes are 400 ENC_ERR_REQUEST_BAD_HOST with no hook run, ${SERVED.length} are served with hostname as sent; one session serves them all`, async () => {
      let ran = 0
      const { address } = await listening((root) => {
        root.addHook('onRequest', async () => { ran++ })
        root.get('/h', async (request) => ({ hostname: request.hostname }))
      }, options as ServerOptions)
      const session = http2Connect(address, connectOptions)
      try {
        for (const [label, headers] of REFUSED) {
          const answer = await ask(session, headers)
          expect(answer.status, label).to.equal(400)
          expect(expectErrorShape(answer.body, 400).code, label).to.equal('ENC_ERR_REQUEST_BAD_HOST')
        }
        expect(ran, 'hooks run for refused requests').to.equal(0)
        for (const [label, headers, hostname] of SERVED) {
          const answer = await ask(session, headers)
          expect(answer.status, label).to.equal(200)
          expect(JSON.parse(answer.body), label).to.deep.equal({ hostname })
        }
        expect(session.destroyed).to.equal(false)
      } finally {
        session.destroy()
      }
    })
  }
})
