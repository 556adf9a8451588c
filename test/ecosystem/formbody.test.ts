import request from 'supertest'
import formbody from '@fastify/formbody'
import { affected, modes, topology } from './helpers'

// @fastify/formbody README: adds a parser for application/x-www-form-urlencoded bodies.
describe('@fastify/formbody in Enclave', () => {
  for (const mode of modes) {
    describe(`registered in a ${mode}`, () => {
      it('parses url-encoded bodies in the registering context and its descendants', async () => {
        const app = await topology(mode, { plugin: formbody, probe: async (req) => ({ body: req.body }) })
        for (const path of affected) {
          await request(app.server).post(path).type('form').send('name=Ada&tags=a&tags=b').expect(200, { body: { name: 'Ada', tags: ['a', 'b'] } })
        }
      })

      it('leaves the media type unsupported (415) where it is not visible', async () => {
        const app = await topology(mode, { plugin: formbody })
        await request(app.server).post('/outside/probe').type('form').send('name=Ada').expect(415)
      })
    })
  }
})
