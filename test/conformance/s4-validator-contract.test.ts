// Spec §4.2, "Validation function contract (custom validators)": what a compiled validation
// function may return, the two remedies for foreign error structures, and custom validator
// instances holding their own schemas.
import { expect } from 'chai'
import Ajv from 'ajv'
import type { Request } from '../../src'
import { badRequest, bootError, build, http, server } from './helpers'

/** A tiny non-ajv "library": checks that `name` is a non-empty string, trims it, reports in its own shape. */
function nameChecker(): (data: unknown) => { value: unknown } | { error: unknown } {
  return (data) => {
    const name = (data as { name?: unknown } | undefined)?.name
    if (typeof name === 'string' && name.trim() !== '') return { value: { name: name.trim() } }
    return { error: [{ path: ['name'], reason: 'name must be a non-empty string' }] }
  }
}

describe('conformance §4.2: validation function contract', () => {
  it('§4.2-contract-ajv-style: a default-engine style function returns a result with errors on failure', async () => {
    const ajv = new Ajv({ jsonPointers: true })
    const app = await build((root) => {
      root.post('/u', {
        schema: { body: { type: 'object', required: ['name'] } },
        validatorCompiler: ({ schema }) => ajv.compile(schema),
      }, async () => ({ ok: true }))
    })
    await http(app).post('/u').send({ name: 'a' }).expect(200, { ok: true })
    await http(app).post('/u').send({}).expect(400, badRequest("body should have required property 'name'"))
  })

  it('§4.2-contract-value: another library may return { value } on success, the coerced value the handler receives', async () => {
    const app = await build((root) => {
      root.post('/u', { schema: { body: { name: {} } }, validatorCompiler: () => nameChecker() }, async (req: Request) => ({ received: req.body }))
    })
    await http(app).post('/u').send({ name: '  ada  ', extra: 1 }).expect(200, { received: { name: 'ada' } })
  })

  it('§4.2-contract-error: another library may return { error } on failure, answered 400', async () => {
    const app = await build((root) => {
      root.post('/u', {
        schema: { body: { name: {} } },
        validatorCompiler: () => (data: unknown) => (data as { name?: unknown }).name ? { value: data } : { error: new Error('name is missing') },
      }, async () => ({ ok: true }))
    })
    await http(app).post('/u').send({ name: 'a' }).expect(200, { ok: true })
    await http(app).post('/u').send({}).expect(400, badRequest('name is missing'))
  })

  it('§4.2-contract-odd-messages: foreign error structures still give a 400, with text the default builder cannot make specific', async () => {
    const app = await build((root) => {
      root.post('/u', { schema: { body: { name: {} } }, validatorCompiler: () => nameChecker() }, async () => ({ ok: true }))
    })
    const res = await http(app).post('/u').send({}).expect(400)
    expect(res.body).to.have.all.keys('statusCode', 'error', 'message')
    expect(res.body.message).to.match(/^body/)
    expect(res.body.message).to.not.contain('name must be a non-empty string')
  })

  it("§4.2-contract-remedy-structure: returning errors in the default engine's structure gives the default messages", async () => {
    const app = await build((root) => {
      root.post('/u', {
        schema: { body: { name: {} } },
        validatorCompiler: () => (data: unknown) => (data as { name?: unknown }).name
          ? { value: data }
          : { error: [{ keyword: 'required', dataPath: '', params: { missingProperty: 'name' }, message: "should have required property 'name'" }] },
      }, async () => ({ ok: true }))
    })
    await http(app).post('/u').send({}).expect(400, badRequest("body should have required property 'name'"))
  })

  it('§4.2-contract-remedy-handler: setErrorHandler reads error.validation and error.validationContext', async () => {
    const app = await build((root) => {
      root.setErrorHandler((error, _req, reply) => {
        // A custom validator's entries are its own shape, not ajv's (ValidationResult): cast from unknown.
        const details = error.validation as unknown as Array<{ path: string[]; reason: string }>
        reply.status(400).send({ in: error.validationContext, problems: details.map((d) => `${d.path.join('.')}: ${d.reason}`) })
      })
      root.post('/u', { schema: { body: { name: {} } }, validatorCompiler: () => nameChecker() }, async () => ({ ok: true }))
    })
    await http(app).post('/u').send({}).expect(400, { in: 'body', problems: ['name: name must be a non-empty string'] })
  })

  it('§4.2-contract-custom-instance-schemas: with a custom validator instance, schemas are added to that validator, not by addSchema', async () => {
    const ajv = new Ajv({ jsonPointers: true })
    ajv.addSchema({ $id: 'ownSchema', type: 'object', required: ['id'], properties: { id: { type: 'integer' } } })
    const app = await build((root) => {
      root.setValidatorCompiler(({ schema }) => ajv.compile(schema))
      root.post('/own', { schema: { body: { $ref: 'ownSchema#' } } }, async () => ({ ok: true }))
    })
    await http(app).post('/own').send({ id: 1 }).expect(200, { ok: true })
    await http(app).post('/own').send({}).expect(400, badRequest("body should have required property 'id'"))

    // A schema given to addSchema is not known to the custom instance: the route fails at boot.
    const other = server()
    other.addSchema({ $id: 'viaAddSchema', type: 'object' })
    other.setValidatorCompiler(({ schema }) => new Ajv().compile(schema))
    other.post('/x', { schema: { body: { $ref: 'viaAddSchema#' } } }, async () => ({}))
    const error = await bootError(other)
    expect(error.code).to.match(/^ENC_ERR_SCH_/)
    expect(error.message).to.contain('viaAddSchema')
  })
})
