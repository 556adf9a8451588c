// The plugins of docs/plugins.md that plugins-hostile-input.test.ts does not feed, under hostile
// input: @fastify/session with forged, prototype-named, undecodable, 8 KB and repeated session
// cookies; @fastify/bearer-auth with missing, wrong, 12 KB, non-ASCII and repeated credentials;
// @fastify/accepts with junk q-values, 1,000 media types and 3,000 parameters; @fastify/sensible's
// notFound() carrying HTML; @fastify/url-data on an absolute-form and
// undecodable target; @fastify/helmet on a plain request. Each request is the same raw bytes to
// the same plugins on Enclave and on Fastify 5 (the major these versions support): the status is
// the one the plugin gives there, nothing hangs, nothing is a 5xx, and nothing pollutes Object.prototype.
import { expect } from 'chai'
import cookie from '@fastify/cookie'
import session from '@fastify/session'
import bearerAuth from '@fastify/bearer-auth'
import accepts from '@fastify/accepts'
import helmet from '@fastify/helmet'
import sensible from '@fastify/sensible'
import urlData from '@fastify/url-data'
import type { Scope } from '../../src/runtime'
import { server } from '../support/servers'
import { RawClient, within } from '../support/raw-http'
import { fastify5Reference } from './fastify5-reference'

type Loose = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

async function declare(app: Loose): Promise<void> {
  app.register(async (s: Loose) => {
    await s.register(cookie)
    await s.register(session, { secret: 'a-session-secret-of-at-least-32-chars', cookie: { secure: false } })
    s.get('/s', async (req: Loose) => { req.session.n = ((req.session.n as number | undefined) ?? 0) + 1; return { n: req.session.n } })
  }, { prefix: '/se' })
  app.register(async (s: Loose) => {
    await s.register(bearerAuth, { keys: new Set(['key-1']) })
    s.get('/b', async () => ({ ok: true }))
  }, { prefix: '/be' })
  app.register(async (s: Loose) => {
    await s.register(accepts)
    s.get('/a', async (req: Loose) => ({ type: req.type(['json', 'html']) || null, language: req.language(['en', 'fr']) || null, encoding: req.encoding(['gzip']) || null, charset: req.charset(['utf-8']) || null }))
  }, { prefix: '/ac' })
  app.register(async (s: Loose) => {
    await s.register(helmet)
    s.get('/h', async () => ({ ok: true }))
  }, { prefix: '/he' })
  app.register(async (s: Loose) => {
    await s.register(sensible)
    s.get('/nf', async (req: Loose, reply: Loose) => reply.notFound(req.query.m))
  }, { prefix: '/sn' })
  app.register(async (s: Loose) => {
    await s.register(urlData)
    s.get('/u', async (req: Loose) => ({ data: req.urlData() }))
  }, { prefix: '/ud' })
}

const get = (path: string, headers = ''): string => `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${headers}\r\n`

const cases: ReadonlyArray<readonly [string, string]> = [
  ['session: an 8 KB cookie', get('/se/s', `Cookie: sessionId=${'a'.repeat(8000)}\r\n`)],
  ['session: an id without a signature', get('/se/s', 'Cookie: sessionId=abc\r\n')],
  ['session: a forged signature', get('/se/s', 'Cookie: sessionId=abc.def\r\n')],
  ['session: __proto__ as the id', get('/se/s', 'Cookie: sessionId=__proto__\r\n')],
  ['session: __proto__ and constructor with a signature part', get('/se/s', 'Cookie: sessionId=__proto__.x; other=constructor.y\r\n')],
  ['session: undecodable percent-escapes', get('/se/s', 'Cookie: sessionId=%E0%A4%A.%ZZ\r\n')],
  ['session: two session cookies', get('/se/s', 'Cookie: sessionId=a.b; sessionId=c.d\r\n')],
  ['session: an empty cookie', get('/se/s', 'Cookie: sessionId=\r\n')],
  ['bearer-auth: no Authorization', get('/be/b')],
  ['bearer-auth: a wrong key', get('/be/b', 'Authorization: Bearer key-2\r\n')],
  ['bearer-auth: a 12 KB key', get('/be/b', `Authorization: Bearer ${'k'.repeat(12_000)}\r\n`)],
  ['bearer-auth: the scheme alone', get('/be/b', 'Authorization: Bearer\r\n')],
  ['bearer-auth: a lowercase scheme', get('/be/b', 'Authorization: bearer key-1\r\n')],
  ['bearer-auth: a Latin-1 byte in the key', get('/be/b', 'Authorization: Bearer k\xe9y-1\r\n')],
  ['bearer-auth: a Basic scheme', get('/be/b', 'Authorization: Basic a2V5LTE=\r\n')],
  ['bearer-auth: two Authorization headers', get('/be/b', 'Authorization: Bearer key-2\r\nAuthorization: Bearer key-1\r\n')],
  ['accepts: q-values that are no numbers, empty lists', get('/ac/a', 'Accept: */*;q=abc, text/html;q=1e400, application/json;q=-1\r\nAccept-Charset: ;;;,,,\r\nAccept-Encoding: gzip;q=NaN\r\nAccept-Language: ,,;q=\r\n')],
  ['accepts: 3,000 media-type parameters', get('/ac/a', `Accept: text/html${';a=b'.repeat(3000)}\r\n`)],
  ['accepts: 1,000 media types', get('/ac/a', `Accept: ${Array.from({ length: 1000 }, (_, i) => `t${i}/s;q=0.${i % 10}`).join(',')}\r\n`)],
  ['helmet: a plain request', get('/he/h')],
  ['sensible: notFound() with HTML in its message', get('/sn/nf?m=%3Cscript%3Ealert(1)%3C%2Fscript%3E')],
  ['url-data: undecodable query and a fragment', get('/ud/u?%zz=%zz&a=1#frag')],
  ['url-data: an absolute-form target', 'GET http://evil.example:99/ud/u?x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'],
]

async function statusOf(address: string, text: string): Promise<{ status: number; body: string }> {
  const client = new RawClient(address)
  client.write(Buffer.from(text, 'latin1'))
  try {
    const { status, body } = await client.next(10_000)
    return { status, body }
  } finally {
    client.destroy()
  }
}

async function listen(app: Loose): Promise<string> {
  await declare(app)
  return await (app as Scope).listen({ port: 0, host: '127.0.0.1' })
}

describe('hardening: session, auth and negotiation plugins under hostile input answer as they do on Fastify 5', () => {
  const fastify = fastify5Reference(listen)

  it(`${cases.length} hostile requests: the plugin's status on Fastify 5, no hang, no 5xx, no pollution of Object.prototype`, async function () {
    this.timeout(60_000)
    const enclave = await listen(server({ logger: false }))
    const mismatches: string[] = []
    for (const [label, text] of cases) {
      const ours = await within(statusOf(enclave, text), 15_000, `${label} on Enclave`)
      const theirs = await within(statusOf(fastify(), text), 15_000, `${label} on Fastify 5`)
      if (ours.status !== theirs.status) mismatches.push(`${label}: Enclave ${ours.status}, Fastify 5 ${theirs.status}`)
      expect(ours.status, `${label}: ${ours.body.slice(0, 200)}`).to.be.below(500)
    }
    expect(mismatches).to.deep.equal([])
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined)
    expect(Object.keys(Object.prototype)).to.deep.equal([])
  })

  it("a session's id with a forged or missing signature gets a fresh session (n = 1), its real cookie the same session (n = 2)", async () => {
    const enclave = await listen(server({ logger: false }))
    const sessionOf = async (cookieValue?: string): Promise<{ n: number; cookie: string }> => {
      const client = new RawClient(enclave)
      client.write(get('/se/s', cookieValue === undefined ? '' : `Cookie: sessionId=${cookieValue}\r\n`))
      const response = await client.next(10_000)
      client.destroy()
      return { n: (JSON.parse(response.body) as { n: number }).n, cookie: /^sessionId=([^;]+);/.exec(response.headers['set-cookie'] ?? '')?.[1] ?? '' }
    }
    const first = await sessionOf()
    const [id] = decodeURIComponent(first.cookie).split('.')
    expect(first.n).to.equal(1)
    expect((await sessionOf(first.cookie)).n, 'the real cookie').to.equal(2)
    for (const forged of [id, `${id}.`, `${id}.AAAA`, `${id}.${'A'.repeat(43)}`, `${encodeURIComponent(id)}%2E${'A'.repeat(43)}`]) {
      const answer = await sessionOf(forged)
      expect(answer.n, forged).to.equal(1)
      expect(answer.cookie.split('.')[0], forged).to.not.equal(id)
    }
  })
})
