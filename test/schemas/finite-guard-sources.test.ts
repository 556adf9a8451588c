// The after-validation finite guard: what it walks (plain data only, cycles ended) and where the
// default validator may skip it (data that only strings or the built-in JSON parser made).
import { expect } from 'chai'
import multipart from '@fastify/multipart'
import { createServer } from '../../src/runtime'
import { ajv8CompilersFactory } from '../../src/runtime/schemas'

const numbers = { type: 'object', properties: { n: { type: 'number' }, page: { type: 'integer' } } }

describe('finite guard: the deep walk over a body', () => {
  it('a self-referencing body from a custom parser is answered (the walk ends cycles)', async () => {
    const server = createServer()
    server.addContentTypeParser('application/x-cycle', { parseAs: 'string' }, (_request, text) => {
      const o: Record<string, unknown> = { n: Number(text) }
      o.self = o
      return o
    })
    server.post('/c', { schema: { body: numbers }, validatorCompiler: () => () => true }, async (request) => ({ n: (request.body as { n: number }).n }))
    const res = await server.inject({ method: 'POST', url: '/c', payload: '1', headers: { 'content-type': 'application/x-cycle' } })
    expect(res.statusCode).to.equal(200)
    expect(res.json()).to.deep.equal({ n: 1 })
  })

  it('a self-referencing body that holds Infinity is still a 400 naming it', async () => {
    const server = createServer()
    server.addContentTypeParser('application/x-cycle', { parseAs: 'string' }, () => {
      const o: Record<string, unknown> = { inner: { n: Infinity } }
      o.self = o
      return o
    })
    server.post('/c', { schema: { body: numbers }, validatorCompiler: () => () => true }, async () => ({ ok: true }))
    const res = await server.inject({ method: 'POST', url: '/c', payload: 'x', headers: { 'content-type': 'application/x-cycle' } })
    expect(res.statusCode).to.equal(400)
    expect(res.json<{ message: string }>().message).to.equal('body/inner/n should be a finite number')
  })

  it('a body of more than 10,000 shared objects holding Infinity is a 400 (the walk past its tree budget, with a seen set)', async () => {
    const server = createServer()
    const shared = { n: 1 }
    server.addContentTypeParser('application/x-many', { parseAs: 'string' }, () => ({ list: [...Array.from({ length: 12_000 }, () => shared), { n: -Infinity }] }))
    server.post('/m', { schema: { body: numbers }, validatorCompiler: () => () => true }, async () => ({ ok: true }))
    const res = await server.inject({ method: 'POST', url: '/m', payload: 'x', headers: { 'content-type': 'application/x-many' } })
    expect(res.statusCode).to.equal(400)
    expect(res.json<{ message: string }>().message).to.equal('body/list/12000/n should be a finite number')
  })

  it('one array shared by thousands of references (YAML aliases) is read at most the tree budget plus once more, and its Infinity still found', async () => {
    let reads = 0
    const items = Array.from({ length: 100 }, () => 1)
    const counted = new Proxy(items, { get: (target, key, receiver) => { if (typeof key === 'string' && /^\d+$/.test(key)) reads++; return Reflect.get(target, key, receiver) } })
    const body = { d: Array.from({ length: 5_000 }, () => counted) }
    const server = createServer()
    server.addContentTypeParser('application/x-aliases', { parseAs: 'string' }, () => body)
    server.post('/a', { schema: { body: numbers }, validatorCompiler: () => () => true }, async () => ({ ok: true }))
    const res = await server.inject({ method: 'POST', url: '/a', payload: 'x', headers: { 'content-type': 'application/x-aliases' } })
    expect(res.statusCode).to.equal(200)
    // 500,000 reads as a tree; the walk gives up at 200,000 values and restarts with a seen set.
    expect(reads).to.be.below(200_000 + 5_000 + 100 + 1)
    items[99] = Infinity
    const bad = await server.inject({ method: 'POST', url: '/a', payload: 'x', headers: { 'content-type': 'application/x-aliases' } })
    expect(bad.statusCode).to.equal(400)
    expect(bad.json<{ message: string }>().message).to.equal('body/d/0/99 should be a finite number')
  })

  it('a Buffer or class instance in the body is not walked (a preValidation body holding Infinity inside one passes)', async () => {
    class Holder { n = Infinity }
    const server = createServer()
    server.post('/b', {
      schema: { body: numbers },
      validatorCompiler: () => () => true,
      preValidation: async (request) => { (request as { body: unknown }).body = { file: Buffer.alloc(1024), holder: new Holder() } },
    }, async () => ({ ok: true }))
    const res = await server.inject({ method: 'POST', url: '/b', payload: { n: 1 } })
    expect(res.statusCode).to.equal(200)
  })

  it("a multipart upload with attachFieldsToBody: true under ajv8CompilersFactory is answered (its parts' `fields` are the body)", async () => {
    const server = createServer({ schemaController: { compilersFactory: ajv8CompilersFactory() } })
    await server.register(multipart as never, { attachFieldsToBody: true })
    const schema = { type: 'object', properties: { count: { type: 'object', properties: { value: { type: 'string' } } }, page: { type: 'integer' } }, required: ['count'] }
    server.post('/upload', { schema: { body: schema } }, async (request) => ({ got: (request.body as { count: { value: string } }).count.value }))
    const payload = '--XyZ\r\nContent-Disposition: form-data; name="count"\r\n\r\n3\r\n--XyZ--\r\n'
    const res = await server.inject({ method: 'POST', url: '/upload', headers: { 'content-type': 'multipart/form-data; boundary=XyZ' }, payload })
    expect(res.statusCode).to.equal(200)
    expect(res.json()).to.deep.equal({ got: '3' })
  })
})

describe('finite guard: the default validator skips it only for data from strings or the built-in JSON parser', () => {
  it('a custom querystringParser that produces Infinity is a 400 (querystring/n should be a finite number)', async () => {
    const server = createServer({ querystringParser: (text) => Object.fromEntries([...new URLSearchParams(text)].map(([k, v]) => [k, Number(v)])) })
    server.get('/q', { schema: { querystring: { type: 'object', properties: { n: { type: 'integer' } } } } }, async (request) => ({ n: String((request.query as { n: unknown }).n) }))
    for (const value of ['Infinity', '1e999']) {
      const res = await server.inject({ method: 'GET', url: `/q?n=${value}` })
      expect(res.statusCode, value).to.equal(400)
      expect(res.json<{ message: string }>().message).to.equal('querystring/n should be a finite number')
    }
    expect((await server.inject({ method: 'GET', url: '/q?n=5' })).json()).to.deep.equal({ n: '5' })
  })

  it('a custom content-type parser that produces Infinity is a 400 under the default validator (body/n should be a finite number)', async () => {
    const server = createServer()
    server.addContentTypeParser('application/yaml', { parseAs: 'string' }, (_request, text) => ({ n: Number(String(text).split(':')[1]) }))
    server.post('/y', { schema: { body: numbers } }, async (request) => ({ n: (request.body as { n: number }).n }))
    const bad = await server.inject({ method: 'POST', url: '/y', payload: 'n: .inf', headers: { 'content-type': 'application/yaml' } })
    expect(bad.statusCode).to.equal(400)
    expect(bad.json<{ message: string }>().message).to.equal('body/n should be a finite number')
    const good = await server.inject({ method: 'POST', url: '/y', payload: 'n: 2', headers: { 'content-type': 'application/yaml' } })
    expect(good.json()).to.deep.equal({ n: 2 })
  })

  it('a JSON body replaced by a preValidation hook with one holding Infinity is a 400 under the default validator', async () => {
    const server = createServer()
    server.post('/h', { schema: { body: numbers }, preValidation: async (request) => { (request as { body: unknown }).body = { n: Infinity } } }, async () => ({ ok: true }))
    const res = await server.inject({ method: 'POST', url: '/h', payload: { n: 1 } })
    expect(res.statusCode).to.equal(400)
    expect(res.json<{ message: string }>().message).to.equal('body/n should be a finite number')
  })

  it('a JSON body from the built-in parser is still validated and answered (its walk skipped)', async () => {
    const server = createServer()
    server.post('/j', { schema: { body: numbers } }, async (request) => request.body)
    const res = await server.inject({ method: 'POST', url: '/j', payload: { n: '2.5', page: 3 } })
    expect(res.json()).to.deep.equal({ n: 2.5, page: 3 })
  })
})

describe('maxJsonDepth beyond what the scanner can hold', () => {
  for (const max of [2 ** 31, 2 ** 32 + 1, Number.MAX_SAFE_INTEGER]) {
    it(`${max} means no practical limit: a nested body of 40 bytes or more is accepted`, async () => {
      const server = createServer({ maxJsonDepth: max })
      server.post('/d', async (request) => request.body)
      const payload = JSON.stringify({ name: 'a body of forty bytes or more', tags: [[['x']], { a: [1] }] })
      const res = await server.inject({ method: 'POST', url: '/d', payload, headers: { 'content-type': 'application/json' } })
      expect(res.statusCode, res.body).to.equal(200)
      expect(res.json()).to.deep.equal(JSON.parse(payload))
    })
  }
})
