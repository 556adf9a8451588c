// Spec §3 (states and transitions: not shown), §3.1 (order of processing) and §3.2 (type coercion,
// the per-part validator compiler).
import { expect } from 'chai'
import Ajv from 'ajv'
import { partValidatorCompiler, type Request } from '../../src'
import { badRequest, bootError, build, http, server, thrown } from './helpers'

const required = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } }

describe('conformance §3: states and transitions (not shown; Enclave: declare, boot, serve, close)', () => {
  it('§3-lifecycle: declarations are refused after boot, a second listen is refused, close stops serving', async () => {
    const app = await build((root) => { root.get('/', async () => ({ ok: true })) })
    expect(thrown(() => app.get('/late', async () => ({}))).code).to.equal('ENC_ERR_SCOPE_BOOTED')
    expect(thrown(() => app.decorateRequest('late', 1)).code).to.equal('ENC_ERR_SCOPE_BOOTED')
    const address = await app.listen(0)
    let second: (Error & { code?: string }) | null = null
    await app.listen(0).catch((error: Error & { code?: string }) => { second = error })
    expect(second).to.have.property('code', 'ENC_ERR_SERVER_LISTENING')
    expect((await fetch(`${address}/`)).status).to.equal(200)
    await app.close()
    expect(app.server.listening).to.equal(false)
  })
})

describe('conformance §3.1: order of processing', () => {
  it('§3.1.1-validate-parts: the request parts are validated, every parsed body included (deliberate deviation from "only JSON", §1.6)', async () => {
    const app = await build((root) => {
      root.post('/u', { schema: { body: required, querystring: { v: { type: 'integer' } } } }, async (req: Request) => ({ body: req.body, v: req.query.v }))
    })
    await http(app).post('/u?v=1').send({ name: 'a' }).expect(200, { body: { name: 'a' }, v: 1 })
    await http(app).post('/u?v=1').send({}).expect(400, badRequest("body should have required property 'name'"))
    // Not JSON: the body schema applies all the same (issue 12 §1), and so does the query string schema.
    await http(app).post('/u?v=1').set('content-type', 'text/plain').send('hello').expect(400, badRequest('body should be object'))
    await http(app).post('/u?v=x').send({ name: 'a' }).expect(400, badRequest('querystring/v should be integer'))
  })

  it('§3.1.2-fail-fast: without attachValidation a failure is answered 400 at once and the handler does not run', async () => {
    let calls = 0
    const app = await build((root) => {
      root.post('/u', { schema: { body: required } }, async () => { calls++; return {} })
    })
    await http(app).post('/u').send({}).expect(400)
    expect(calls).to.equal(0)
    await http(app).post('/u').send({ name: 'a' }).expect(200)
    expect(calls).to.equal(1)
  })

  it('§3.1.3-attachValidation: with attachValidation the handler runs with request.validationError present', async () => {
    let calls = 0
    const app = await build((root) => {
      root.post('/u', { schema: { body: required }, attachValidation: true }, async (req: Request) => {
        calls++
        return { error: req.validationError?.message ?? null }
      })
    })
    await http(app).post('/u').send({}).expect(200, { error: "body should have required property 'name'" })
    expect(calls).to.equal(1)
  })

  it('§3.1.4-hooks-after-validation: preHandler runs after validation has completed', async () => {
    const seen: unknown[] = []
    const app = await build((root) => {
      root.addHook('preHandler', async (req: Request) => { seen.push(req.query.n) })
      root.get('/n', { schema: { querystring: { n: { type: 'integer' } } } }, async () => ({ ok: true }))
    })
    await http(app).get('/n?n=5').expect(200)
    await http(app).get('/n?n=x').expect(400)
    // The hook saw the coerced number, and did not run for the request that failed validation.
    expect(seen).to.deep.equal([5])
  })

  it('§3.1.5-serialize-by-status: the response schema of the exact code is used, else the range key, else none', async () => {
    const app = await build((root) => {
      root.get('/r/:code', {
        schema: {
          response: {
            201: { type: 'object', properties: { exact: { type: 'string' } } },
            '2xx': { type: 'object', properties: { range: { type: 'string' } } },
          },
        },
      }, async (req: Request, reply) => reply.code(Number(req.params.code)).send({ exact: 'e', range: 'r', other: 'o' }))
    })
    expect((await http(app).get('/r/201').expect(201)).text).to.equal('{"exact":"e"}')
    expect((await http(app).get('/r/200').expect(200)).text).to.equal('{"range":"r"}')
    // No schema for 4xx: the payload is sent as JSON, unfiltered.
    expect((await http(app).get('/r/409').expect(409)).body).to.deep.equal({ exact: 'e', range: 'r', other: 'o' })
  })
})

describe('conformance §3.2: type coercion', () => {
  it('§3.2-coerce-default: values are coerced to the schema types to pass validation and reach the handler typed', async () => {
    const app = await build((root) => {
      root.get('/c/:id', {
        schema: {
          params: { id: { type: 'integer' } },
          querystring: { on: { type: 'boolean' }, ratio: { type: 'number' } },
          headers: { 'x-count': { type: 'integer' } },
        },
      }, async (req: Request) => ({
        id: req.params.id, on: req.query.on, ratio: req.query.ratio, count: req.headers['x-count'],
        types: [typeof req.params.id, typeof req.query.on, typeof req.query.ratio, typeof req.headers['x-count']],
      }))
    })
    await http(app).get('/c/7?on=true&ratio=0.5').set('x-count', '3')
      .expect(200, { id: 7, on: true, ratio: 0.5, count: 3, types: ['number', 'boolean', 'number', 'number'] })
  })

  it('§3.2-per-part: a validator compiler picks a validator by httpPart, so coercion is set per part', async () => {
    const strict = new Ajv({ coerceTypes: false, jsonPointers: true })
    const coercing = new Ajv({ coerceTypes: 'array', jsonPointers: true })
    const app = await build((root) => {
      root.setValidatorCompiler(partValidatorCompiler({ body: strict, querystring: coercing, params: coercing, headers: coercing }))
      root.post('/p', {
        schema: {
          body: { type: 'object', properties: { n: { type: 'integer' } } },
          querystring: { type: 'object', properties: { n: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } } },
        },
      }, async (req: Request) => ({ body: req.body, query: req.query }))
    })
    // The query string is coerced (and a single value becomes an array); the body is not.
    await http(app).post('/p?n=42&tags=a').send({ n: 1 }).expect(200, { body: { n: 1 }, query: { n: 42, tags: ['a'] } })
    await http(app).post('/p?n=42').send({ n: '1' }).expect(400, badRequest('body/n should be integer'))
  })

  it('§3.2-per-part-missing: the per-part compiler raises an error when httpPart is missing', () => {
    const compiler = partValidatorCompiler({ body: new Ajv() })
    const error = thrown(() => compiler({ schema: { type: 'object' }, method: 'POST', url: '/p' }))
    expect(error.code).to.equal('ENC_ERR_SCH_PART_VALIDATOR_MISSING')
    expect(error.message).to.contain('no httpPart')
  })

  it('§3.2-per-part-unknown: the per-part compiler raises an error when no validator exists for httpPart', async () => {
    const compiler = partValidatorCompiler({ body: new Ajv() })
    expect(thrown(() => compiler({ schema: { type: 'object' }, method: 'GET', url: '/p', httpPart: 'cookies' })).code)
      .to.equal('ENC_ERR_SCH_PART_VALIDATOR_MISSING')
    // Through a server: a route with a headers schema and no headers validator fails at boot.
    const app = server()
    app.setValidatorCompiler(compiler)
    app.get('/h', { schema: { headers: { type: 'object', required: ['x-id'] } } }, async () => ({}))
    const error = await bootError(app)
    expect(error.code).to.equal('ENC_ERR_SCH_PART_VALIDATOR_MISSING')
    expect(error.message).to.contain("httpPart 'headers'")
  })
})
