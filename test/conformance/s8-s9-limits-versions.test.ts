// Spec §8 "Limits" (not shown: the limits Enclave chose) and §9 "Versioning".
import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ajv8CompilersFactory, type Request, type Scope, type ValidatorPlugin } from '../../src'
import { badRequest, build, http, server } from './helpers'

const root = join(__dirname, '..', '..', '..')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  version: string; dependencies: Record<string, string>; devDependencies: Record<string, string>
}
const installed = (name: string): string => JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version

describe('conformance §8: limits (not shown; Enclave chose these)', () => {
  it('§8-body-limit: bodies over 1 MiB (default bodyLimit) answer 413', async () => {
    const app = await build((r) => { r.post('/b', async (req: Request) => ({ size: JSON.stringify(req.body).length })) })
    const fits = JSON.stringify({ data: 'x'.repeat(1024 * 1024 - 20) })
    await http(app).post('/b').set('content-type', 'application/json').send(fits).expect(200)
    const tooBig = JSON.stringify({ data: 'x'.repeat(1024 * 1024) })
    const res = await http(app).post('/b').set('content-type', 'application/json').send(tooBig).expect(413)
    expect(res.body).to.include({ statusCode: 413, code: 'ENC_ERR_CTP_BODY_TOO_LARGE' })
    const small = await build((r) => { r.post('/b', async () => ({})) }, { bodyLimit: 10 })
    await http(small).post('/b').send({ data: 'more than ten bytes' }).expect(413)
  })

  it('§8-param-length: a route parameter longer than 100 characters (maxParamLength) answers 414', async () => {
    const app = await build((r) => { r.get('/p/:id', async (req: Request) => ({ length: (req.params.id as string).length })) })
    await http(app).get(`/p/${'a'.repeat(100)}`).expect(200, { length: 100 })
    const res = await http(app).get(`/p/${'a'.repeat(101)}`).expect(414)
    expect(res.body).to.include({ statusCode: 414, code: 'ENC_ERR_PARAM_TOO_LONG' })
  })

  it('§8-json-depth: a JSON body nested deeper than 1000 levels answers 400', async () => {
    const app = await build((r) => { r.post('/d', async () => ({ ok: true })) })
    const deep = (n: number): string => '['.repeat(n) + ']'.repeat(n)
    await http(app).post('/d').set('content-type', 'application/json').send(deep(1000)).expect(200)
    const res = await http(app).post('/d').set('content-type', 'application/json').send(deep(1001)).expect(400)
    expect(res.body).to.include({ statusCode: 400, code: 'ENC_ERR_CTP_JSON_TOO_DEEP' })
  })

  it('§8-query-keys: a query string with more than 1000 keys answers 414 (never truncated)', async () => {
    const app = await build((r) => { r.get('/q', async (req: Request) => ({ keys: Object.keys(req.query).length })) })
    const query = (n: number): string => Array.from({ length: n }, (_, i) => `k${i}=1`).join('&')
    await http(app).get(`/q?${query(1000)}`).expect(200, { keys: 1000 })
    const res = await http(app).get(`/q?${query(1001)}`).expect(414)
    expect(res.body).to.include({ statusCode: 414, code: 'ENC_ERR_QUERY_TOO_MANY_KEYS' })
  })

  it('§8-timeouts: headers 30 s, whole request 120 s, idle keep-alive 5 s; each configurable', async () => {
    const app = server()
    expect([app.server.headersTimeout, app.server.requestTimeout, app.server.keepAliveTimeout]).to.deep.equal([30_000, 120_000, 5_000])
    const custom = server({ headersTimeout: 1_000, requestTimeout: 2_000, keepAliveTimeout: 3_000 })
    expect([custom.server.headersTimeout, custom.server.requestTimeout, custom.server.keepAliveTimeout]).to.deep.equal([1_000, 2_000, 3_000])
  })

  it('§8-no-rate-limit: the framework applies no rate limit of its own', async () => {
    const app = await build((r) => { r.get('/', async () => ({ ok: true })) })
    const address = await app.listen(0)
    const statuses = await Promise.all(Array.from({ length: 200 }, () => fetch(address).then((res) => res.status)))
    expect(new Set(statuses)).to.deep.equal(new Set([200]))
  })

  it('§8-schema-limits: limits written in a schema (maxItems) belong to that schema, not to the framework', async () => {
    const app = await build((r) => {
      r.post('/limited', { schema: { body: { type: 'object', properties: { tags: { type: 'array', maxItems: 2 } } } } }, async () => ({ ok: true }))
      r.post('/unlimited', { schema: { body: { type: 'object', properties: { tags: { type: 'array' } } } } }, async () => ({ ok: true }))
    })
    const tags = Array.from({ length: 500 }, (_, i) => `t${i}`)
    await http(app).post('/limited').send({ tags }).expect(400, badRequest('body/tags should NOT have more than 2 items'))
    await http(app).post('/unlimited').send({ tags }).expect(200, { ok: true })
  })
})

describe('conformance §9: versioning', () => {
  it('§9-release-line: the release line covered is 3.27.4: Enclave answers like Fastify 3.27.4 on the same route', async () => {
    expect(pkg.devDependencies.fastify3).to.equal('npm:fastify@3.27.4')
    const fastify = require('fastify3')({ logger: false })
    const schema = { body: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, age: { type: 'integer' } } } }
    fastify.post('/u', { schema }, async (req: { body: unknown }) => req.body)
    await fastify.ready()
    const app = await build((r) => { r.post('/u', { schema }, async (req: Request) => req.body) })
    try {
      for (const body of [{}, { name: 'ada', age: '36' }]) {
        const reference = await fastify.inject({ method: 'POST', url: '/u', payload: body })
        const ours = await http(app).post('/u').send(body)
        expect({ status: ours.status, text: ours.text }).to.deep.equal({ status: reference.statusCode, text: reference.body })
      }
    } finally {
      await fastify.close()
    }
  })

  it('§9-engine-ajv6: the validator engine is JSON Schema validator (ajv) major version 6', async () => {
    expect(pkg.dependencies.ajv).to.match(/^6\.\d+\.\d+$/)
    expect(installed('ajv')).to.match(/^6\./)
    // ajv 6 wording ("should"), where ajv 8 says "must".
    const app = await build((r) => { r.post('/u', { schema: { body: { type: 'object', required: ['name'] } } }, async () => ({})) })
    await http(app).post('/u').send({}).expect(400, badRequest("body should have required property 'name'"))
  })

  it('§9-ajv8: ajv 8 is used through the schemaController setting (ajv8CompilersFactory), no custom validator to write', async () => {
    const declare = (r: Scope) => {
      r.addSchema({ $id: 'card', type: 'object', required: ['number'], properties: { number: { type: 'string', maxLength: 4 } } })
      r.post('/u', { schema: { body: { type: 'object', required: ['name'], properties: { card: { $ref: 'card#' }, n: { type: 'integer' } } } } },
        async (req: Request) => req.body)
    }
    const ajv8 = await build(declare, { schemaController: { compilersFactory: ajv8CompilersFactory() } })
    // ajv 8 wording ("must"), shared schemas and the baseline coercion all in place.
    await http(ajv8).post('/u').send({}).expect(400, badRequest("body must have required property 'name'"))
    await http(ajv8).post('/u').send({ name: 'a', card: {} }).expect(400, badRequest("body/card must have required property 'number'"))
    await http(ajv8).post('/u').send({ name: 'a', card: { number: '4111' }, n: '3' }).expect(200, { name: 'a', card: { number: '4111' }, n: 3 })
    const ajv6 = await build(declare)
    await http(ajv6).post('/u').send({}).expect(400, badRequest("body should have required property 'name'"))
  })

  it('§9-plugins-major6: the validator plugins used are the versions compatible with major version 6', async () => {
    expect(pkg.devDependencies['ajv-merge-patch']).to.match(/^4\.\d+\.\d+$/)
    expect(pkg.devDependencies['ajv-i18n']).to.match(/^3\.\d+\.\d+$/)
    const plugins: ValidatorPlugin[] = [require('ajv-errors'), require('ajv-merge-patch')]
    const app = await build((r) => {
      r.post('/u', { schema: { body: { $merge: { source: { type: 'object' }, with: { required: ['a'], errorMessage: { required: { a: 'a!' } } } } } } }, async () => ({ ok: true }))
    }, { validator: { customOptions: { allErrors: true, jsonPointers: true }, plugins } })
    await http(app).post('/u').send({ a: 1 }).expect(200, { ok: true })
    const res = await http(app).post('/u').send({}).expect(400)
    expect(res.body.message).to.match(/^body a!/)
  })

  it('§9-ajv-errors-pinned: the custom-error-message plugin is pinned at exactly 1.0.1', () => {
    expect(pkg.devDependencies['ajv-errors']).to.equal('1.0.1')
    expect(installed('ajv-errors')).to.equal('1.0.1')
  })

  it('§9-listen-release: listen(port[, host]) takes the port number as first argument (release line)', async () => {
    const app = server()
    app.get('/', async () => ({ line: 'release' }))
    const address = await app.listen(0, '127.0.0.1')
    expect(await (await fetch(address)).json()).to.deep.equal({ line: 'release' })
  })

  it('§9-listen-development: listen({ port, host }) takes an options object (development line)', async () => {
    const app = server()
    app.get('/', async () => ({ line: 'development' }))
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    expect(address).to.match(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(await (await fetch(address)).json()).to.deep.equal({ line: 'development' })
  })

  it('§9-no-path-version: the framework puts no version in paths: routes answer at the path declared', async () => {
    const app = await build((r) => { r.get('/users', async () => ({ users: [] })) })
    await http(app).get('/users').expect(200, { users: [] })
    await http(app).get('/v1/users').expect(404)
  })

  it('§9-version-policy: (not shown) semantic versioning; every dependency pinned to an exact version', () => {
    expect(pkg.version).to.match(/^\d+\.\d+\.\d+$/)
    for (const [name, range] of Object.entries({ ...pkg.dependencies, ...pkg.devDependencies })) {
      expect(range, name).to.match(/^(npm:[\w@./-]+@)?\d+\.\d+\.\d+$/)
    }
  })
})
