import { expect } from 'chai'
import request from 'supertest'
import jwt from '@fastify/jwt'
import { modes, topology } from './helpers'
import type { Reply, Request, Scope } from '../../src/runtime'

type JwtScope = Scope & { jwt: { sign(payload: object): string; verify(token: string): Record<string, unknown> } }

// @fastify/jwt README: fastify.jwt.sign(), request.jwtVerify() (reads the Bearer token) and
// reply.jwtSign(); a bad token is answered 401 with the plugin's coded error.
describe('@fastify/jwt in Enclave', () => {
  for (const mode of modes) {
    describe(`registered in a ${mode}`, () => {
      let signer: JwtScope | null = null
      const init = {
        plugin: jwt,
        options: { secret: 'a-long-enough-test-secret' },
        inside: (scope: Scope) => { signer = scope as JwtScope },
        probe: async (req: Request, reply: Reply) => {
          if (typeof req.jwtVerify !== 'function') return { jwt: false }
          if (req.method === 'POST') return { token: await (reply.jwtSign as (p: object) => Promise<string>)({ sub: 'ada' }) }
          const user = await (req.jwtVerify as () => Promise<Record<string, unknown>>)()
          return { sub: user.sub, user: (req.user as { sub: string }).sub }
        },
      }

      it('verifies tokens signed by fastify.jwt.sign and reply.jwtSign, in the registering context and below', async () => {
        const app = await topology(mode, init)
        const token = signer!.jwt.sign({ sub: 'grace' })
        for (const path of ['/inside/probe', '/inside/child/probe']) {
          await request(app.server).get(path).set('authorization', `Bearer ${token}`).expect(200, { sub: 'grace', user: 'grace' })
        }
        const signed = await request(app.server).post('/inside/probe').expect(200)
        await request(app.server).get('/inside/probe').set('authorization', `Bearer ${signed.body.token}`).expect(200, { sub: 'ada', user: 'ada' })
        for (const path of ['/root-probe', '/outside/probe']) await request(app.server).get(path).expect(200, { jwt: false })
      })

      it('answers 401 with the plugin\'s code for a missing or tampered token', async () => {
        const app = await topology(mode, init)
        const missing = await request(app.server).get('/inside/probe').expect(401)
        expect(missing.body.code).to.equal('FST_JWT_NO_AUTHORIZATION_IN_HEADER')
        const token = signer!.jwt.sign({ sub: 'grace' })
        const bad = await request(app.server).get('/inside/probe').set('authorization', `Bearer ${tamperSignature(token)}`).expect(401)
        expect(bad.body.code).to.equal('FST_JWT_AUTHORIZATION_TOKEN_INVALID')
      })
    })
  }
})

/** Changes the signature's first character: every bit of it counts, whereas the last one of a base64url HS256 signature
 * carries two padding bits, so overwriting the tail could leave the signature valid (about 1 token in 1,000). */
function tamperSignature(token: string): string {
  const dot = token.lastIndexOf('.')
  const first = token[dot + 1]
  return `${token.slice(0, dot + 1)}${first === 'A' ? 'B' : 'A'}${token.slice(dot + 2)}`
}
