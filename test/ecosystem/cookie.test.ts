import { expect } from 'chai'
import request from 'supertest'
import cookie from '@fastify/cookie'
import { affected, modes, topology, unaffected } from './helpers'
import type { Reply, Request } from '../../src/runtime'

type CookieReply = Reply & { setCookie(name: string, value: string, opts?: Record<string, unknown>): Reply }
type CookieRequest = Request & { cookies: Record<string, string>; unsignCookie(value: string): { valid: boolean; value: string | null } }

// @fastify/cookie README: `request.cookies` holds the parsed Cookie header, `reply.setCookie()`
// writes Set-Cookie (from an onSend hook), `signed: true` signs with `secret`, `request.unsignCookie()` checks.
describe('@fastify/cookie in Enclave', () => {
  const probe = (req: Request, reply: Reply) => {
    const request = req as CookieRequest
    if (typeof request.cookies !== 'object' || request.cookies === null) return { cookies: null }
    ;(reply as CookieReply).setCookie('visited', 'yes', { path: '/', httpOnly: true })
    ;(reply as CookieReply).setCookie('session', 'abc', { path: '/', signed: true })
    const signed = request.cookies.session === undefined ? null : request.unsignCookie(request.cookies.session)
    return { cookies: request.cookies, signed }
  }

  for (const mode of modes) {
    describe(`registered in a ${mode}`, () => {
      it('parses request cookies and sets cookies, in the registering context and its descendants only', async () => {
        const app = await topology(mode, { plugin: cookie, options: { secret: 'a-secret-long-enough' }, probe })
        for (const path of affected) {
          const res = await request(app.server).get(path).set('cookie', 'theme=dark; lang=en').expect(200)
          expect(res.body.cookies, path).to.deep.equal({ theme: 'dark', lang: 'en' })
          const setCookie = res.headers['set-cookie'] as unknown as string[]
          expect(setCookie.find((c) => c.startsWith('visited=yes'))).to.match(/Path=\/; HttpOnly; SameSite=Lax/)
        }
        for (const path of unaffected) {
          const res = await request(app.server).get(path).set('cookie', 'theme=dark').expect(200, { cookies: null })
          expect(res.headers['set-cookie'], path).to.equal(undefined)
        }
      })

      it('round-trips a signed cookie and rejects a tampered one', async () => {
        const app = await topology(mode, { plugin: cookie, options: { secret: 'a-secret-long-enough' }, probe })
        const first = await request(app.server).get('/inside/probe').expect(200)
        const session = (first.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('session='))!.split(';')[0]
        const good = await request(app.server).get('/inside/probe').set('cookie', session).expect(200)
        expect(good.body.signed).to.deep.equal({ valid: true, renew: false, value: 'abc' })
        const bad = await request(app.server).get('/inside/probe').set('cookie', session.replace('abc', 'abd')).expect(200)
        expect(bad.body.signed.valid).to.equal(false)
      })
    })
  }
})
