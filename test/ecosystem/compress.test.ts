import { expect } from 'chai'
import request from 'supertest'
import { Readable } from 'node:stream'
import { gzipSync } from 'node:zlib'
import compress from '@fastify/compress'
import { affected, modes, topology, unaffected } from './helpers'
import type { Reply } from '../../src/runtime'

const big = { items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `item number ${i}` })) }

// @fastify/compress README: replies over `threshold` bytes are compressed with the best encoding
// the client accepts (route by route, through onRoute); reply.compress(stream) compresses a
// stream; request bodies with Content-Encoding are decompressed.
describe('@fastify/compress in Enclave', () => {
  for (const mode of modes) {
    describe(`registered in a ${mode}`, () => {
      it('gzips large replies in the registering context and its descendants only', async () => {
        const app = await topology(mode, { plugin: compress, probe: async () => big })
        for (const path of affected) {
          const res = await request(app.server).get(path).set('accept-encoding', 'gzip').expect(200)
          expect(res.headers['content-encoding'], path).to.equal('gzip')
          expect(res.headers.vary, path).to.match(/accept-encoding/i)
          expect(res.body).to.deep.equal(big)
        }
        for (const path of unaffected) {
          const res = await request(app.server).get(path).set('accept-encoding', 'gzip').expect(200)
          expect(res.headers['content-encoding'], path).to.equal(undefined)
          expect(res.body).to.deep.equal(big)
        }
      })

      it('leaves replies under the threshold and clients without Accept-Encoding alone', async () => {
        const app = await topology(mode, { plugin: compress })
        const small = await request(app.server).get('/inside/probe').set('accept-encoding', 'gzip').expect(200, { ok: true })
        expect(small.headers['content-encoding']).to.equal(undefined)
      })

      it('compresses a stream with reply.compress()', async () => {
        const app = await topology(mode, {
          plugin: compress,
          probe: (_req, reply: Reply) => { reply.type('text/plain'); (reply.compress as (s: Readable) => void)(Readable.from(['streamed ', 'text'])) ; return reply },
        })
        const res = await request(app.server).get('/inside/probe').set('accept-encoding', 'gzip').expect(200)
        expect(res.headers['content-encoding']).to.equal('gzip')
        expect(res.text).to.equal('streamed text')
      })

      it('decompresses a gzip request body', async () => {
        const app = await topology(mode, { plugin: compress, probe: async (req) => ({ got: req.body ?? null }) })
        const res = await request(app.server).post('/inside/probe').set('content-type', 'application/json').set('content-encoding', 'gzip')
          .serialize((body: unknown) => body as string).send(gzipSync(JSON.stringify({ hello: 'world' })) as never).expect(200)
        expect(res.body).to.deep.equal({ got: { hello: 'world' } })
      })

      it('answers a body that does not decompress with the plugin\'s 400', async () => {
        const app = await topology(mode, { plugin: compress })
        const res = await request(app.server).post('/inside/probe').set('content-type', 'application/json').set('content-encoding', 'gzip')
          .serialize((body: unknown) => body as string).send(Buffer.from('not gzip at all') as never).expect(400)
        expect(res.body.code).to.equal('FST_CP_ERR_INVALID_CONTENT')
      })
    })
  }
})
