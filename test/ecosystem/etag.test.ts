import { expect } from 'chai'
import request from 'supertest'
import etag from '@fastify/etag'
import { affected, modes, topology, unaffected } from './helpers'

// @fastify/etag README: an onSend hook hashes the payload into an ETag header and answers a
// matching If-None-Match with 304.
describe('@fastify/etag in Enclave', () => {
  for (const mode of modes) {
    describe(`registered in a ${mode}`, () => {
      it('adds an ETag in the registering context and its descendants only', async () => {
        const app = await topology(mode, { plugin: etag })
        for (const path of affected) {
          const res = await request(app.server).get(path).expect(200, { ok: true })
          expect(res.headers.etag, path).to.match(/^"[^"]+"$/)
        }
        for (const path of unaffected) {
          const res = await request(app.server).get(path).expect(200)
          expect(res.headers.etag, path).to.equal(undefined)
        }
      })

      it('answers 304 with an empty body to a matching If-None-Match', async () => {
        const app = await topology(mode, { plugin: etag })
        const first = await request(app.server).get('/inside/probe').expect(200)
        const res = await request(app.server).get('/inside/probe').set('if-none-match', first.headers.etag).expect(304)
        expect(res.text).to.equal('')
        await request(app.server).get('/inside/probe').set('if-none-match', '"other"').expect(200, { ok: true })
      })

      it('makes weak ETags when asked', async () => {
        const app = await topology(mode, { plugin: etag, options: { weak: true } })
        const res = await request(app.server).get('/inside/probe').expect(200)
        expect(res.headers.etag).to.match(/^W\/"/)
      })
    })
  }
})
