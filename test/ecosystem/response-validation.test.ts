import { expect } from 'chai'
import request from 'supertest'
import responseValidation from '@fastify/response-validation'
import type { Scope } from '../../src/runtime'
import { modes, topology } from './helpers'

// @fastify/response-validation README: an onRoute hook adds a preSerialization hook to every route
// with `schema.response`, which validates the reply with ajv 8 (its own instance) and answers a
// 500 when it does not match; `responseValidation: false` on a route opts out.
const inContext = ['/inside/answer', '/inside/child/answer'] as const
const outOfContext = ['/answer', '/outside/answer'] as const

function answerRoutes(scope: Scope, where: string): void {
  const schema = { response: { 200: { type: 'object', properties: { answer: { type: 'number' } }, required: ['answer'] } } }
  // A string where the schema says number: Enclave's serializer coerces it ("42" -> 42), the plugin refuses it.
  scope.get('/answer', { schema }, async () => ({ answer: '42' }))
  scope.get('/good', { schema }, async () => ({ answer: 42 }))
  // Outside the plugin's contexts the option is refused at boot, as no onRoute hook reads it there.
  if (where === 'inside' || where === 'child') scope.get('/opt-out', { schema, responseValidation: false } as never, async () => ({ answer: '42' }))
}

describe('@fastify/response-validation in Enclave', () => {
  for (const mode of modes) {
    describe(`registered in a ${mode}`, () => {
      it('refuses a reply that does not match its response schema, in the registering context and its descendants only', async () => {
        const app = await topology(mode, { plugin: responseValidation, everywhere: answerRoutes })
        for (const path of inContext) {
          const res = await request(app.server).get(path).expect(500)
          // The plugin's 500 (FST_RESPONSE_VALIDATION_FAILED_VALIDATION) shows only the reason phrase:
          // Enclave's 5xx rule (docs/plugins.md, @fastify/sensible).
          expect(res.body, path).to.include({ statusCode: 500, error: 'Internal Server Error' })
        }
        for (const path of outOfContext) {
          await request(app.server).get(path).expect(200, { answer: 42 })
        }
      })

      it('lets a matching reply through and honours responseValidation: false on a route', async () => {
        const app = await topology(mode, { plugin: responseValidation, everywhere: answerRoutes })
        await request(app.server).get('/inside/good').expect(200, { answer: 42 })
        await request(app.server).get('/inside/opt-out').expect(200, { answer: 42 })
      })

      it('with responseStatusCodeValidation, refuses a status the schema does not list', async () => {
        const app = await topology(mode, {
          plugin: responseValidation,
          options: { responseStatusCodeValidation: true },
          everywhere: (scope) => {
            scope.get('/created', { schema: { response: { 200: { type: 'object' } } } }, async (_req, reply) => reply.code(201).send({ ok: true }))
          },
        })
        await request(app.server).get('/inside/created').expect(500)
        await request(app.server).get('/outside/created').expect(201, { ok: true })
      })
    })
  }
})
