import { expect } from 'chai'
import request from 'supertest'
import throttle from '@fastify/throttle'
import { affected, modes, topology, unaffected } from './helpers'

// @fastify/throttle README: an onRoute hook adds an onSend hook that pipes the payload through a
// ThrottleStream (`bytesPerSecond`, as an option or per route in `config.throttle`); strings too
// with `stringPayloads: true`. A throttled reply is streamed (chunked, no Content-Length), which
// is what these tests observe: the rate itself is the plugin's (no timed tests).
describe('@fastify/throttle in Enclave', () => {
  for (const mode of modes) {
    describe(`registered in a ${mode}`, () => {
      it('streams the replies of the registering context and its descendants through the throttle, not others', async () => {
        const app = await topology(mode, { plugin: throttle, options: { bytesPerSecond: 1e6, stringPayloads: true } })
        for (const path of affected) {
          const res = await request(app.server).get(path).expect(200, { ok: true })
          expect(res.headers['transfer-encoding'], path).to.equal('chunked')
          expect(res.headers['content-length'], path).to.equal(undefined)
        }
        for (const path of unaffected) {
          const res = await request(app.server).get(path).expect(200, { ok: true })
          expect(res.headers['content-length'], path).to.equal('11')
        }
      })

      it('throttles only the routes whose config.throttle asks, with a function of the request', async () => {
        let asked = 0
        const app = await topology(mode, {
          plugin: throttle,
          options: { stringPayloads: true },
          everywhere: (scope) => {
            scope.get('/slow', { config: { throttle: { bytesPerSecond: () => { asked++; return 1e6 } } } }, async () => 'x'.repeat(100))
          },
        })
        const res = await request(app.server).get('/inside/slow').expect(200)
        expect(res.text).to.equal('x'.repeat(100))
        expect(res.headers['transfer-encoding']).to.equal('chunked')
        expect(asked).to.equal(1)
        const plain = await request(app.server).get('/inside/probe').expect(200, { ok: true })
        expect(plain.headers['content-length']).to.equal('11')
        const outside = await request(app.server).get('/outside/slow').expect(200)
        expect(outside.headers['content-length']).to.equal('100')
        expect(asked).to.equal(1)
      })
    })
  }
})
