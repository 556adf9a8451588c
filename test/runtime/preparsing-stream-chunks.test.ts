// A preParsing hook's replacement stream: its chunks are bytes for the body limit and the JSON
// parser whatever the stream emits (strings, Uint8Arrays), and an object-mode chunk is a coded 500.
import { Readable } from 'node:stream'
import { expect } from 'chai'
import { createServer } from '../../src/runtime'
import { recordingLogger } from '../support/servers'

describe('a preParsing hook that returns a stream of strings (Readable.from(text))', () => {
  for (const text of ['{"a":1}', JSON.stringify({ name: 'a body of forty bytes or more, well over it' }), JSON.stringify({ name: 'héllo wörld — ünïcode over forty bytes ✓✓✓' })]) {
    it(`has its JSON body parsed from the text's bytes (${Buffer.byteLength(text)} bytes)`, async () => {
      const server = createServer()
      server.post('/p', { preParsing: async (_request: unknown, _reply: unknown, _payload: unknown) => Readable.from(text) }, async (request) => ({ body: request.body }))
      const res = await server.inject({ method: 'POST', url: '/p', payload: '{}', headers: { 'content-type': 'application/json' } })
      expect(res.statusCode, res.body).to.equal(200)
      expect(res.json()).to.deep.equal({ body: JSON.parse(text) })
    })
  }

  it('a stream that emits an object (object mode) is a 500 ENC_ERR_BODY_INVALID_CHUNK, logged, and the server keeps serving', async () => {
    const log = recordingLogger()
    const server = createServer({ logger: log })
    server.post('/o', { preParsing: async (_request: unknown, _reply: unknown, _payload: unknown) => Readable.from([{ a: 1 }]) }, async () => ({ ok: true }))
    server.post('/ok', async () => ({ ok: true }))
    const res = await server.inject({ method: 'POST', url: '/o', payload: { a: 0 } })
    expect(res.statusCode).to.equal(500)
    expect(res.json()).to.deep.equal({ statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
    expect(log.entries.some((entry) => (entry.obj?.err as { code?: string } | undefined)?.code === 'ENC_ERR_BODY_INVALID_CHUNK')).to.equal(true)
    expect((await server.inject({ method: 'POST', url: '/ok', payload: { a: 0 } })).statusCode).to.equal(200)
  })

  it('counts bytes, not characters, against bodyLimit', async () => {
    const text = JSON.stringify({ s: 'é'.repeat(30) })
    const server = createServer()
    server.post('/p', { bodyLimit: text.length + 5, preParsing: async (_request: unknown, _reply: unknown, _payload: unknown) => Readable.from(text) }, async () => ({ ok: true }))
    const res = await server.inject({ method: 'POST', url: '/p', payload: '{}', headers: { 'content-type': 'application/json' } })
    expect(res.statusCode).to.equal(413)
  })
})
