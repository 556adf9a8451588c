// Response serialization as Fastify 3.27.4 does it (issue 12): values a schema's type cannot hold,
// serializers that return no text, setReplySerializer() and the serializerOpts server option.
import { expect } from 'chai'
import { lift, type JsonSchema, type Reply, type Request, type Scope } from '../../src'
import { build, recordingLogger, server, thrown } from '../runtime/helpers'

const GENERIC_500 = { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' }

/** GET / answering `value` under the 200 response schema `schema`: what a Fastify 3 side-by-side case records. */
async function served200(schema: JsonSchema, value: unknown): Promise<Awaited<ReturnType<Scope['inject']>>> {
  const app = await build((root) => { root.get('/', { schema: { response: { 200: schema } } }, async () => value) })
  return app.inject('/')
}

describe('semantics: a response value its schema\'s number or integer type (or type list) cannot hold (Fastify 3)', () => {
  it('is left out of an object, and is null in an array, at any depth; the rest is serialized as usual', async () => {
    const app = await build((root) => {
      root.get('/', {
        schema: {
          response: {
            201: {
              type: 'object',
              properties: {
                hello: { type: 'number' },
                n: { type: 'integer' },
                ok: { type: 'integer' },
                list: { type: 'array', items: { type: 'number' } },
                inner: { type: 'object', properties: { x: { type: 'integer' }, y: { type: 'string' } } },
              },
            },
          },
        },
      }, async (_req: Request, reply: Reply) => {
        reply.code(201)
        return { hello: 'world', n: {}, ok: '12', list: [1, 'x', 3], inner: { x: 'nope', y: 'kept' } }
      })
    })
    const res = await app.inject('/')
    expect(res.statusCode).to.equal(201)
    expect(res.json()).to.deep.equal({ ok: 12, list: [1, null, 3], inner: { y: 'kept' } })
    expect(res.headers['content-length']).to.equal(String(Buffer.byteLength(res.body)))
  })

  it('a null beside a value that cannot be held is still written 0 (Fastify 3: {"list":[0,null],"n":0})', async () => {
    const res = await served200({
      type: 'object',
      properties: {
        list: { type: 'array', items: { type: 'number' } },
        n: { type: 'integer' },
        maybe: { type: 'integer', nullable: true },
      },
    }, { list: [null, 'x'], n: null, maybe: null })
    expect(res.statusCode).to.equal(200)
    expect(res.body).to.equal('{"list":[0,null],"n":0,"maybe":null}')
  })

  it('under patternProperties it is written null, under additionalProperties left out, as Fastify 3 writes them (found by test/differential)', async () => {
    const res = await served200({
      type: 'object',
      properties: { n: { type: 'integer' } },
      patternProperties: { '^x': { type: 'integer' } },
      additionalProperties: { type: 'number' },
    }, { n: 1, x1: 'abc', x2: '1.5', y: 'nope', z: '2' })
    expect(res.statusCode).to.equal(200)
    expect(res.body).to.equal('{"n":1,"x1":null,"x2":1,"z":2}')
  })

  it('as the whole payload (an object under a top-level integer schema) it is written null, as Fastify 3 writes it, not a 500 (found by test/differential)', async () => {
    const res = await served200({ type: 'integer' }, { not: 'a number' })
    expect(res.statusCode).to.equal(200)
    expect(res.body).to.equal('null')
  })

  it('an array under a type list with object (not array) is written as an object, as Fastify 3 does, not null', async () => {
    const res = await served200({ type: 'object', properties: { e: { type: ['object', 'null'] }, q: { type: ['null', 'object'], additionalProperties: true } } }, { e: [], q: ['x'] })
    expect(res.statusCode).to.equal(200)
    // Fastify 3.27.4's body for the same route, byte for byte.
    expect(res.body).to.equal('{"e":{},"q":{"0":"x"}}')
  })

  it('a value none of a type list holds is converted as Fastify 3 does (a number from its text) or written null, instead of a 500', async () => {
    const res = await served200({
      type: 'object',
      properties: {
        n: { type: ['number', 'null'] },
        i: { type: ['integer', 'null'] },
        b: { type: ['boolean', 'null'] },
        s: { type: ['string', 'null'] },
        sn: { type: ['string', 'number'] },
        is: { type: ['integer', 'string'] },
        ok: { type: ['string', 'null'] },
        list: { type: 'array', items: { type: ['number', 'null'] } },
      },
    }, { n: '12', i: 1.5, b: 'x', s: 5, sn: true, is: 1.5, ok: 'kept', list: ['3', null, 'x'] })
    expect(res.statusCode).to.equal(200)
    // Fastify 3.27.4's body for the same route, byte for byte.
    expect(res.body).to.equal('{"n":12,"i":null,"b":null,"s":null,"sn":1,"is":null,"ok":"kept","list":[3,null,null]}')
  })

  // Found building a PostgreSQL service (newcomer18b): pg gives an int8 column as a string ('42'), or a
  // BigInt with its type parser set; under ['integer', 'null'] Fastify 3 wrote null, losing the value.
  it('a nullable integer under [\'integer\', \'null\'] given an integer\'s digits or a BigInt is written as that integer, not null (README differences)', async () => {
    const res = await served200({
      type: 'object',
      properties: {
        digits: { type: ['integer', 'null'] },
        negative: { type: ['null', 'integer'] },
        big: { type: ['integer', 'null'] },
        beyond: { type: ['integer', 'null'] },
        none: { type: ['integer', 'null'] },
        fraction: { type: ['integer', 'null'] },
        text: { type: ['integer', 'null'] },
        list: { type: 'array', items: { type: ['integer', 'null'] } },
      },
    }, { digits: '42', negative: '-7', big: 42n, beyond: 9007199254740993n, none: null, fraction: 1.5, text: 'x', list: ['1', null, 2n] })
    expect(res.statusCode).to.equal(200)
    // A BigInt past 2^53 keeps every digit, as under `type: 'integer'`; what no integer holds is still null (Fastify 3).
    expect(res.body).to.equal('{"digits":42,"negative":-7,"big":42,"beyond":9007199254740993,"none":null,"fraction":null,"text":null,"list":[1,null,2]}')
  })

  // Found by the differential tester (serialization family): Enclave wrote null for all three.
  // (A list that starts with boolean is README's exception: fast-json-stringify 7 writes false there.)
  it('null under a type list without null is taken as Fastify 3 takes it: by a string, integer or object type, as "", 0 or {}', async () => {
    const res = await served200({
      type: 'object',
      properties: {
        is: { type: ['integer', 'string'] },
        nb: { type: ['number', 'boolean'] },
        si: { type: ['string', 'integer'] },
        os: { type: ['object', 'string'] },
        list: { type: 'array', items: { type: ['string', 'integer'] } },
      },
    }, { is: null, nb: null, si: null, os: null, list: [null, 'x'] })
    expect(res.statusCode).to.equal(200)
    // Fastify 3.27.4's body for the same route, byte for byte.
    expect(res.body).to.equal('{"is":0,"nb":0,"si":"","os":{},"list":["","x"]}')
  })

  it('follows $refs to shared schemas and to local definitions', async () => {
    const app = await build((root) => {
      root.addSchema({ $id: 'amount', type: 'object', properties: { value: { type: 'number' } } })
      root.get('/', {
        schema: {
          response: {
            200: {
              type: 'object',
              definitions: { count: { type: 'integer' } },
              properties: { price: { $ref: 'amount#' }, count: { $ref: '#/definitions/count' }, name: { type: 'string' } },
            },
          },
        },
      }, async () => ({ price: { value: 'free' }, count: 'many', name: 'x' }))
    })
    const res = await app.inject('/')
    expect(res.statusCode).to.equal(200)
    expect(res.json()).to.deep.equal({ price: {}, name: 'x' })
  })

  it('follows a $ref to an $id declared inside a shared schema as it follows the same schema by its path (found by test/differential, shared-schemas: a 500 there)', async () => {
    const app = await build((root) => {
      root.addSchema({ $id: 'outer', type: 'object', properties: { inner: { $id: 'inner', type: 'object', properties: { v: { type: 'integer' } } } } })
      root.get('/nested', { schema: { response: { 200: { $ref: 'inner#' } } } }, async () => ({ v: 'x' }))
      root.get('/path', { schema: { response: { 200: { $ref: 'outer#/properties/inner' } } } }, async () => ({ v: 'x' }))
    })
    const byPath = await app.inject('/path')
    expect(byPath.statusCode).to.equal(200)
    expect(byPath.json()).to.deep.equal({})
    const nested = await app.inject('/nested')
    expect(nested.statusCode).to.equal(byPath.statusCode)
    expect(nested.body).to.equal(byPath.body)
  })

  it('a required property that cannot be held is still a logged 500 with the generic body', async () => {
    const logger = recordingLogger()
    const app = await build((root) => {
      root.get('/', { schema: { response: { 200: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } } } } }, async () => ({ n: 'x' }))
    }, { logger })
    const res = await app.inject('/')
    expect(res.statusCode).to.equal(500)
    expect(res.json()).to.deep.equal(GENERIC_500)
    expect(logger.entries.some((e) => (e.obj.err as { code?: string } | undefined)?.code === 'ENC_ERR_REPLY_SERIALIZATION')).to.equal(true)
  })
})

describe('semantics: a serializer must return a string or a Buffer (Fastify 3: FST_ERR_REP_INVALID_PAYLOAD_TYPE)', () => {
  it('a serializerCompiler function returning an object: 500, logged with ENC_ERR_REPLY_INVALID_PAYLOAD_TYPE', async () => {
    const logger = recordingLogger()
    const app = await build((root) => {
      root.setSerializerCompiler(() => () => ({ not: 'a string' }) as never)
      root.get('/', { schema: { response: { 200: { type: 'object' } } } }, async () => ({ a: 1 }))
    }, { logger })
    const res = await app.inject('/')
    expect(res.statusCode).to.equal(500)
    expect(res.json()).to.deep.equal(GENERIC_500)
    const entry = logger.entries.find((e) => (e.obj.err as { code?: string } | undefined)?.code === 'ENC_ERR_REPLY_INVALID_PAYLOAD_TYPE')
    expect((entry?.obj.err as Error).message).to.equal('GET /: the serializer of the 200 response returned object, not a string or Buffer. Make the serializer (reply.serializer(), setReplySerializer() or the serializerCompiler\'s function) return the serialized text.')
  })

  it('also when it serializes an error reply (the response schema of a 500): the error reply still ends, 500', async () => {
    const app = await build((root) => {
      root.setSerializerCompiler(() => () => ({ not: 'a string' }) as never)
      root.get('/', { schema: { response: { 500: { type: 'object' } } } }, async () => { throw new Error('ops') })
    })
    const res = await app.inject('/')
    expect(res.statusCode).to.equal(500)
    expect(res.json()).to.deep.equal(GENERIC_500)
  })

  it('a Buffer is accepted as serialized text', async () => {
    const app = await build((root) => {
      root.get('/', async (_req: Request, reply: Reply) => { reply.serializer(() => Buffer.from('bytes') as never).send({ a: 1 }); return reply })
    })
    const res = await app.inject('/')
    expect(res.statusCode).to.equal(200)
    expect(res.body).to.equal('bytes')
  })
})

describe('semantics: a response schema of an error status that fails to serialize the error', () => {
  it('does not crash: the 400 of a failed validation whose 400 schema requires a missing field is a 500', async () => {
    let handled = 0
    const app = await build((root) => {
      root.get('/', {
        schema: { querystring: { type: 'object', required: ['foo'], properties: { foo: { type: 'string' } } }, response: { 400: { type: 'object', required: ['code'], properties: { code: { type: 'number' } } } } },
      }, async () => { handled++; return {} })
    })
    const res = await app.inject({ url: '/', query: { notfoo: 'true' } })
    expect(res.statusCode).to.equal(500)
    expect(res.json()).to.deep.equal(GENERIC_500)
    expect(handled).to.equal(0)
  })

  it('a serialization error reaches the error handler with its message and error.serialization', async () => {
    let seen: (Error & { serialization?: unknown }) | undefined
    const app = await build((root) => {
      root.setErrorHandler(async (error, _req, reply) => { seen = error; reply.code(500).send({ message: error.message }) })
      root.get('/', { schema: { response: { 200: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } } }, async () => ({ no: 'thing' }))
    })
    const res = await app.inject('/')
    expect(res.statusCode).to.equal(500)
    expect(res.json()).to.deep.equal({ message: 'GET /: the 200 response could not be serialized: "name" is required!' })
    expect(seen?.serialization).to.deep.equal({ method: 'GET', url: '/', statusCode: 200 })
  })

  it("a serialization error on a route with preSerialization hooks says the serializer got the hooks' payload (an interceptor's { data } wrapper)", async () => {
    let message = ''
    const app = await build((root) => {
      root.setErrorHandler(async (error, _req, reply) => { message = error.message; reply.code(500).send({}) })
      root.addHook('preSerialization', async (_request, _reply, payload) => ({ data: payload }))
      root.get('/', { schema: { response: { 200: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } } }, async () => ({ name: 'a' }))
    })
    expect((await app.inject('/')).statusCode).to.equal(500)
    expect(message).to.contain('"name" is required!').and.contain("preSerialization hooks ran first").and.contain('onSend')
  })
})

describe('semantics: setReplySerializer() (Fastify 3)', () => {
  const schema = { response: { '2xx': { type: 'object', properties: { name: { type: 'string' } } } } }

  it('serializes the payloads of the scope\'s routes, given the status, in place of the response schema, with a JSON type', async () => {
    const calls: unknown[] = []
    const app = await build((root) => {
      root.setReplySerializer((payload, statusCode) => { calls.push([payload, statusCode]); return `custom ${statusCode}` })
      root.get('/', { schema }, async (_req: Request, reply: Reply) => { reply.code(201); return { name: 'Foo', nick: 'Boo' } })
    })
    const res = await app.inject('/')
    expect(res.body).to.equal('custom 201')
    expect(res.headers['content-type']).to.equal('application/json; charset=utf-8')
    expect(calls).to.deep.equal([[{ name: 'Foo', nick: 'Boo' }, 201]])
  })

  it('is encapsulated: descendants inherit it, the parent and siblings keep theirs', async () => {
    const app = await build(async (root) => {
      root.get('/root', async () => ({ a: 1 }))
      await root.register(async (child: Scope) => {
        child.setReplySerializer(() => 'child')
        child.get('/child', async () => ({ a: 1 }))
        await child.register(async (grandchild: Scope) => { grandchild.get('/grandchild', async () => ({ a: 1 })) })
      })
      await root.register(async (sibling: Scope) => { sibling.get('/sibling', async () => ({ a: 1 })) })
    })
    expect((await app.inject('/root')).body).to.equal('{"a":1}')
    expect((await app.inject('/child')).body).to.equal('child')
    expect((await app.inject('/grandchild')).body).to.equal('child')
    expect((await app.inject('/sibling')).body).to.equal('{"a":1}')
  })

  it('reply.serializer() wins over it, and reply.serialize() uses it', async () => {
    const app = await build((root) => {
      root.setReplySerializer(() => 'scope')
      root.get('/reply', async (_req: Request, reply: Reply) => { reply.serializer(() => 'reply').send({}); return reply })
      root.get('/serialize', async (_req: Request, reply: Reply) => ({ text: (reply as Reply & { serialize(p: unknown): string }).serialize({}) }))
    })
    expect((await app.inject('/reply')).body).to.equal('reply')
    expect((await app.inject('/serialize')).body).to.equal('scope')
  })

  it('the built-in error replies keep their own serializer', async () => {
    const app = await build((root) => {
      root.setReplySerializer(() => 'scope')
      root.get('/', async () => { throw Object.assign(new Error('nope'), { statusCode: 404 }) })
    })
    const res = await app.inject('/')
    expect(res.statusCode).to.equal(404)
    expect(res.json()).to.deep.equal({ statusCode: 404, error: 'Not Found', message: 'nope' })
  })

  it('is refused after boot and when it is no function, with coded errors', async () => {
    const app = server()
    expect(thrown(() => app.setReplySerializer('nope' as never)).code).to.equal('ENC_ERR_ROUTE_INVALID')
    await app.ready()
    expect(thrown(() => app.setReplySerializer(() => '')).code).to.be.a('string')
  })
})

describe('semantics: the serializerOpts server option and scope.serializerCompiler', () => {
  it('serializerOpts reach fast-json-stringify: rounding ceil', async () => {
    const app = await build((root) => {
      root.get('/', { schema: { response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } } } }, async () => ({ n: 2.1 }))
    }, { serializerOpts: { rounding: 'ceil' } })
    expect((await app.inject('/')).json()).to.deep.equal({ n: 3 })
  })

  it('serializerOpts that are not an object are refused with ENC_ERR_SERVER_INVALID_OPTION', () => {
    expect(thrown(() => server({ serializerOpts: 'ceil' as never })).code).to.equal('ENC_ERR_SERVER_INVALID_OPTION')
  })

  it('scope.serializerCompiler is the one in force: set by the scope or an ancestor, undefined before boot for the default', async () => {
    const compiler = (): ((data: unknown) => string) => (data) => JSON.stringify(data)
    let inChild: unknown = 'unset'
    let before: unknown = 'unset'
    await build(async (root) => {
      before = root.serializerCompiler
      root.setSerializerCompiler(compiler)
      await root.register(async (child: Scope) => { inChild = child.serializerCompiler })
    })
    expect(before).to.equal(undefined)
    expect(inChild).to.equal(compiler)
  })

  it('a lifted plugin registered with a prefix reads the same compiler, not a copy', async () => {
    const compiler = (): ((data: unknown) => string) => (data) => JSON.stringify(data)
    let seen: unknown = 'unset'
    await build(async (root) => {
      root.setSerializerCompiler(compiler)
      await root.register(lift(async (scope: Scope) => { seen = scope.serializerCompiler }), { prefix: '/p' })
    })
    expect(seen).to.equal(compiler)
  })
})

describe('semantics: a serialization failure is logged once, readably', () => {
  it("the pino line's err.message names the serializer's reason once (no cause repeating it)", async () => {
    const lines: string[] = []
    const stream = { write: (line: string) => { lines.push(line) } }
    const app = server({ logger: { level: 'error', stream } as never })
    app.get('/n', { schema: { response: { 200: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } } } } }, async () => ({ n: 'not-a-number' }))
    const res = await app.inject({ url: '/n' })
    expect(res.statusCode).to.equal(500)
    const logged = lines.map((line) => JSON.parse(line) as { err?: { message?: string } }).find((entry) => entry.err?.message?.includes('could not be serialized'))
    const message = logged?.err?.message ?? ''
    expect(message.split('cannot be converted to an integer').length - 1, message).to.equal(1)
    await app.close()
  })
})
