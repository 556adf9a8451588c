import { expect } from 'chai'
import request from 'supertest'
import caching from '@fastify/caching'
import type { Reply, Request } from '../../src/runtime'
import { affected, modes, topology, unaffected } from './helpers'

type CachingReply = Reply & { etag(value?: string, lifetime?: number): Reply; expires(date: Date): Reply }

/** Tags its answer with an ETag the plugin stores, and an Expires date. */
const probe = async (req: Request, reply: Reply) => {
  const r = reply as Partial<CachingReply>
  if (typeof r.etag !== 'function') return { caching: false }
  if ((req.query as Record<string, string>).fail !== undefined) return reply.code(404).send({ missing: true })
  r.etag(`"v-${req.url.length}"`)
  r.expires!(new Date(Date.UTC(2030, 0, 1)))
  return { fresh: true }
}

// @fastify/caching README: Cache-Control from `privacy`/`expiresIn` on 2xx (`no-store` on errors),
// reply.etag() stored in the plugin's cache so that a later If-None-Match is answered 304 by its
// onRequest hook, reply.expires().
describe('@fastify/caching in Enclave', () => {
  for (const mode of modes) {
    it(`sets Cache-Control, stores ETags and answers 304, in the registering context and its descendants only (${mode})`, async () => {
      const app = await topology(mode, { plugin: caching, options: { privacy: caching.privacy.PUBLIC, expiresIn: 300 }, probe })
      for (const path of affected) {
        const first = await request(app.server).get(path).expect(200, { fresh: true })
        expect(first.headers['cache-control']).to.equal('public, max-age=300')
        expect(first.headers.expires).to.equal('Tue, 01 Jan 2030 00:00:00 GMT')
        const etag = first.headers.etag
        expect(etag).to.match(/^"v-\d+"$/)
        const again = await request(app.server).get(path).set('if-none-match', etag).expect(304)
        expect(again.text).to.equal('')
        await request(app.server).get(path).set('if-none-match', '"unknown"').expect(200, { fresh: true })
        const failed = await request(app.server).get(`${path}?fail`).expect(404, { missing: true })
        expect(failed.headers['cache-control']).to.equal('no-store')
      }
      for (const path of unaffected) {
        const res = await request(app.server).get(path).expect(200, { caching: false })
        expect(res.headers['cache-control']).to.equal(undefined)
      }
    })
  }
})
