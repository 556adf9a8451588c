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

describe('a body read in any number of chunks', () => {
  const text = JSON.stringify({ name: 'a body of forty bytes or more, well over it', n: 1 })
  const bytes = Buffer.from(text)
  const splits: Record<string, Buffer[]> = {
    'one chunk': [bytes],
    'two chunks': [bytes.subarray(0, 10), bytes.subarray(10)],
    'five chunks': [0, 3, 9, 20, 41].map((at, i, all) => bytes.subarray(at, all[i + 1] ?? bytes.length)),
  }
  for (const [name, chunks] of Object.entries(splits)) {
    it(`is the same body from ${name}, for the JSON parser and for a declared buffer or string parser`, async () => {
      const server = createServer()
      const stream = async (_request: unknown, _reply: unknown, _payload: unknown): Promise<Readable> => Readable.from(chunks.map((chunk) => Buffer.from(chunk)))
      server.addContentTypeParser('application/x-buf', { parseAs: 'buffer' }, (_request, body) => ({ buf: (body as Buffer).toString('utf8') }))
      server.addContentTypeParser('application/x-str', { parseAs: 'string' }, (_request, body) => ({ str: body }))
      server.post('/p', { preParsing: stream }, async (request) => ({ body: request.body }))
      for (const [type, expected] of [['application/json', JSON.parse(text)], ['application/x-buf', { buf: text }], ['application/x-str', { str: text }]] as const) {
        const res = await server.inject({ method: 'POST', url: '/p', payload: '{}', headers: { 'content-type': type } })
        expect(res.statusCode, res.body).to.equal(200)
        expect(res.json()).to.deep.equal({ body: expected })
      }
    })
  }

  it('from no chunk at all is an empty body: 400 for JSON, an empty string for a string parser', async () => {
    const server = createServer()
    server.addContentTypeParser('application/x-str', { parseAs: 'string' }, (_request, body) => ({ str: body }))
    server.post('/p', { preParsing: async (_request: unknown, _reply: unknown, _payload: unknown) => Readable.from([]) }, async (request) => ({ body: request.body }))
    const json = await server.inject({ method: 'POST', url: '/p', payload: '{}', headers: { 'content-type': 'application/json' } })
    expect(json.statusCode).to.equal(400)
    expect(json.json()).to.have.property('code', 'ENC_ERR_CTP_EMPTY_JSON_BODY')
    const str = await server.inject({ method: 'POST', url: '/p', payload: '{}', headers: { 'content-type': 'application/x-str' } })
    expect(str.json()).to.deep.equal({ body: { str: '' } })
  })
})

describe('a preParsing hook that declares fewer parameters than (request, reply, payload)', () => {
  // Fastify 3 hands every non-legacy hook the payload and takes its promise's stream: only the
  // legacy arity (async 2, sync 3) is the legacy form (differential content-types 6:289).
  for (const [form, hook] of [
    ['async ()', async () => Readable.from('{"replaced":true}')],
    ['async (request)', async (_request: unknown) => Readable.from('{"replaced":true}')],
    ['a sync () returning a promise', () => Promise.resolve(Readable.from('{"replaced":true}'))],
  ] as const) {
    it(`${form}: the stream it resolves to is the body`, async () => {
      const server = createServer()
      server.post('/p', { preParsing: hook as never }, async (request) => ({ body: request.body }))
      const res = await server.inject({ method: 'POST', url: '/p', payload: 'not json', headers: { 'content-type': 'application/json' } })
      expect(res.statusCode, res.body).to.equal(200)
      expect(res.json()).to.deep.equal({ body: { replaced: true } })
    })
  }
})
