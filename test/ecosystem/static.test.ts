import { expect } from 'chai'
import request from 'supertest'
import fastifyStatic from '@fastify/static'
import { fixture, modes, topology } from './helpers'
import type { Reply } from '../../src/runtime'

// @fastify/static README: `register(fastifyStatic, { root, prefix: '/public/' })` serves the
// files under `root` at `prefix`, and decorates reply.sendFile(). `prefix` is the plugin's own
// option: the plugin is wrapped by fastify-plugin, so the framework does not make a scope of it
// (Fastify's rule, kept by Enclave for fastify-plugin-wrapped plugins).
describe('@fastify/static in Enclave', () => {
  const root = fixture('public')
  for (const mode of modes) {
    describe(`registered in a ${mode}`, () => {
      it('serves files under its own prefix option, inside the registering context\'s prefix', async () => {
        const app = await topology(mode, { plugin: fastifyStatic, options: { root, prefix: '/public/' } })
        const res = await request(app.server).get('/inside/public/hello.txt').expect(200)
        expect(res.text).to.equal('hello from a static file\n')
        expect(res.headers['content-type']).to.match(/^text\/plain/)
        expect(res.headers.etag).to.be.a('string')
        const nested = await request(app.server).get('/inside/public/sub/nested.txt').expect(200)
        expect(nested.text).to.equal('nested\n')
        await request(app.server).get('/inside/public/missing.txt').expect(404)
        await request(app.server).get('/public/hello.txt').expect(404)
      })

      it('answers HEAD with the file\'s length and no body, and a conditional GET with 304', async () => {
        const app = await topology(mode, { plugin: fastifyStatic, options: { root, prefix: '/public/' } })
        const head = await request(app.server).head('/inside/public/hello.txt').expect(200)
        expect(head.headers['content-length']).to.equal(String('hello from a static file\n'.length))
        await request(app.server).get('/inside/public/hello.txt').set('if-none-match', head.headers.etag).expect(304)
      })

      it('refuses path traversal out of root', async () => {
        const app = await topology(mode, { plugin: fastifyStatic, options: { root: fixture('public', 'sub'), prefix: '/public/' } })
        const res = await request(app.server).get('/inside/public/..%2fhello.txt')
        expect(res.status).to.be.oneOf([403, 404])
        expect(res.text).to.not.include('hello from a static file')
      })

      it('decorates reply.sendFile() for the registering context and its descendants only', async () => {
        const app = await topology(mode, {
          plugin: fastifyStatic,
          options: { root, serve: false },
          probe: async (_req, reply: Reply) => typeof reply.sendFile === 'function' ? reply.sendFile('index.html') : { sendFile: false },
        })
        for (const path of ['/inside/probe', '/inside/child/probe']) {
          const res = await request(app.server).get(path).expect(200)
          expect(res.text).to.equal('<h1>index</h1>\n')
          expect(res.headers['content-type']).to.match(/^text\/html/)
        }
        for (const path of ['/root-probe', '/outside/probe']) await request(app.server).get(path).expect(200, { sendFile: false })
      })
    })
  }
})
