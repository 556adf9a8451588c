// Spec §2.4 (default validation error payload), §2.5 (properties added to validation errors) and
// §2.6 (request properties: validationError, decorators).
import { expect } from 'chai'
import type { Request, Scope } from '../../src'
import { badRequest, build, http } from './helpers'

type Caught = Error & { validation?: unknown; validationContext?: unknown; statusCode?: unknown }

const required = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } }

/** A server whose error handler keeps the error it receives, then answers it as the default would. */
async function catching(declare: (root: Scope) => void): Promise<{ app: Scope; caught: Caught[] }> {
  const caught: Caught[] = []
  const app = await build((root) => {
    root.setErrorHandler((error, _req, reply) => {
      caught.push(error)
      reply.status(error.statusCode as number).send({ message: error.message })
    })
    declare(root)
  })
  return { app, caught }
}

describe('conformance §2.4: validation error payload (default)', () => {
  it('§2.4-payload: exactly statusCode, error and message, in that order, as JSON', async () => {
    const app = await build((root) => { root.post('/u', { schema: { body: required } }, async () => ({})) })
    const res = await http(app).post('/u').send({}).expect(400).expect('content-type', /^application\/json/)
    expect(res.text).to.equal('{"statusCode":400,"error":"Bad Request","message":"body should have required property \'name\'"}')
  })

  it('§2.4-statusCode: statusCode is the integer 400', async () => {
    const app = await build((root) => { root.get('/q', { schema: { querystring: { n: { type: 'integer' } } } }, async () => ({})) })
    const res = await http(app).get('/q?n=x').expect(400)
    expect(res.body.statusCode).to.equal(400)
    expect(Number.isInteger(res.body.statusCode)).to.equal(true)
  })

  it('§2.4-error: error is the status reason text for 400', async () => {
    const app = await build((root) => { root.get('/q', { schema: { querystring: { n: { type: 'integer' } } } }, async () => ({})) })
    const res = await http(app).get('/q?n=x').expect(400)
    expect(res.body.error).to.equal('Bad Request')
  })

  it("§2.4-message: message is human-readable text built from the validator's errors", async () => {
    const app = await build((root) => {
      root.post('/u', { schema: { body: { type: 'object', required: ['a', 'b'], properties: { c: { type: 'integer' } } } } }, async () => ({}))
    }, { validator: { customOptions: { allErrors: true } } })
    const res = await http(app).post('/u').send({ c: 'x' }).expect(400)
    expect(res.body.message).to.equal("body should have required property 'a', body should have required property 'b', body/c should be integer")
  })

  it("§2.4-msg-required: missing required property reads body should have required property '<property>'", async () => {
    const app = await build((root) => { root.post('/u', { schema: { body: required } }, async () => ({})) })
    await http(app).post('/u').send({ other: 1 }).expect(400, badRequest("body should have required property 'name'"))
  })

  it('§2.4-msg-array: type failure on an array parameter reads querystring/<property> should be array', async () => {
    const app = await build((root) => {
      root.get('/q', { schema: { querystring: { hello: { type: 'array', items: { type: 'string' } } } } }, async () => ({}))
    })
    await http(app).get('/q?hello=world').expect(400, badRequest('querystring/hello should be array'))
  })
})

describe('conformance §2.5: properties added to validation errors', () => {
  it('§2.5-validation: validation holds the raw validator errors', async () => {
    const { app, caught } = await catching((root) => { root.post('/u', { schema: { body: required } }, async () => ({})) })
    await http(app).post('/u').send({}).expect(400)
    expect(caught).to.have.length(1)
    expect(caught[0].validation).to.deep.equal([{
      keyword: 'required', dataPath: '', schemaPath: '#/required', params: { missingProperty: 'name' },
      message: "should have required property 'name'",
    }])
  })

  it('§2.5-context-body: validationContext is body for a body failure', async () => {
    const { app, caught } = await catching((root) => { root.post('/u', { schema: { body: required } }, async () => ({})) })
    await http(app).post('/u').send({}).expect(400)
    expect(caught[0].validationContext).to.equal('body')
  })

  it('§2.5-context-params: validationContext is params for a params failure', async () => {
    const { app, caught } = await catching((root) => { root.get('/i/:id', { schema: { params: { id: { type: 'integer' } } } }, async () => ({})) })
    await http(app).get('/i/x').expect(400)
    expect(caught[0].validationContext).to.equal('params')
  })

  it('§2.5-context-headers: validationContext is headers for a headers failure', async () => {
    const { app, caught } = await catching((root) => {
      root.get('/h', { schema: { headers: { type: 'object', required: ['x-id'] } } }, async () => ({}))
    })
    await http(app).get('/h').expect(400)
    expect(caught[0].validationContext).to.equal('headers')
  })

  it('§2.5-context-query: validationContext is query for a query string failure', async () => {
    const { app, caught } = await catching((root) => { root.get('/q', { schema: { querystring: { n: { type: 'integer' } } } }, async () => ({})) })
    await http(app).get('/q?n=x').expect(400)
    expect(caught[0].validationContext).to.equal('query')
    // The message keeps the spec's querystring/<property> wording.
    expect(caught[0].message).to.equal('querystring/n should be integer')
  })

  it('§2.5-statusCode: statusCode holds the status to answer with (400)', async () => {
    const { app, caught } = await catching((root) => { root.post('/u', { schema: { body: required } }, async () => ({})) })
    await http(app).post('/u').send({}).expect(400, { message: "body should have required property 'name'" })
    expect(caught[0].statusCode).to.equal(400)
    expect(caught[0]).to.be.instanceOf(Error)
  })
})

describe('conformance §2.6: request properties', () => {
  it('§2.6-validationError: with attachValidation, a failed validation sets request.validationError, an Error holding the raw result', async () => {
    const app = await build((root) => {
      root.post('/u', { schema: { body: required }, attachValidation: true }, async (req: Request) => {
        const error = req.validationError
        return {
          isError: error instanceof Error,
          message: error?.message,
          keywords: (error?.validation as Array<{ keyword: string }>).map((e) => e.keyword),
          context: error?.validationContext,
        }
      })
    })
    await http(app).post('/u').send({}).expect(200, {
      isError: true, message: "body should have required property 'name'", keywords: ['required'], context: 'body',
    })
  })

  it('§2.6-validationError-only: validationError is set only when attachValidation is true and validation failed', async () => {
    const app = await build((root) => {
      root.post('/attached', { schema: { body: required }, attachValidation: true },
        async (req: Request) => ({ hasError: req.validationError !== null && req.validationError !== undefined }))
      root.post('/plain', { schema: { body: required } }, async (req: Request) => ({ hasError: req.validationError !== null && req.validationError !== undefined }))
    })
    await http(app).post('/attached').send({ name: 'ok' }).expect(200, { hasError: false })
    await http(app).post('/plain').send({ name: 'ok' }).expect(200, { hasError: false })
    await http(app).post('/plain').send({}).expect(400)
  })

  it('§2.6-decorator: decorateRequest(name, value) sets request.<name>, visible by the encapsulation rules', async () => {
    const app = await build((root) => {
      root.register(async (a: Scope) => {
        a.decorateRequest('tenant', 'acme')
        a.get('/a', async (req: Request) => ({ tenant: req.tenant }))
        a.register(async (a1: Scope) => { a1.get('/a1', async (req: Request) => ({ tenant: req.tenant })) })
      })
      root.register(async (b: Scope) => {
        b.get('/b', async (req: Request) => ({ tenant: req.tenant === undefined ? 'undefined' : req.tenant }))
      })
    })
    await http(app).get('/a').expect(200, { tenant: 'acme' })
    await http(app).get('/a1').expect(200, { tenant: 'acme' })
    await http(app).get('/b').expect(200, { tenant: 'undefined' })
  })
})
