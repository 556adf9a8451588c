import { expect } from 'chai'
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'

// Issue 16 (cold start): modules most servers never use are loaded on first use, not with Enclave.
describe('modules loaded on first use (issue 16, cold start)', () => {
  it('requiring Enclave loads no ajv 8 module; building an ajv 8 validator does', () => {
    const entry = join(__dirname, '..', '..', 'src', 'runtime')
    const script = `
      const loaded = () => Object.keys(require.cache).some((file) => file.includes('/node_modules/ajv8/'))
      const { ajv8CompilersFactory } = require(${JSON.stringify(entry)})
      const before = loaded()
      const compile = ajv8CompilersFactory().buildValidator({}, {})
      const validate = compile({ schema: { type: 'integer' }, httpPart: 'body' })
      console.log(JSON.stringify({ before, after: loaded(), valid: validate(1), invalid: validate('x') }))`
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 30_000 }))
    expect(out).to.deep.equal({ before: false, after: true, valid: true, invalid: false })
  })

  it('requiring Enclave and listening load no light-my-request; the first inject() does', () => {
    const entry = join(__dirname, '..', '..', 'src', 'runtime')
    const script = `
      const loaded = () => Object.keys(require.cache).some((file) => file.includes('/node_modules/light-my-request/'))
      const { createServer } = require(${JSON.stringify(entry)})
      const app = createServer({ logger: false })
      app.get('/', async () => ({ ok: true }))
      app.listen({ port: 0, host: '127.0.0.1' }).then(async () => {
        const before = loaded()
        const response = await app.inject('/')
        console.log(JSON.stringify({ before, after: loaded(), body: response.json() }))
        await app.close()
      })`
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 30_000 }))
    expect(out).to.deep.equal({ before: false, after: true, body: { ok: true } })
  })
})

// coldstart14: the schema compilers, the logger and node:cluster are loaded when an app uses them.
describe('schema compilers, pino and node:cluster loaded on first use (issue 16, cold start)', () => {
  const entry = join(__dirname, '..', '..', 'src')
  const probe = `
    // Each package's entry file (fast-json-stringify's serializer helpers are loaded on their own: error-payload.ts).
    const entries = { ajv: '/node_modules/ajv/lib/ajv.js', ajv8: '/node_modules/ajv8/', 'fast-json-stringify': '/node_modules/fast-json-stringify/index.js', 'ajv-formats': '/node_modules/ajv-formats/', pino: '/node_modules/pino/' }
    const loaded = () => {
      const files = Object.keys(require.cache)
      const out = {}
      for (const pkg in entries) out[pkg] = files.some((file) => file.includes(entries[pkg]))
      out.cluster = process.moduleLoadList.includes('NativeModule cluster')
      return out
    }`
  const run = (body: string): Record<string, unknown> => JSON.parse(execFileSync(process.execPath, ['-e', `${probe}\n${body}`], { encoding: 'utf8', timeout: 30_000 }))
  const none = { ajv: false, ajv8: false, 'fast-json-stringify': false, 'ajv-formats': false, pino: false, cluster: false }

  it('requiring Enclave loads no ajv 6, ajv 8, ajv-formats, fast-json-stringify, pino or node:cluster', () => {
    expect(run(`require(${JSON.stringify(entry)}); console.log(JSON.stringify(loaded()))`)).to.deep.equal(none)
  })

  it('an app without schemas or logger answers, 404 included, without loading them', () => {
    const out = run(`
      const { createServer } = require(${JSON.stringify(entry)})
      const app = createServer()
      app.get('/', async () => ({ ok: true }))
      app.ready().then(async () => {
        const ok = await app.inject('/')
        const missing = await app.inject('/nope')
        console.log(JSON.stringify({ loaded: loaded(), ok: ok.body, missing: missing.body }))
      })`)
    expect(out).to.deep.equal({ loaded: none, ok: '{"ok":true}', missing: '{"message":"Route GET:/nope not found","error":"Not Found","statusCode":404}' })
  })

  it('an eager app loads ajv 6 and fast-json-stringify by ready(), before its first request, and answers with the same 400', () => {
    const out = run(`
      const { createServer } = require(${JSON.stringify(entry)})
      const app = createServer()
      app.post('/', { schema: { body: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } }, response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } } } }, async (req) => req.body)
      const atCreate = loaded()
      app.ready().then(async () => {
        const atReady = loaded()
        const bad = await app.inject({ method: 'POST', url: '/', payload: { n: 'x' } })
        const good = await app.inject({ method: 'POST', url: '/', payload: { n: '3', extra: 1 } })
        console.log(JSON.stringify({ atCreate: atCreate.ajv || atCreate['fast-json-stringify'], ajv: atReady.ajv, fjs: atReady['fast-json-stringify'], bad: bad.json(), good: good.body }))
      })`)
    expect(out).to.deep.equal({
      atCreate: false, ajv: true, fjs: true,
      bad: { statusCode: 400, error: 'Bad Request', message: 'body/n should be integer' },
      good: '{"n":3}',
    })
  })

  it('a lazy app loads ajv 6 at its first request to a route with a schema, and answers it as an eager app does', () => {
    const out = run(`
      const { createServer } = require(${JSON.stringify(entry)})
      const app = createServer({ schemaCompilation: 'lazy' })
      app.get('/', { schema: { querystring: { type: 'object', properties: { n: { type: 'integer' } } } } }, async (req) => req.query)
      app.ready().then(async () => {
        const atReady = loaded().ajv
        const bad = await app.inject('/?n=x')
        console.log(JSON.stringify({ atReady, after: loaded().ajv, bad: bad.json() }))
      })`)
    expect(out).to.deep.equal({ atReady: false, after: true, bad: { statusCode: 400, error: 'Bad Request', message: 'querystring/n should be integer' } })
  })

  it('a configured logger loads pino when the server is created', () => {
    const out = run(`
      const { createServer } = require(${JSON.stringify(entry)})
      const before = loaded().pino
      createServer({ logger: { level: 'silent' } })
      console.log(JSON.stringify({ before, after: loaded().pino }))`)
    expect(out).to.deep.equal({ before: false, after: true })
  })
})
