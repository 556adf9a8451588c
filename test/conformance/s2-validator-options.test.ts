// Spec §2.7 "Validator options (baseline)": each baseline option, validator.customOptions, the
// validator plugins (merge/patch, custom error messages, localization) and query-string arrays.
import { expect } from 'chai'
import type { Request, ValidatorPlugin } from '../../src'
import { badRequest, build, http } from './helpers'

// Plain ajv 6 plugins / translators without type declarations.
const ajvErrors: ValidatorPlugin = require('ajv-errors')
const ajvMergePatch: ValidatorPlugin = require('ajv-merge-patch')
const localize: Record<string, (errors: unknown) => void> = require('ajv-i18n')

const arrayQuery = { querystring: { type: 'object', properties: { ids: { type: 'array', items: { type: 'integer' } } } } }

describe('conformance §2.7: validator options', () => {
  it('§2.7-removeAdditional: properties not in the schema are removed before the handler sees the data', async () => {
    const app = await build((root) => {
      root.post('/u', { schema: { body: { type: 'object', additionalProperties: false, properties: { name: { type: 'string' } } } } },
        async (req: Request) => ({ received: req.body }))
    })
    await http(app).post('/u').send({ name: 'ada', isAdmin: true }).expect(200, { received: { name: 'ada' } })
  })

  it('§2.7-useDefaults: missing properties and items are filled from default', async () => {
    const app = await build((root) => {
      root.post('/u', {
        schema: {
          body: {
            type: 'object',
            properties: {
              role: { type: 'string', default: 'user' },
              pair: { type: 'array', items: [{ type: 'string' }, { type: 'integer', default: 1 }] },
            },
          },
        },
      }, async (req: Request) => ({ received: req.body }))
    })
    await http(app).post('/u').send({ pair: ['a'] }).expect(200, { received: { pair: ['a', 1], role: 'user' } })
  })

  it('§2.7-coerceTypes: data is converted to the type the schema names', async () => {
    const app = await build((root) => {
      root.post('/c', {
        schema: { body: { type: 'object', properties: { n: { type: 'integer' }, on: { type: 'boolean' }, s: { type: 'string' } } } },
      }, async (req: Request) => {
        const body = req.body as Record<string, unknown>
        return { types: [typeof body.n, typeof body.on, typeof body.s], body }
      })
    })
    await http(app).post('/c').send({ n: '42', on: 'true', s: 7 })
      .expect(200, { types: ['number', 'boolean', 'string'], body: { n: 42, on: true, s: '7' } })
  })

  it('§2.7-nullable: the nullable keyword is supported', async () => {
    const app = await build((root) => {
      root.post('/n', { schema: { body: { type: 'object', properties: { n: { type: 'integer', nullable: true } } } } },
        async (req: Request) => ({ received: req.body }))
    })
    await http(app).post('/n').send({ n: null }).expect(200, { received: { n: null } })
    await http(app).post('/n').send({ n: 'x' }).expect(400, badRequest('body/n should be integer,null'))
  })

  it('§2.7-customOptions: validator.customOptions given to the server factory changes the baseline', async () => {
    const declare = (root: Parameters<Parameters<typeof build>[0]>[0]) => {
      root.get('/q', { schema: { querystring: { n: { type: 'integer' } } } }, async (req: Request) => ({ n: req.query.n }))
    }
    const baseline = await build(declare)
    await http(baseline).get('/q?n=42').expect(200, { n: 42 })
    const strict = await build(declare, { validator: { customOptions: { coerceTypes: false } } })
    await http(strict).get('/q?n=42').expect(400, badRequest('querystring/n should be integer'))
  })

  it('§2.7-jsonPointers: jsonPointers is a recognised key (pointer paths by default, dotted paths when turned off)', async () => {
    const declare = (root: Parameters<Parameters<typeof build>[0]>[0]) => {
      root.get('/q', { schema: arrayQuery }, async () => ({}))
    }
    const pointers = await build(declare, { validator: { customOptions: { jsonPointers: true } } })
    await http(pointers).get('/q?ids=1').expect(400, badRequest('querystring/ids should be array'))
    const dotted = await build(declare, { validator: { customOptions: { jsonPointers: false } } })
    await http(dotted).get('/q?ids=1').expect(400, badRequest('querystring.ids should be array'))
  })

  it('§2.7-allErrors: allErrors is a recognised key: every error is reported, not only the first', async () => {
    const declare = (root: Parameters<Parameters<typeof build>[0]>[0]) => {
      root.post('/u', { schema: { body: { type: 'object', required: ['a', 'b'] } } }, async () => ({}))
    }
    const all = await build(declare, { validator: { customOptions: { allErrors: true } } })
    await http(all).post('/u').send({}).expect(400,
      badRequest("body should have required property 'a', body should have required property 'b'"))
  })

  it('§2.7-allErrors-off: allErrors (a denial-of-service risk) is off unless the user enables it', async () => {
    const app = await build((root) => {
      root.post('/u', { schema: { body: { type: 'object', required: ['a', 'b'] } } }, async () => ({}))
    })
    await http(app).post('/u').send({}).expect(400, badRequest("body should have required property 'a'"))
  })

  it('§2.7-query-array-default: a single value for an array-typed query parameter fails with 400 by default', async () => {
    const app = await build((root) => { root.get('/q', { schema: arrayQuery }, async (req: Request) => ({ ids: req.query.ids })) })
    await http(app).get('/q?ids=1').expect(400, badRequest('querystring/ids should be array'))
    await http(app).get('/q?ids=1&ids=2').expect(200, { ids: [1, 2] })
  })

  it("§2.7-coerceTypes-array: with coerceTypes 'array' a single value becomes a one-element array", async () => {
    const app = await build((root) => {
      root.get('/q', { schema: arrayQuery }, async (req: Request) => ({ ids: req.query.ids }))
    }, { validator: { customOptions: { coerceTypes: 'array' } } })
    await http(app).get('/q?ids=1').expect(200, { ids: [1] })
    await http(app).get('/q?ids=1&ids=2').expect(200, { ids: [1, 2] })
  })

  it('§2.7-plugins-list: validator.plugins is a list of plugins, each a plugin or [plugin, options]', async () => {
    const seen: unknown[] = []
    const even: ValidatorPlugin = [(ajv: { addKeyword(name: string, def: object): void }, options: unknown) => {
      seen.push(options)
      ajv.addKeyword('even', { type: 'number', validate: (_schema: unknown, data: number) => data % 2 === 0 })
    }, { from: 'options' }]
    const app = await build((root) => {
      root.post('/e', { schema: { body: { type: 'object', properties: { n: { type: 'integer', even: true } } } } }, async (req: Request) => req.body)
    }, { validator: { plugins: [even] } })
    await http(app).post('/e').send({ n: 4 }).expect(200, { n: 4 })
    await http(app).post('/e').send({ n: 3 }).expect(400, badRequest('body/n should pass "even" keyword validation'))
    expect(seen).to.deep.include({ from: 'options' })
  })

  it('§2.7-plugin-merge: the merge/patch plugin provides $merge (source, with)', async () => {
    const app = await build((root) => {
      root.post('/m', {
        schema: {
          body: {
            $merge: {
              source: { type: 'object', properties: { name: { type: 'string' } } },
              with: { required: ['name', 'age'], properties: { age: { type: 'integer' } } },
            },
          },
        },
      }, async (req: Request) => req.body)
    }, { validator: { plugins: [ajvMergePatch] } })
    await http(app).post('/m').send({ name: 'ada', age: 36 }).expect(200, { name: 'ada', age: 36 })
    // The plugin adds its own "should pass $merge" entry after the failing keyword's.
    const res = await http(app).post('/m').send({ name: 'ada' }).expect(400)
    expect(res.body.message).to.match(/^body should have required property 'age'/)
  })

  it('§2.7-plugin-patch: the merge/patch plugin provides $patch (source, with)', async () => {
    const app = await build((root) => {
      root.post('/p', {
        schema: {
          body: {
            $patch: {
              source: { type: 'object', properties: { name: { type: 'string' } } },
              with: [{ op: 'add', path: '/required', value: ['name'] }],
            },
          },
        },
      }, async (req: Request) => req.body)
    }, { validator: { plugins: [ajvMergePatch] } })
    await http(app).post('/p').send({ name: 'ada' }).expect(200, { name: 'ada' })
    const res = await http(app).post('/p').send({}).expect(400)
    expect(res.body.message).to.match(/^body should have required property 'name'/)
  })

  it('§2.7-plugin-errorMessage: the custom-error-message plugin provides the errorMessage keyword', async () => {
    const app = await build((root) => {
      root.post('/u', {
        schema: {
          body: {
            type: 'object',
            required: ['name'],
            properties: { name: { type: 'string' } },
            errorMessage: { required: { name: 'a name is needed' } },
          },
        },
      }, async () => ({}))
    }, { validator: { customOptions: { allErrors: true, jsonPointers: true }, plugins: [ajvErrors] } })
    await http(app).post('/u').send({}).expect(400, badRequest('body a name is needed'))
  })

  it('§2.7-plugin-i18n: the localization plugin translates the validator errors', async () => {
    const app = await build((root) => {
      root.setErrorHandler((error, _req, reply) => {
        localize.fr(error.validation)
        reply.status(400).send({ messages: (error.validation as Array<{ message: string }>).map((e) => e.message) })
      })
      root.post('/u', { schema: { body: { type: 'object', required: ['name'] } } }, async () => ({}))
    })
    await http(app).post('/u').send({}).expect(400, { messages: ['requiert la propriété name'] })
  })
})
