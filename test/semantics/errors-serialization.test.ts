// Issue 12 §2 "Errors and serialization": Fastify 3.27.4's behaviour (test/reply-error.test.js,
// test/route-hooks.test.js, test/schema-serialization.test.js, test/output-validation.test.js).
import { expect } from 'chai'
import type { Reply, Request } from '../../src'
import { build, recordingLogger } from '../runtime/helpers'

// TODO(issue 12): un-skip once implemented (phase 2)
describe('semantics: errors and serialization (issue 12 §2)', () => {
  it('error replies built by the framework use the route\'s response schema for that status (spec §3.1 step 5)', async () => {
    const app = await build((root) => {
      root.post('/v', {
        schema: {
          body: { type: 'object', required: ['a'] },
          response: { 400: { type: 'object', properties: { statusCode: { type: 'integer' }, message: { type: 'string' }, kind: { type: 'string', default: 'bad' } } } },
        },
      }, async () => ({}))
    })
    const res = await app.inject({ method: 'POST', url: '/v', payload: {} })
    expect(res.statusCode).to.equal(400)
    expect(res.json()).to.deep.equal({ statusCode: 400, message: "body should have required property 'a'", kind: 'bad' })
  })

  it('a `default` response schema shapes the error replies too, as Fastify 5 does (Fastify 3 has no `default`)', async () => {
    const app = await build((root) => {
      root.get('/rdef', {
        schema: {
          querystring: { type: 'object', properties: { i: { type: 'integer' } } },
          response: { default: { type: 'object', properties: { data: { type: 'string' } } } },
        },
      }, async (req) => {
        const query = req.query as { t?: string; h?: string }
        if (query.t !== undefined) throw new Error('boom')
        if (query.h !== undefined) throw Object.assign(new Error('nope'), { statusCode: 403 })
        return { data: 'x', other: 1 }
      })
      root.get('/ranged', {
        schema: { response: { '4xx': { type: 'object', properties: { message: { type: 'string' } } }, default: { type: 'object', properties: { data: { type: 'string' } } } } },
      }, async () => { throw Object.assign(new Error('nope'), { statusCode: 403 }) })
    })
    // Fastify 5.12.8 answers the same four: {} for each error, the filtered value on success.
    for (const [url, status] of [['/rdef?i=abc', 400], ['/rdef?h=1', 403], ['/rdef?t=1', 500]] as const) {
      const res = await app.inject(url)
      expect(res.statusCode, url).to.equal(status)
      expect(res.json(), url).to.deep.equal({})
    }
    expect((await app.inject('/rdef')).json()).to.deep.equal({ data: 'x' })
    // A status key or range key wins over `default`.
    expect((await app.inject('/ranged')).json()).to.deep.equal({ message: 'nope' })
  })

  it('a thrown error\'s custom fields survive through a 4xx range response schema', async () => {
    const app = await build((root) => {
      root.get('/e', {
        schema: { response: { '4xx': { type: 'object', properties: { statusCode: { type: 'integer' }, error: { type: 'string' }, message: { type: 'string' }, field: { type: 'string' } } } } },
      }, async () => { throw Object.assign(new Error('no such thing'), { statusCode: 404, field: 'id' }) })
    })
    const res = await app.inject('/e')
    expect(res.statusCode).to.equal(404)
    expect(res.json()).to.deep.equal({ statusCode: 404, error: 'Not Found', message: 'no such thing', field: 'id' })
  })

  it('a thrown non-Error value reaches the error handler as thrown', async () => {
    const seen: unknown[] = []
    const thrownObject = { myError: 'kaboom' }
    const app = await build((root) => {
      root.setErrorHandler(async (error, _req, reply) => { seen.push(error); reply.code(500).send({ handled: true }) })
      root.get('/s', async () => { throw 'a string' })
      root.get('/o', async () => { throw thrownObject })
    })
    await app.inject('/s')
    await app.inject('/o')
    expect(seen[0]).to.equal('a string')
    expect(seen[1]).to.equal(thrownObject)
  })

  it('a thrown plain object with a 4xx status keeps its fields in the default reply, with no error field added; without one it is a generic 500 (safety)', async () => {
    const app = await build((root) => {
      root.get('/', { preHandler: async () => { throw { myError: 'kaboom', message: 'i am an error' } } }, async () => ({}))
      root.get('/status', async () => { throw { statusCode: 409, message: 'taken', id: 3 } })
    })
    const res = await app.inject('/')
    expect(res.statusCode).to.equal(500)
    // Fastify 3 sends the object itself; a 5xx never shows what was thrown here (README differences).
    expect(res.json()).to.deep.equal({ statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
    const conflict = await app.inject('/status')
    expect(conflict.statusCode).to.equal(409)
    expect(conflict.json()).to.deep.equal({ statusCode: 409, message: 'taken', id: 3 })
  })

  it('a response value its schema type cannot hold is coerced as Fastify 3 does: numbers from numeric strings, null where allowed', async () => {
    const app = await build((root) => {
      root.get('/', {
        schema: { response: { 200: { type: 'object', properties: { n: { type: 'integer' }, x: { type: 'number' }, s: { type: ['string', 'null'] } } } } },
      }, async () => ({ n: '12', x: '1.5', s: null }))
    })
    const res = await app.inject('/')
    expect(res.statusCode).to.equal(200)
    expect(res.json()).to.deep.equal({ n: 12, x: 1.5, s: null })
  })

  it('a serialization error reaches the error handler with error.serialization', async () => {
    let seen: unknown
    const app = await build((root) => {
      root.setErrorHandler(async (error, _req, reply) => { seen = (error as { serialization?: unknown }).serialization; reply.code(500).send({ caught: true }) })
      root.get('/', { schema: { response: { 200: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } } }, async () => ({ no: 'name' }))
    })
    const res = await app.inject('/')
    expect(res.json()).to.deep.equal({ caught: true })
    expect(seen).to.deep.include({ method: 'GET', url: '/', statusCode: 200 })
  })

  it('reply.raw.statusCode inside the error handler already holds the error\'s status', async () => {
    let raw = 0
    const app = await build((root) => {
      root.setErrorHandler(async (_error, _req, reply) => { raw = reply.raw.statusCode; return { ok: false } })
      root.get('/', async () => { throw Object.assign(new Error('teapot'), { statusCode: 418 }) })
    })
    const res = await app.inject('/')
    expect(raw).to.equal(418)
    expect(res.statusCode).to.equal(418)
  })

  it('a custom validator\'s { error } keeps its own validation and validationContext fields', async () => {
    let seen: Record<string, unknown> = {}
    const app = await build((root) => {
      root.setValidatorCompiler(() => () => ({ error: Object.assign(new Error('custom says no'), { validation: ['mine'], validationContext: 'somewhere' }) }) as never)
      root.setErrorHandler(async (error, _req, reply) => { seen = { validation: error.validation, validationContext: error.validationContext }; reply.code(400).send({}) })
      root.post('/', { schema: { body: { type: 'object' } } }, async () => ({}))
    })
    await app.inject({ method: 'POST', url: '/', payload: {} })
    expect(seen).to.deep.equal({ validation: ['mine'], validationContext: 'somewhere' })
  })

  it('reply.send(object) after reply.type(\'text/html\') is refused with a coded error', async () => {
    const logger = recordingLogger()
    const app = await build((root) => {
      root.get('/', async (_req: Request, reply: Reply) => { reply.type('text/html').send({ a: 1 }); return reply })
    }, { logger })
    const res = await app.inject('/')
    expect(res.statusCode).to.equal(500)
    expect(res.headers['content-type']).to.contain('application/json')
    expect(logger.entries.some((e) => (e.obj as { err?: { code?: string } }).err?.code === 'ENC_ERR_REPLY_INVALID_PAYLOAD_TYPE')).to.equal(true)
  })

  it('an object or number sent under a type that is not JSON is answered when an onSend hook makes it text (Fastify 3)', async () => {
    const seen: string[] = []
    const app = await build((root) => {
      const onSend = async (_q: Request, _r: Reply, payload: unknown): Promise<unknown> => { seen.push(typeof payload); return typeof payload === 'number' ? Buffer.from(`n=${String(payload)}`) : `<p>${JSON.stringify(payload)}</p>` }
      root.get('/o', { onSend }, async (_req: Request, reply: Reply) => { reply.type('text/html').send({ a: 1 }); return reply })
      root.get('/n', { onSend }, async (_req: Request, reply: Reply) => { reply.type('text/plain').code(404).send(42); return reply })
    })
    const page = await app.inject('/o')
    expect([page.statusCode, page.headers['content-type'], page.body]).to.deep.equal([200, 'text/html', '<p>{"a":1}</p>'])
    const bytes = await app.inject('/n')
    expect([bytes.statusCode, bytes.headers['content-type'], bytes.body]).to.deep.equal([404, 'text/plain', 'n=42'])
    // The hooks saw the value itself, not its JSON.
    expect(seen).to.deep.equal(['object', 'number'])
  })

  it('an object sent under a type that is not JSON and left an object by the onSend hooks is refused with the coded error', async () => {
    const logger = recordingLogger()
    const app = await build((root) => {
      root.get('/', { onSend: async (_q: Request, _r: Reply, payload: unknown) => payload }, async (_req: Request, reply: Reply) => { reply.type('text/html').send({ a: 1 }); return reply })
    }, { logger })
    const res = await app.inject('/')
    expect(res.statusCode).to.equal(500)
    expect(res.json()).to.deep.equal({ statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
    expect(logger.entries.some((e) => (e.obj as { err?: { code?: string } }).err?.code === 'ENC_ERR_REPLY_INVALID_PAYLOAD_TYPE')).to.equal(true)
  })

  it('reply.serializer() output gets no implicit JSON content type', async () => {
    const app = await build((root) => {
      root.get('/', async (_req: Request, reply: Reply) => { reply.serializer(() => 'a,b').send({ a: 1 }); return reply })
    })
    const res = await app.inject('/')
    expect(res.body).to.equal('a,b')
    expect(res.headers['content-type']).to.equal(undefined)
  })

  it('a JSON string sent with application/json gets ; charset=utf-8', async () => {
    const app = await build((root) => {
      root.get('/', async (_req: Request, reply: Reply) => { reply.type('application/json').send('{"a":1}'); return reply })
    })
    const res = await app.inject('/')
    expect(res.headers['content-type']).to.equal('application/json; charset=utf-8')
    expect(res.json()).to.deep.equal({ a: 1 })
  })
})
