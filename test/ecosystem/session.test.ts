import { expect } from 'chai'
import request from 'supertest'
import cookie from '@fastify/cookie'
import session from '@fastify/session'
import { createServer, lift, type Request, type Scope } from '../../src/runtime'
import { track } from '../support/servers'
import { affected, modes, topology, unaffected } from './helpers'

interface Session { get(key: string): unknown; set(key: string, value: unknown): void; sessionId: string; destroy(): Promise<void> }
type SessionRequest = Request & { session?: Session | null }

const sessionOptions = { secret: 'a-secret-with-at-least-32-characters!!', cookie: { secure: false } }
/** The README's pair, @fastify/cookie then @fastify/session, in one lifted plugin (as the registering context's own). */
const cookieAndSession = lift(async (scope: Scope) => {
  await scope.register(cookie as never)
  await scope.register(session, sessionOptions)
})

const probe = async (req: Request) => {
  const s = (req as SessionRequest).session
  if (s === undefined || s === null) return { session: null }
  if ((req.query as Record<string, string>).logout !== undefined) { await s.destroy(); return { destroyed: true } }
  const visits = ((s.get('visits') as number | undefined) ?? 0) + 1
  s.set('visits', visits)
  return { visits }
}

const sessionCookie = (res: { headers: Record<string, unknown> }): string | undefined =>
  ((res.headers['set-cookie'] as string[] | undefined) ?? []).find((c) => c.startsWith('sessionId='))?.split(';')[0]

// @fastify/session README (with @fastify/cookie): request.session kept in a store (memory here)
// under a signed sessionId cookie; a forged id starts a new session; destroy() ends it.
describe('@fastify/session + @fastify/cookie in Enclave', () => {
  for (const mode of modes) {
    it(`keeps a session across requests in the registering context and its descendants only (${mode})`, async () => {
      const app = await topology(mode, { plugin: cookieAndSession, probe })
      for (const path of affected) {
        const first = await request(app.server).get(path).expect(200, { visits: 1 })
        const id = sessionCookie(first)!
        expect(id).to.match(/^sessionId=[^.]+\.[^.]+/)
        await request(app.server).get(path).set('cookie', id).expect(200, { visits: 2 })
        await request(app.server).get(path).set('cookie', id).expect(200, { visits: 3 })
        await request(app.server).get(path).set('cookie', 'sessionId=forged.signature').expect(200, { visits: 1 })
      }
      for (const path of unaffected) {
        const res = await request(app.server).get(path).expect(200, { session: null })
        expect(sessionCookie(res)).to.equal(undefined)
      }
    })
  }

  it('ends the session with destroy(), and refuses a short secret at boot', async () => {
    const app = await topology('scope', { plugin: cookieAndSession, probe })
    const id = sessionCookie(await request(app.server).get('/inside/probe').expect(200, { visits: 1 }))!
    await request(app.server).get('/inside/probe?logout').set('cookie', id).expect(200, { destroyed: true })
    await request(app.server).get('/inside/probe').set('cookie', id).expect(200, { visits: 1 })

    const short = track(createServer())
    short.register(cookie as never)
    short.register(session, { secret: 'short' })
    let error: Error | undefined
    try { await short.ready() } catch (e) { error = e as Error }
    expect(error?.message).to.equal('the secret must have length 32 or greater')
  })
})
