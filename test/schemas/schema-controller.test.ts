// Issue 12 §2/§3: the schema controller in Fastify 3.27.4's shape (server option `schemaController`
// and scope.setSchemaController(): a bucket factory and a compilersFactory, each inherited when left
// out), the active compilers as scope properties, compilers that decline a part, fluent schemas.
import { expect } from 'chai'
import Ajv from 'ajv'
import S from 'fluent-json-schema'
import { createServer, type Scope, type SchemaBucket, type SharedSchema, type ValidatorCompiler } from '../../src'
import { build, server, thrown } from '../support/servers'

// What these tests decorate on a scope: Scope has no catch-all (an undeclared name does not compile).
declare module '../../src/runtime' {
  interface ScopeDecorations { fromPlugin?: unknown }
}

const messageOf = (response: { json(): unknown }): string => (response.json() as { message: string }).message

const someSchema = { $id: 'some', type: 'array', items: { type: 'string' } }

/** A bucket over a Map, recording what Enclave asks of it. */
function mapBucket(calls: string[], initial?: unknown): SchemaBucket {
  const store = new Map<string, unknown>(initial instanceof Map ? initial : Object.entries((initial ?? {}) as object))
  return {
    add(schema: unknown) { calls.push(`add ${(schema as { $id: string }).$id}`); store.set((schema as { $id: string }).$id, schema) },
    getSchema(id: string) { calls.push(`getSchema ${id}`); return store.get(id) },
    getSchemas() { calls.push('getSchemas'); return store },
  }
}

describe('schemas: schema controller (issue 12 §2, Fastify 3.27.4 shape)', () => {
  describe('option checks', () => {
    it('a bucket that is not a function is refused at createServer with ENC_ERR_SCH_CONTROLLER_INVALID', () => {
      const error = thrown(() => createServer({ schemaController: { bucket: {} as never } }))
      expect(error.code).to.equal('ENC_ERR_SCH_CONTROLLER_INVALID')
      expect(error.message).to.contain('createServer({ schemaController })').and.contain('bucket must be a function, got an object')
    })

    it('an empty schemaController is accepted; a misspelt key or builder is refused with a "did you mean"', () => {
      expect(() => createServer({ schemaController: {} })).not.to.throw()
      expect(thrown(() => createServer({ schemaController: { buckt: () => ({}) } as never })).message).to.contain("did you mean 'bucket'")
      const app = server()
      const error = thrown(() => app.setSchemaController({ compilersFactory: { buildValidater: () => () => () => true } as never }))
      expect(error.code).to.equal('ENC_ERR_SCH_CONTROLLER_INVALID')
      expect(error.message).to.contain('setSchemaController() in root').and.contain("did you mean 'buildValidator'")
    })

    it('a bucket factory that returns no object fails where the bucket is made', () => {
      const error = thrown(() => createServer({ schemaController: { bucket: () => undefined as never } }))
      expect(error.code).to.equal('ENC_ERR_SCH_CONTROLLER_INVALID')
      expect(error.message).to.contain('bucket of scope root').and.contain('returned undefined')
    })

    it('addSchema() on a bucket without add() is refused with the same code', () => {
      const app = server({ schemaController: { bucket: () => ({ getSchemas: () => ({}) }) } })
      const error = thrown(() => app.addSchema({ $id: 'x', type: 'string' }))
      expect(error.code).to.equal('ENC_ERR_SCH_CONTROLLER_INVALID')
      expect(error.message).to.contain('has no add(schema) method')
    })
  })

  describe('bucket', () => {
    it('one bucket per scope: the root built with no argument, each child from its parent\'s getSchemas(); scope schema methods use it', async () => {
      const inits: unknown[] = []
      const calls: string[] = []
      const sizes: Record<string, number> = {}
      const app = server({ schemaController: { bucket: (init) => { inits.push(init); return mapBucket(calls, init) } } })
      app.register(async (child) => {
        child.addSchema({ $id: 'b', type: 'string' })
        child.register(async (grandchild) => {
          grandchild.addSchema({ $id: 'c', type: 'string' })
          sizes.grandchild = (grandchild.getSchemas() as unknown as Map<string, unknown>).size
        })
      })
      app.addSchema({ $id: 'a', type: 'string' })
      await app.ready()
      expect(inits).to.have.length(3)
      expect(inits[0]).to.equal(undefined)
      expect([...(inits[1] as Map<string, unknown>).keys()]).to.deep.equal(['a'])
      expect([...(inits[2] as Map<string, unknown>).keys()]).to.deep.equal(['a', 'b'])
      expect(sizes.grandchild).to.equal(3)
      expect(app.getSchema('a')).to.deep.equal({ $id: 'a', type: 'string' })
      expect(calls).to.include.members(['add a', 'add b', 'add c', 'getSchema a'])
    })

    it('the compilers are built with the bucket\'s schemas: a response $ref into schemas only the user\'s ajv holds resolves', async () => {
      const ajv = new Ajv()
      const base = { $id: 'http://example.com/base', definitions: { hello: { type: 'string' } } }
      const ref = { $id: 'http://example.com/ref', type: 'object', properties: { hello: { $ref: 'http://example.com/base#/definitions/hello' } } }
      ajv.addSchema(base)
      ajv.addSchema(ref)
      const app = await build((root) => {
        root.setValidatorCompiler(({ schema }) => ajv.compile(schema) as ReturnType<ValidatorCompiler>)
        root.get('/', { schema: { response: { '2xx': ajv.getSchema('http://example.com/ref')!.schema as Record<string, unknown> } } }, async () => ({ hello: 'world', evict: 'this' }))
      }, { schemaController: { bucket: () => ({ getSchemas: () => ({ [base.$id]: base, [ref.$id]: ref }) }) } })
      const response = await app.inject('/')
      expect(response.statusCode).to.equal(200)
      expect(response.json()).to.deep.equal({ hello: 'world' })
    })

    it('setSchemaController({ bucket }) replaces one scope\'s bucket, seeded with what it sees so far; siblings keep the default store', async () => {
      const calls: string[] = []
      let seeded: unknown
      const app = server()
      app.addSchema({ $id: 'root', type: 'string' })
      let sibling: Scope | undefined
      app.register(async (child) => {
        child.setSchemaController({ bucket: (init) => { seeded = init; return mapBucket(calls, init) } })
        child.addSchema({ $id: 'own', type: 'string' })
      })
      app.register(async (other) => { sibling = other })
      await app.ready()
      expect(Object.keys(seeded as object)).to.deep.equal(['root'])
      expect(calls).to.deep.equal(['add own'])
      expect(Object.keys(sibling!.getSchemas())).to.deep.equal(['root'])
    })
  })

  describe('compilersFactory', () => {
    it('setSchemaController({ compilersFactory }) in a scope builds its routes\' validators with the shared schemas it sees', async () => {
      const seen: string[][] = []
      const custom = new Ajv({ coerceTypes: false })
      const app = await build((root) => {
        root.addSchema(someSchema)
        root.register(async (child) => {
          child.setSchemaController({
            compilersFactory: {
              buildValidator(external) {
                seen.push(Object.keys(external))
                for (const id of Object.keys(external)) if (custom.getSchema(id) === undefined) custom.addSchema(external[id], id)
                return ({ schema }) => custom.compile(schema) as ReturnType<ValidatorCompiler>
              },
            },
          })
          child.get('/', { schema: { querystring: { msg: { $ref: 'some#' } } } }, async () => 'ok')
        })
      })
      const response = await app.inject({ url: '/', query: { msg: 'one' } })
      expect(response.statusCode).to.equal(400)
      // coerceTypes false: a single value is not made an array; that ajv reports ajv 6's dotted path.
      expect((response.json() as { message: string }).message).to.equal('querystring.msg should be array')
      expect(seen).to.deep.equal([['some']])
    })

    it('a builder left out is inherited from the parent scope (the server option at the root), each called once per set', async () => {
      const called = { rootValidator: 0, rootSerializer: 0, childSerializer: 0 }
      const app = await build((root) => {
        root.addSchema(someSchema)
        root.register(async (child) => {
          child.setSchemaController({
            compilersFactory: { buildSerializer: () => { called.childSerializer++; return () => (data: unknown) => `child:${JSON.stringify(data)}` } },
          })
          child.get('/', { schema: { querystring: { msg: { $ref: 'some#' } }, response: { 200: { type: 'object' } } } }, async () => ({ ok: 1 }))
        })
      }, {
        schemaController: {
          compilersFactory: {
            buildValidator: () => { called.rootValidator++; return () => () => true },
            buildSerializer: () => { called.rootSerializer++; return () => JSON.stringify },
          },
        },
      })
      const response = await app.inject({ url: '/', query: { msg: 'x' } })
      expect(response.body).to.equal('child:{"ok":1}')
      expect(called).to.deep.equal({ rootValidator: 1, rootSerializer: 0, childSerializer: 1 })
    })
  })

  describe('scope.validatorCompiler / scope.serializerCompiler (Fastify\'s instance properties)', () => {
    it('undefined before boot; after boot the compiler the builders made for the scope\'s routes, shared by scopes that see the same schemas', async () => {
      const app = server()
      const scopes: Scope[] = []
      let before: unknown = null
      app.get('/', { schema: { body: { type: 'object' }, response: { 200: { type: 'object' } } } }, async () => ({}))
      app.register(async (child) => { before = child.validatorCompiler; scopes.push(child) })
      app.register(async (child) => { child.addSchema({ $id: 'own', type: 'string' }); child.get('/own', { schema: { body: { type: 'object' } } }, async () => ({})); scopes.push(child) })
      expect(app.validatorCompiler).to.equal(undefined)
      await app.ready()
      expect(before).to.equal(undefined)
      expect(app.validatorCompiler).to.be.a('function')
      expect(app.serializerCompiler).to.be.a('function')
      expect(scopes[0].validatorCompiler).to.equal(app.validatorCompiler)
      expect(scopes[1].validatorCompiler).to.be.a('function').and.not.equal(app.validatorCompiler)
    })

    it('the one set here or in an ancestor wins; a route option does not change it; a scope whose routes needed none has none', async () => {
      const validator: ValidatorCompiler = () => () => true
      const seen: Record<string, unknown> = {}
      await build((root) => {
        root.addSchema({ $id: 'x', type: 'string' })
        root.register(async (child) => {
          child.setValidatorCompiler(validator)
          child.register(async (grandchild) => {
            grandchild.post('/three', { validatorCompiler: () => () => true, schema: { body: { type: 'object' } } }, async () => ({}))
            seen.grandchild = grandchild
          })
        })
        root.register(async (clean) => { clean.post('/clean', async () => ({})); seen.clean = clean })
      })
      expect((seen.grandchild as Scope).validatorCompiler).to.equal(validator)
      expect((seen.clean as Scope).validatorCompiler).to.equal(undefined)
    })

    it('is readable in onReady hooks', async () => {
      let inHook: unknown
      const app = server()
      app.get('/', { schema: { querystring: { a: { type: 'string' } } } }, async () => ({}))
      app.addHook('onReady', async function (this: Scope) { inHook = this.validatorCompiler })
      await app.ready()
      expect(inHook).to.be.a('function')
    })
  })

  describe('compilers that decline (Fastify: undefined means no validation / serialization for that part)', () => {
    it('a validator or serializer compiler returning undefined leaves that part unvalidated and that status plain JSON', async () => {
      const app = await build((root) => {
        root.post('/', {
          schema: { body: { type: 'object', properties: { hello: { type: 'string' } } }, response: { '2xx': { type: 'object', properties: { a: { type: 'string' } } } } },
          validatorCompiler: () => undefined as never,
          serializerCompiler: () => undefined as never,
        }, async () => ({ a: 1, b: 2 }))
      })
      const response = await app.inject({ method: 'POST', url: '/', payload: { hello: 42 } })
      expect(response.statusCode).to.equal(200)
      expect(response.json()).to.deep.equal({ a: 1, b: 2 })
      expect(app.validatorCompiler).to.equal(undefined)
      expect(app.serializerCompiler).to.equal(undefined)
    })
  })

  describe('fluent-json-schema', () => {
    it('builders are accepted as route parts, response schemas and shared schemas (valueOf() is taken)', async () => {
      const app = await build((root) => {
        root.addSchema(S.object().id('https://example.com/address').definition('zip', S.string().minLength(5)) as unknown as SharedSchema)
        root.post('/:id', {
          schema: {
            params: S.object().prop('id', S.integer().minimum(42)) as never,
            body: S.object().prop('zip', S.ref('https://example.com/address#/definitions/zip')).required(['zip']) as never,
            response: { 200: S.object().prop('id', S.integer()) as never },
          },
        }, async (request) => ({ id: Number((request.params as { id: string }).id), dropped: true }))
      })
      expect(messageOf(await app.inject({ method: 'POST', url: '/1', payload: { zip: '12345' } }))).to.equal('params/id should be >= 42')
      expect(messageOf(await app.inject({ method: 'POST', url: '/42', payload: { zip: '1' } }))).to.equal('body/zip should NOT be shorter than 5 characters')
      const ok = await app.inject({ method: 'POST', url: '/42', payload: { zip: '12345' } })
      expect(ok.json()).to.deep.equal({ id: 42 })
    })
  })

  describe('ready() called by a plugin while the server boots', () => {
    it('does not start a second boot: the callback runs once the server has booted', async () => {
      const app = server()
      const order: string[] = []
      app.register(function plugin(instance, _options, done) {
        instance.ready((error) => { order.push(`ready callback ${String(error)}`) })
        order.push('plugin ran')
        done()
      })
      await app.ready()
      await new Promise((resolve) => setImmediate(resolve))
      expect(order).to.deep.equal(['plugin ran', 'ready callback null'])
    })

    it('boot starts on the next tick: what follows ready() in the same synchronous block still counts', async () => {
      const app = server()
      const plugin = async (instance: Scope): Promise<void> => { instance.decorate('fromPlugin', true) }
      app.register(plugin)
      const booted = app.ready()
      ;(plugin as unknown as Record<symbol, unknown>)[Symbol.for('skip-override')] = true
      await booted
      expect(app.hasDecorator('fromPlugin')).to.equal(true)
    })
  })
})
