import { expect } from 'chai'
import request from 'supertest'
import urlData from '@fastify/url-data'
import { affected, modes, topology, unaffected } from './helpers'

// @fastify/url-data README: `request.urlData()` parses the request's URL (scheme, host, port,
// path, query) with fast-uri; `request.urlData('path')` gives one part. The plugin builds the URL
// from Fastify 5's `request.hostname` (no port) and `request.port`.
describe('@fastify/url-data in Enclave', () => {
  const probe = async (req: unknown) => {
    const r = req as { urlData?: (key?: string) => unknown }
    if (typeof r.urlData !== 'function') return { has: false }
    return { has: true, data: r.urlData(), path: r.urlData('path'), query: r.urlData('query') }
  }
  for (const mode of modes) {
    describe(`registered in a ${mode}`, () => {
      it('gives request.urlData() in the registering context and its descendants only', async () => {
        const app = await topology(mode, { plugin: urlData, probe })
        for (const path of affected) {
          const res = await request(app.server).get(`${path}?a=1&b=two`).set('host', 'shop.example').expect(200)
          expect(res.body.has, path).to.equal(true)
          expect(res.body.path).to.equal(path)
          expect(res.body.query).to.equal('a=1&b=two')
          expect(res.body.data).to.include({ scheme: 'http', host: 'shop.example', path, query: 'a=1&b=two' })
        }
        for (const path of unaffected) {
          await request(app.server).get(path).expect(200, { has: false })
        }
      })

      it('takes scheme and host from a trusted proxy (trustProxy)', async () => {
        const app = await topology(mode, { plugin: urlData, probe, server: { trustProxy: true } })
        const res = await request(app.server).get('/inside/probe?q=1').set('x-forwarded-host', 'api.example').set('x-forwarded-proto', 'https').expect(200)
        expect(res.body.data).to.include({ scheme: 'https', host: 'api.example', path: '/inside/probe', query: 'q=1' })
      })

      // The limit docs/plugins.md lists: request.hostname keeps Fastify 3's meaning (the Host with its
      // port), and the plugin appends request.port to it, so a Host with a port gives a broken path.
      it('with a port in Host, reads host and port but not the path (request.hostname keeps its port, as Fastify 3)', async () => {
        const app = await topology(mode, { plugin: urlData, probe })
        const res = await request(app.server).get('/inside/probe').set('host', 'shop.example:8080').expect(200)
        expect(res.body.data).to.include({ host: 'shop.example', port: 8080 })
        expect(res.body.path).to.equal(':8080/inside/probe')
      })
    })
  }
})
