import { expect } from 'chai'
import Ajv from 'ajv'
import { builtForUseAtOnce, compileAtOnceWhenUsed } from '../../src/runtime/schemas/used-at-once'
import type { Scope, ServerOptions, ValidatorPlugin } from '../../src'
import { server } from '../support/servers'

const body = {
  type: 'object',
  properties: { name: { type: 'string', maxLength: 5 }, age: { type: 'integer', minimum: 0 }, tags: { type: 'array', items: { type: 'string' }, maxItems: 2 } },
  required: ['name'],
}

/** ajv 6's factory code for `schema`, as its processCode step sees it (the template's output). */
function ajvCode(schema: object): string {
  let code = ''
  new Ajv({ processCode: (c: string) => (code = c) }).compile(schema)
  return code
}

/** A validator plugin that records the code each compile of the instance ends with (after Enclave's processCode). */
function recordCode(codes: string[]): ValidatorPlugin {
  return (ajv: unknown) => {
    const options = (ajv as { _opts: { processCode: (code: string, schema?: unknown) => string } })._opts
    const own = options.processCode
    options.processCode = (code, schema) => {
      const out = own(code, schema)
      codes.push(out)
      return out
    }
  }
}

function post(app: Scope, payload: unknown) {
  return app.inject({ method: 'POST', url: '/p', payload, headers: { 'content-type': 'application/json' } })
}

const routeCode = (codes: string[]): string => {
  const found = codes.find((code) => code.includes('should NOT have more than 2 items'))
  if (found === undefined) throw new Error('the route\'s validator was not compiled')
  return found
}

describe('a lazy route\'s validator is compiled in one parse (issue 16, used-at-once.ts)', () => {
  it('puts ajv 6\'s validator function in parentheses while a first request builds it, and leaves the code alone otherwise', () => {
    const code = ajvCode(body)
    expect(code).to.contain('var validate = function(')
    expect(compileAtOnceWhenUsed(code)).to.equal(code)
    const atOnce = builtForUseAtOnce(() => compileAtOnceWhenUsed(code))
    expect(atOnce).to.contain('var validate = (function(')
    expect(atOnce).to.match(/\}\); return validate;$/)
    expect(atOnce.replace('(function(', 'function(').replace(/\}\); return validate;$/, '')).to.equal(code.replace(/\};\s*return validate;\s*$/, ''))
  })

  it('leaves code that does not have the template\'s shape as it is', () => {
    const other = 'return function (data) { return true }'
    expect(builtForUseAtOnce(() => compileAtOnceWhenUsed(other))).to.equal(other)
    const noTail = 'var validate = function(data) { return true }; validate.x = 1; return validate;'
    expect(builtForUseAtOnce(() => compileAtOnceWhenUsed(noTail))).to.equal(noTail)
  })

  it('finds the validator outside quoted strings: a pattern holding the same text stays as written', () => {
    const schema = { type: 'object', properties: { s: { type: 'string', pattern: "var validate = function()|it's" } } }
    const code = ajvCode(schema)
    const atOnce = builtForUseAtOnce(() => compileAtOnceWhenUsed(code))
    expect(atOnce.indexOf('var validate = (function(')).to.be.greaterThan(code.indexOf("new RegExp('var validate = function()"))
    expect(atOnce).to.contain("new RegExp('var validate = function()")
    const validate = new Ajv({ processCode: (c: string) => builtForUseAtOnce(() => compileAtOnceWhenUsed(c)) }).compile(schema)
    expect(validate({ s: 'var validate = function' })).to.equal(true)
    expect(validate({ s: "it's" })).to.equal(true)
    expect(validate({ s: 'other' })).to.equal(false)
  })

  it('leaves the code alone when something other than strings comes before the validator (a comment, a regular expression)', () => {
    const code = ajvCode(body)
    for (const before of ['/* c */ ', 'var r = /x/; ', 'var t = `x`; ']) {
      expect(builtForUseAtOnce(() => compileAtOnceWhenUsed(before + code))).to.equal(before + code)
    }
  })

  it('a user\'s processCode gets ajv\'s code and its output is compiled as it returns it, on a lazy route\'s first request too', async () => {
    const seen: string[] = []
    const codes: string[] = []
    const app = server({ schemaCompilation: 'lazy', validator: { customOptions: { processCode: (code: string) => { seen.push(code); return code } }, plugins: [recordCode(codes)] } })
    app.post('/p', { schema: { body } }, (request) => request.body)
    await app.ready()
    expect((await post(app, { name: 'toolong' })).statusCode).to.equal(400)
    expect(routeCode(codes)).to.contain('var validate = function(')
    expect(routeCode(seen)).to.contain('var validate = function(')
  })

  it('a validator built from the parenthesized code validates, coerces and reports errors exactly as ajv\'s own', () => {
    const plain = new Ajv({ coerceTypes: true, useDefaults: true, removeAdditional: true, jsonPointers: true }).compile(body)
    const atOnce = new Ajv({ coerceTypes: true, useDefaults: true, removeAdditional: true, jsonPointers: true, processCode: (code: string) => builtForUseAtOnce(() => compileAtOnceWhenUsed(code)) }).compile(body)
    for (const input of [{ name: 'ann' }, { name: 'ann', age: '7', extra: 1 }, { name: 'toolong' }, { age: -1 }, { name: 'a', tags: ['x', 'y', 'z'] }, 'nope', null]) {
      const a = JSON.parse(JSON.stringify({ v: input })).v
      const b = JSON.parse(JSON.stringify({ v: input })).v
      expect(atOnce(b)).to.equal(plain(a))
      expect(atOnce.errors).to.deep.equal(plain.errors)
      expect(b).to.deep.equal(a)
    }
  })

  it('a lazy route\'s first request compiles its validator in parentheses; eager boot and ready({ compileAll: true }) keep ajv\'s code as written', async () => {
    const compiled = async (options: ServerOptions, compileAll: boolean): Promise<{ code: string; app: Scope }> => {
      const codes: string[] = []
      const app = server({ ...options, validator: { plugins: [recordCode(codes)] } })
      app.post('/p', { schema: { body } }, (request) => request.body)
      await app.ready(compileAll ? { compileAll: true } : undefined)
      if (codes.length === 0) expect((await post(app, { name: 'ann' })).statusCode).to.equal(200)
      return { code: routeCode(codes), app }
    }
    expect((await compiled({ schemaCompilation: 'lazy' }, false)).code).to.contain('var validate = (function(')
    expect((await compiled({}, false)).code).to.contain('var validate = function(')
    expect((await compiled({ schemaCompilation: 'lazy' }, true)).code).to.contain('var validate = function(')
  })

  it('a lazy route answers every request as the same eager route does', async () => {
    const answers = async (options: ServerOptions): Promise<string[]> => {
      const app = server(options)
      app.post('/p', { schema: { body } }, (request) => request.body)
      await app.ready()
      const out: string[] = []
      for (const payload of [{ name: 'toolong' }, { name: 'ann', age: '7', extra: 1 }, { age: -1 }, { name: 'a', tags: ['x', 'y', 'z'] }, { name: 'b', age: 'x' }]) {
        const reply = await post(app, payload)
        out.push(`${reply.statusCode} ${reply.body}`)
      }
      return out
    }
    expect(await answers({ schemaCompilation: 'lazy' })).to.deep.equal(await answers({}))
  })
})
