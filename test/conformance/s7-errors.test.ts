// Spec §7 "Errors": every row of the table, the custom messages paragraph, and the payloads Enclave
// chose for failures other than validation (not shown in the spec).
import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import Ajv from 'ajv'
import { HttpError, partValidatorCompiler, type Request, type Scope, type ValidatorPlugin } from '../../src'
import { badRequest, bootError, build, http, server, thrown } from './helpers'

declare module '../../src/runtime' {
  interface ScopeDecorations { hiddenUtil?: unknown }
  interface RequestDecorations { hidden: string }
}

const ajvErrors: ValidatorPlugin = require('ajv-errors')
const localize: Record<string, (errors: unknown) => void> = require('ajv-i18n')

const required = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } }
const withErrorMessages = { validator: { customOptions: { allErrors: true, jsonPointers: true }, plugins: [ajvErrors] } }
const root = join(__dirname, '..', '..', '..')

describe('conformance §7: errors', () => {
  it('§7-row1-400: a part failing its schema without attachValidation: 400, payload as in §2.4, handler not run', async () => {
    let handled = 0
    const app = await build((r) => { r.get('/i/:id', { schema: { params: { id: { type: 'integer' } } } }, async () => { handled++; return {} }) })
    const res = await http(app).get('/i/abc').expect(400)
    expect(res.text).to.equal('{"statusCode":400,"error":"Bad Request","message":"params/id should be integer"}')
    expect(handled).to.equal(0)
  })

  it("§7-row2-required: a missing required property: 400, message body should have required property '<property>'", async () => {
    const app = await build((r) => { r.post('/u', { schema: { body: required } }, async () => ({})) })
    await http(app).post('/u').send({ nom: 'x' }).expect(400, badRequest("body should have required property 'name'"))
  })

  it('§7-row3-array: a single value for an array query parameter under default options: 400, querystring/<property> should be array', async () => {
    const app = await build((r) => { r.get('/q', { schema: { querystring: { tags: { type: 'array' } } } }, async () => ({})) })
    await http(app).get('/q?tags=one').expect(400, badRequest('querystring/tags should be array'))
  })

  it('§7-row4-attachValidation: with attachValidation the handler runs, request.validationError is set, the handler decides', async () => {
    const app = await build((r) => {
      r.post('/u', { schema: { body: required }, attachValidation: true }, async (req: Request, reply) => {
        if (req.validationError) return reply.code(409).send({ decided: 'by handler', why: req.validationError.message })
        return { ok: true }
      })
    })
    await http(app).post('/u').send({}).expect(409, { decided: 'by handler', why: "body should have required property 'name'" })
    await http(app).post('/u').send({ name: 'n' }).expect(200, { ok: true })
  })

  it('§7-row5-formatter: with a custom schemaErrorFormatter, the Error it returns is the error that is raised', async () => {
    class NameError extends Error { readonly kind = 'NameError' }
    const made: Error[] = []
    const received: unknown[] = []
    const app = await build((r) => {
      r.setSchemaErrorFormatter((errors, dataVar) => {
        const error = new NameError(`${dataVar}: ${errors.length} problem(s)`)
        made.push(error)
        return error
      })
      r.register(async (child: Scope) => {
        child.setErrorHandler((error, _req, reply) => { received.push(error); reply.status(400).send({ kind: error.kind }) })
        child.post('/handled', { schema: { body: required } }, async () => ({}))
      })
      r.post('/default', { schema: { body: required } }, async () => ({}))
    })
    await http(app).post('/handled').send({}).expect(400, { kind: 'NameError' })
    expect(received[0]).to.equal(made[0])
    await http(app).post('/default').send({}).expect(400, badRequest('body: 1 problem(s)'))
  })

  it('§7-row6-error-handler: a custom error handler receives validation and validationContext and chooses status and payload (not only 400)', async () => {
    const app = await build((r) => {
      r.setErrorHandler((error, _req, reply) => {
        reply.status(422).send({ where: error.validationContext, count: (error.validation as unknown[]).length })
      })
      r.get('/q', { schema: { querystring: { n: { type: 'integer' } } } }, async () => ({}))
    })
    await http(app).get('/q?n=x').expect(422, { where: 'query', count: 1 })
  })

  it('§7-row7-part-compiler: a per-part validator compiler given no httpPart, or an unknown one, raises an error', async () => {
    const compiler = partValidatorCompiler({ body: new Ajv(), querystring: new Ajv() })
    expect(thrown(() => compiler({ schema: {}, method: 'GET', url: '/x' })).code).to.equal('ENC_ERR_SCH_PART_VALIDATOR_MISSING')
    expect(thrown(() => compiler({ schema: {}, method: 'GET', url: '/x', httpPart: 'cookies' })).code).to.equal('ENC_ERR_SCH_PART_VALIDATOR_MISSING')
    const app = server()
    app.setValidatorCompiler(compiler)
    app.get('/p/:id', { schema: { params: { id: { type: 'integer' } } } }, async () => ({}))
    expect((await bootError(app)).code).to.equal('ENC_ERR_SCH_PART_VALIDATOR_MISSING')
  })

  it('§7-row8-decorator: a decorator read outside its visible scope is undefined, and no error is raised', async () => {
    const app = await build((r) => {
      r.register(async (a: Scope) => { a.decorateRequest('hidden', 'h'); a.decorate('hiddenUtil', 'u') })
      r.get('/read', async (req: Request) => ({ request: req.hidden === undefined, instance: r.hiddenUtil === undefined }))
    })
    await http(app).get('/read').expect(200, { request: true, instance: true })
  })

  it('§7-messages-property: errorMessage gives a message per property', async () => {
    const app = await build((r) => {
      r.post('/u', {
        schema: { body: { type: 'object', properties: { age: { type: 'integer' } }, errorMessage: { properties: { age: 'age must be a whole number' } } } },
      }, async () => ({}))
    }, withErrorMessages)
    await http(app).post('/u').send({ age: 'old' }).expect(400, badRequest('body/age age must be a whole number'))
  })

  it('§7-messages-constraint: errorMessage gives a message per constraint', async () => {
    const app = await build((r) => {
      r.post('/u', {
        schema: { body: { type: 'object', properties: { age: { type: 'integer', minimum: 18, errorMessage: { type: 'not a number', minimum: 'too young' } } } } },
      }, async () => ({}))
    }, withErrorMessages)
    await http(app).post('/u').send({ age: 'x' }).expect(400, badRequest('body/age not a number'))
    await http(app).post('/u').send({ age: 12 }).expect(400, badRequest('body/age too young'))
  })

  it('§7-messages-required: errorMessage gives a separate message for each missing required property', async () => {
    const app = await build((r) => {
      r.post('/u', {
        schema: {
          body: {
            type: 'object', required: ['name', 'email'],
            errorMessage: { required: { name: 'tell us your name', email: 'tell us your email' } },
          },
        },
      }, async () => ({}))
    }, withErrorMessages)
    await http(app).post('/u').send({}).expect(400, badRequest('body tell us your name, body tell us your email'))
    await http(app).post('/u').send({ name: 'n' }).expect(400, badRequest('body tell us your email'))
  })

  it('§7-messages-version: the custom-error-message plugin is version 1.0.1 (later ones need validator major 7+)', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
    expect(pkg.devDependencies['ajv-errors']).to.equal('1.0.1')
    expect(JSON.parse(readFileSync(join(root, 'node_modules', 'ajv-errors', 'package.json'), 'utf8')).version).to.equal('1.0.1')
  })

  it('§7-messages-options: the plugin needs allErrors and jsonPointers; without allErrors the route fails at boot', async () => {
    const app = server({ validator: { plugins: [ajvErrors] } })
    app.post('/u', { schema: { body: required } }, async () => ({}))
    const error = await bootError(app)
    expect(error.message).to.contain('allErrors')
    const withBoth = await build((r) => {
      r.post('/u', { schema: { body: { ...required, errorMessage: { required: { name: 'name!' } } } } }, async () => ({}))
    }, withErrorMessages)
    await http(withBoth).post('/u').send({}).expect(400, badRequest('body name!'))
  })

  it('§7-i18n: a localization plugin translates error.validation in a custom error handler before it is sent', async () => {
    const app = await build((r) => {
      r.setErrorHandler((error, _req, reply) => {
        localize.de(error.validation)
        reply.status(400).send({ statusCode: 400, error: 'Bad Request', message: (error.validation as Array<{ message: string }>).map((e) => e.message).join(', ') })
      })
      r.post('/u', { schema: { body: { type: 'object', required: ['name'], properties: { age: { type: 'integer', maximum: 5 } } } } }, async () => ({}))
    }, { validator: { customOptions: { allErrors: true } } })
    await http(app).post('/u').send({ age: 9 }).expect(400, badRequest('muss das erforderliche Attribut name enthalten, muss <= 5 sein'))
  })
})

describe('conformance §7: failures other than validation (not shown; Enclave chose these)', () => {
  it('§7-other-404: an unknown route answers 404 { statusCode, error, message }', async () => {
    const app = await build((r) => { r.get('/known', async () => ({})) })
    await http(app).get('/unknown').expect(404, { statusCode: 404, error: 'Not Found', message: 'Route GET:/unknown not found' })
  })

  it('§7-other-405: a known path with another method answers 405 with an Allow header', async () => {
    const app = await build((r) => { r.get('/only-get', async () => ({})) })
    const res = await http(app).delete('/only-get').expect(405)
    expect(res.headers.allow).to.contain('GET')
    expect(res.body).to.include({ statusCode: 405, error: 'Method Not Allowed' })
  })

  it('§7-other-500: an unexpected throw answers 500 whose body says only Internal Server Error', async () => {
    const app = await build((r) => { r.get('/boom', async () => { throw new Error('database password is hunter2') }) })
    const res = await http(app).get('/boom').expect(500)
    expect(res.body).to.deep.equal({ statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
    expect(res.text).to.not.contain('hunter2')
  })

  it('§7-other-http-error: an HttpError is sent with its status and message', async () => {
    const app = await build((r) => { r.get('/item', async () => { throw new HttpError(404, 'No item with id 7') }) })
    await http(app).get('/item').expect(404, { statusCode: 404, error: 'Not Found', message: 'No item with id 7' })
  })

  it('§7-other-invalid-json: a malformed JSON body answers 400 with a code', async () => {
    const app = await build((r) => { r.post('/u', async () => ({})) })
    const res = await http(app).post('/u').set('content-type', 'application/json').send('{"a":').expect(400)
    expect(res.body).to.include({ statusCode: 400, code: 'ENC_ERR_CTP_INVALID_JSON', error: 'Bad Request' })
  })

  it('§7-other-415: a body of a media type no parser accepts answers 415', async () => {
    const app = await build((r) => { r.post('/u', async () => ({})) })
    const res = await http(app).post('/u').set('content-type', 'application/xml').send('<a/>').expect(415)
    expect(res.body).to.include({ statusCode: 415, code: 'ENC_ERR_CTP_INVALID_MEDIA_TYPE', error: 'Unsupported Media Type' })
  })
})
