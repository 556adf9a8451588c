import { expect } from 'chai'
import request from 'supertest'
import sensible from '@fastify/sensible'
import { modes, topology } from './helpers'
import type { Reply, Request, Scope } from '../../src/runtime'

type SensibleReply = Reply & { notFound(message?: string): void; vary(field: string): void; cacheControl(k: string, v?: number): Reply }
type SensibleScope = Scope & { httpErrors: { conflict(message?: string): Error }; assert(ok: unknown, status: number, message?: string): void }

// @fastify/sensible README: reply.notFound() and friends, fastify.httpErrors, fastify.assert,
// request.is(), reply.vary() and reply.cacheControl(); errors keep their status and message.
describe('@fastify/sensible in Enclave', () => {
  for (const mode of modes) {
    describe(`registered in a ${mode}`, () => {
      it('adds the reply helpers in the registering context and its descendants only', async () => {
        const app = await topology(mode, {
          plugin: sensible,
          probe: async (_req: Request, reply: Reply) => {
            if (typeof reply.notFound !== 'function') return { sensible: false }
            ;(reply as SensibleReply).notFound('no such thing')
            return reply
          },
        })
        for (const path of ['/inside/probe', '/inside/child/probe']) {
          await request(app.server).get(path).expect(404, { statusCode: 404, error: 'Not Found', message: 'no such thing' })
        }
        for (const path of ['/root-probe', '/outside/probe']) await request(app.server).get(path).expect(200, { sensible: false })
      })

      it('maps a thrown httpErrors error and fastify.assert to their status', async () => {
        let scopeSeen: SensibleScope | null = null
        const app = await topology(mode, {
          plugin: sensible,
          inside: (scope) => { scopeSeen = scope as SensibleScope },
          probe: async (req: Request) => {
            const scope = scopeSeen!
            if (req.method === 'POST') scope.assert(false, 400, 'bad input')
            throw scope.httpErrors.conflict('taken')
          },
        })
        await request(app.server).get('/inside/probe').expect(409, { statusCode: 409, error: 'Conflict', message: 'taken' })
        await request(app.server).post('/inside/probe').expect(400, { statusCode: 400, error: 'Bad Request', message: 'bad input' })
      })

      it('offers request.is(), reply.vary() and reply.cacheControl()', async () => {
        const app = await topology(mode, {
          plugin: sensible,
          probe: async (req: Request, reply: Reply) => {
            ;(reply as SensibleReply).vary('Accept')
            ;(reply as SensibleReply).cacheControl('max-age', 42)
            return { json: (req.is as (types: string[]) => string | false)(['json']) }
          },
        })
        const res = await request(app.server).post('/inside/probe').send({ a: 1 }).expect(200, { json: 'json' })
        expect(res.headers.vary).to.equal('Accept')
        expect(res.headers['cache-control']).to.equal('max-age=42')
      })
    })
  }
})
