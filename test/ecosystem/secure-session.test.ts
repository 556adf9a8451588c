import { expect } from 'chai'
import request from 'supertest'
import secureSession from '@fastify/secure-session'
import { createServer, type Request, type Scope } from '../../src/runtime'
import { track } from '../support/servers'
import { affected, modes, topology, unaffected } from './helpers'

interface Session { get(key: string): unknown; set(key: string, value: unknown): void; delete(): void }
type SessionRequest = Request & { session?: Session | null }

// A fixed 32-byte key (the README's `key` form): the `secret` form derives one with a deliberately
// slow password hash, which would only slow the suite down.
const key = Buffer.alloc(32, 7)
const options = { key, cookie: { path: '/' } }

/** Counts visits in the session; `?logout` deletes it. */
const probe = async (req: Request) => {
  const session = (req as SessionRequest).session
  if (session === undefined || session === null) return { session: null }
  if ((req.query as Record<string, string>).logout !== undefined) { session.delete(); return { deleted: true } }
  const visits = ((session.get('visits') as number | undefined) ?? 0) + 1
  session.set('visits', visits)
  return { visits }
}

const sessionCookie = (res: { headers: Record<string, unknown> }): string | undefined =>
  ((res.headers['set-cookie'] as string[] | undefined) ?? []).find((c) => c.startsWith('session='))

// @fastify/secure-session README: `request.session.get/set` kept in an encrypted cookie (libsodium),
// sent back only when the session changed; a tampered cookie gives an empty session; `delete()`
// clears the cookie. The plugin registers @fastify/cookie itself when it is not there.
describe('@fastify/secure-session in Enclave', () => {
  for (const mode of modes) {
    describe(`registered in a ${mode}`, () => {
      it('keeps the session across requests in the registering context and its descendants only', async () => {
        const app = await topology(mode, { plugin: secureSession, options, probe })
        for (const path of affected) {
          const first = await request(app.server).get(path).expect(200, { visits: 1 })
          const cookie = sessionCookie(first)!.split(';')[0]
          expect(sessionCookie(first)).to.match(/; Path=\/; HttpOnly/)
          const second = await request(app.server).get(path).set('cookie', cookie).expect(200, { visits: 2 })
          await request(app.server).get(path).set('cookie', sessionCookie(second)!.split(';')[0]).expect(200, { visits: 3 })
        }
        for (const path of unaffected) {
          const res = await request(app.server).get(path).expect(200, { session: null })
          expect(sessionCookie(res)).to.equal(undefined)
        }
      })

      it('starts an empty session for a tampered cookie, and clears the cookie on delete()', async () => {
        const app = await topology(mode, { plugin: secureSession, options, probe })
        const first = await request(app.server).get('/inside/probe').expect(200, { visits: 1 })
        const cookie = sessionCookie(first)!.split(';')[0]
        const tampered = cookie.slice(0, 10) + (cookie[10] === 'A' ? 'B' : 'A') + cookie.slice(11)
        await request(app.server).get('/inside/probe').set('cookie', tampered).expect(200, { visits: 1 })
        const out = await request(app.server).get('/inside/probe?logout').set('cookie', cookie).expect(200, { deleted: true })
        expect(sessionCookie(out)).to.match(/^session=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly/)
      })
    })
  }

  it('encodes and decodes sessions with the scope decorators, and refuses a short key at boot', async () => {
    const app = track(createServer())
    await app.register(secureSession, options)
    const s = app as Scope & { createSecureSession(data: object): Session; encodeSecureSession(s: Session): string; decodeSecureSession(c: string): Session | null }
    const encoded = s.encodeSecureSession(s.createSecureSession({ user: 'ada' }))
    expect(s.decodeSecureSession(encoded)!.get('user')).to.equal('ada')
    app.get('/me', async (req) => ({ user: (req as SessionRequest).session!.get('user') ?? null }))
    await app.ready()
    await request(app.server).get('/me').set('cookie', `session=${encodeURIComponent(encoded)}`).expect(200, { user: 'ada' })

    const short = track(createServer())
    short.register(secureSession, { key: Buffer.alloc(16) })
    let error: Error | undefined
    try { await short.ready() } catch (e) { error = e as Error }
    expect(error?.message).to.equal('key must be 32 bytes')
  })
})
