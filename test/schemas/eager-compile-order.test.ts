// Eager boot compiles every route's validators, then every route's serializers (boot/serializer-batch.ts),
// because that order costs less CPU. What a boot reports must not change with it: the first broken
// route in declaration order, its code and message, and the boot warnings logged before it.
import { expect } from 'chai'
import { bootError, build, recordingLogger, server } from '../support/servers'
import type { Scope } from '../../src'

const handler = async (): Promise<Record<string, unknown>> => ({ id: 1, secret: 'x' })
const brokenResponse = { response: { 200: { $ref: 'missing#' } } }
const brokenBody = { body: { $ref: 'nope#' } }
// Logs ENC_WARN_SCHEMA_UNIQUE_ITEMS_UNBOUNDED at boot.
const warningBody = { body: { type: 'object', properties: { tags: { type: 'array', uniqueItems: true } } } }

async function bootOf(declare: (app: Scope) => void): Promise<{ error: Error & { code?: string }; warned: unknown[] }> {
  const logger = recordingLogger()
  const app = server({ logger })
  declare(app)
  const error = await bootError(app)
  const warned = logger.entries.filter((e) => e.level === 'warn').map((e) => `${String(e.obj.code)} ${String(e.obj.route)}`)
  return { error, warned }
}

describe('eager boot: validators before serializers, the same report', () => {
  it('a broken response schema declared before a broken body schema is the error reported', async () => {
    const { error } = await bootOf((app) => {
      app.post('/first', { schema: brokenResponse }, handler)
      app.post('/second', { schema: brokenBody }, handler)
    })
    expect(error.code).to.equal('ENC_ERR_SCH_REF_NOT_VISIBLE')
    expect(error.message).to.contain('Route POST /first in scope root: its response 200 schema (serializer)').and.contain("'missing#'")
  })

  it('a broken body schema declared before a broken response schema is the error reported', async () => {
    const { error } = await bootOf((app) => {
      app.post('/first', { schema: brokenBody }, handler)
      app.post('/second', { schema: brokenResponse }, handler)
    })
    expect(error.code).to.equal('ENC_ERR_SCH_REF_NOT_VISIBLE')
    expect(error.message).to.contain('Route POST /first in scope root: its body schema (validator)').and.contain("'nope#'")
  })

  it('a broken response schema wins over a later route error that is not a schema one (a duplicate route)', async () => {
    const { error } = await bootOf((app) => {
      app.post('/first', { schema: brokenResponse }, handler)
      app.post('/first', handler)
    })
    expect(error.code).to.equal('ENC_ERR_SCH_REF_NOT_VISIBLE')
    expect(error.message).to.contain('POST /first').and.contain('response 200')
  })

  it('within a route, a status whose serializer fails wins over a later status refused by the keyword check', async () => {
    const { error } = await bootOf((app) => {
      app.post('/r', { schema: { response: { 200: { $ref: 'missing#' }, 400: { type: 'object', maxLenght: 2 } } } }, handler)
    })
    expect(error.code).to.equal('ENC_ERR_SCH_REF_NOT_VISIBLE')
    expect(error.message).to.contain('response 200')
  })

  it('a later route refused before its serializers are reached is still reported when no earlier serializer fails', async () => {
    const { error } = await bootOf((app) => {
      app.post('/fine', { schema: { response: { 200: { type: 'object', properties: { id: { type: 'integer' } } } } } }, handler)
      app.post('/typo', { schema: { body: { type: 'object', maxLenght: 2 } } }, handler)
    })
    expect(error.code).to.equal('ENC_ERR_SCH_UNKNOWN_KEYWORD')
    expect(error.message).to.contain('/typo')
  })

  it('a boot that fails at a serializer logs the warnings of the routes before it only, in route order', async () => {
    const { error, warned } = await bootOf((app) => {
      app.post('/a', { schema: warningBody }, handler)
      app.post('/b', { schema: warningBody }, handler)
      app.post('/broken', { schema: brokenResponse }, handler)
      app.post('/c', { schema: warningBody }, handler)
      app.post('/body', { schema: brokenBody }, handler)
    })
    expect(error.message).to.contain('POST /broken')
    expect(warned).to.deep.equal(['ENC_WARN_SCHEMA_UNIQUE_ITEMS_UNBOUNDED POST /a', 'ENC_WARN_SCHEMA_UNIQUE_ITEMS_UNBOUNDED POST /b'])
  })

  it('a boot that succeeds logs every route warning in route order', async () => {
    const logger = recordingLogger()
    await build((app) => {
      app.post('/a', { schema: { ...warningBody, response: { 200: { type: 'object' } } } }, handler)
      app.post('/b', { schema: { response: { 200: { type: 'object' } } } }, handler)
      app.post('/c', { schema: warningBody }, handler)
    }, { logger })
    expect(logger.entries.filter((e) => e.level === 'warn').map((e) => e.obj.route)).to.deep.equal(['POST /a', 'POST /c'])
  })

  it('the serializers built after every route serve their routes, range and default keys and the implicit HEAD included', async () => {
    const object = { type: 'object', properties: { id: { type: 'integer' } } }
    const app = await build((root) => {
      root.get('/exact', { schema: { response: { 200: object } } }, handler)
      root.get('/range', { schema: { response: { '2xx': object } } }, handler)
      root.get('/default', { schema: { response: { default: object } } }, handler)
    })
    for (const url of ['/exact', '/range', '/default']) {
      const reply = await app.inject({ method: 'GET', url })
      expect(reply.json(), url).to.deep.equal({ id: 1 })
    }
    const head = await app.inject({ method: 'HEAD', url: '/exact' })
    expect(head.statusCode).to.equal(200)
    expect(head.headers['content-length']).to.equal(String('{"id":1}'.length))
  })

  it('bootProfile() still counts a route\'s serializer code and time (a response-only route compiles nothing else)', async () => {
    const app = await build((root) => {
      root.get('/only-response', { schema: { response: { 200: { type: 'object', properties: { id: { type: 'integer' } } } } } }, handler)
    })
    const [route] = app.bootProfile().slowestRoutes
    expect(route).to.include({ url: '/only-response', when: 'boot' })
    expect(route.codeBytes).to.be.greaterThan(0)
    expect(route.ms).to.be.greaterThan(0)
  })

  it('a custom serializer compiler is still called route by route, right after that route\'s validators', async () => {
    const calls: string[] = []
    await build((root) => {
      root.setValidatorCompiler(({ url }) => { calls.push(`validator ${String(url)}`); return () => true })
      root.setSerializerCompiler(({ url }) => { calls.push(`serializer ${String(url)}`); return (data) => JSON.stringify(data) })
      root.post('/a', { schema: { body: { type: 'object' }, response: { 200: { type: 'object' } } } }, handler)
      root.post('/b', { schema: { body: { type: 'object' }, response: { 200: { type: 'object' } } } }, handler)
    })
    expect(calls).to.deep.equal(['validator /a', 'serializer /a', 'validator /b', 'serializer /b'])
  })
})

describe('eager boot: validators after every route\'s own checks, the same report', () => {
  it('a broken body schema declared before a misspelt keyword is the error reported', async () => {
    const { error } = await bootOf((app) => {
      app.post('/first', { schema: brokenBody }, handler)
      app.post('/typo', { schema: { body: { type: 'object', maxLenght: 2 } } }, handler)
    })
    expect(error.code).to.equal('ENC_ERR_SCH_REF_NOT_VISIBLE')
    expect(error.message).to.contain('Route POST /first in scope root: its body schema (validator)')
  })

  it('within a route, a body schema that fails to compile wins over a later part\'s misspelt keyword', async () => {
    const { error } = await bootOf((app) => {
      app.post('/r', { schema: { body: { $ref: 'nope#' }, querystring: { type: 'object', maxLenght: 2 } } }, handler)
    })
    expect(error.code).to.equal('ENC_ERR_SCH_REF_NOT_VISIBLE')
    expect(error.message).to.contain('body schema')
  })

  it('a misspelt keyword is reported when no earlier validator fails', async () => {
    const { error } = await bootOf((app) => {
      app.post('/fine', { schema: { body: { type: 'object', properties: { id: { type: 'integer' } } } } }, handler)
      app.post('/typo', { schema: { body: { type: 'object', maxLenght: 2 } } }, handler)
      app.post('/later', { schema: brokenBody }, handler)
    })
    expect(error.code).to.equal('ENC_ERR_SCH_UNKNOWN_KEYWORD')
    expect(error.message).to.contain('/typo')
  })

  it('a boot that fails at a validator logs the warnings of the routes before it only, in route order', async () => {
    const { error, warned } = await bootOf((app) => {
      app.post('/a', { schema: warningBody }, handler)
      app.post('/b', { schema: { ...warningBody, response: { 200: { type: 'object' } } } }, handler)
      app.post('/broken', { schema: { ...brokenBody, querystring: { type: 'object', properties: { tags: { type: 'array', uniqueItems: true } } } } }, handler)
      app.post('/c', { schema: warningBody }, handler)
    })
    expect(error.message).to.contain('POST /broken')
    expect(warned).to.deep.equal(['ENC_WARN_SCHEMA_UNIQUE_ITEMS_UNBOUNDED POST /a', 'ENC_WARN_SCHEMA_UNIQUE_ITEMS_UNBOUNDED POST /b',
      'ENC_WARN_SCHEMA_UNIQUE_ITEMS_UNBOUNDED POST /broken'])
  })

  it('the validators compiled after every route validate their routes, every part and the implicit HEAD included', async () => {
    const app = await build((root) => {
      root.post('/body/:id', {
        schema: {
          params: { type: 'object', properties: { id: { type: 'integer' } } },
          body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
          headers: { type: 'object', required: ['x-key'], properties: { 'x-key': { type: 'string' } } },
        },
      }, async (request) => ({ body: request.body, params: request.params }))
      root.get('/query', { schema: { querystring: { type: 'object', properties: { n: { type: 'integer' } } } } }, async (request) => request.query)
    })
    const ok = await app.inject({ method: 'POST', url: '/body/7', headers: { 'x-key': 'k' }, payload: { name: 'a' } })
    expect(ok.json()).to.deep.equal({ body: { name: 'a' }, params: { id: 7 } })
    expect((await app.inject({ method: 'POST', url: '/body/7', headers: { 'x-key': 'k' }, payload: {} })).statusCode).to.equal(400)
    expect((await app.inject({ method: 'POST', url: '/body/x', headers: { 'x-key': 'k' }, payload: { name: 'a' } })).statusCode).to.equal(400)
    expect((await app.inject({ method: 'POST', url: '/body/7', payload: { name: 'a' } })).statusCode).to.equal(400)
    expect((await app.inject({ method: 'GET', url: '/query?n=3' })).json()).to.deep.equal({ n: 3 })
    expect((await app.inject({ method: 'GET', url: '/query?n=x' })).statusCode).to.equal(400)
    expect((await app.inject({ method: 'HEAD', url: '/query?n=x' })).statusCode).to.equal(400)
  })

  it('a body schema that refuses non-finite numbers still does after the validator pass ("Infinity" is not coerced)', async () => {
    const app = await build((root) => {
      root.post('/n', { schema: { body: { type: 'object', properties: { n: { type: 'number' } } } } }, async (request) => request.body)
    })
    expect((await app.inject({ method: 'POST', url: '/n', payload: { n: 'Infinity' } })).statusCode).to.equal(400)
    expect((await app.inject({ method: 'POST', url: '/n', payload: { n: '2' } })).json()).to.deep.equal({ n: 2 })
  })

  it('bootProfile() still counts a route\'s validator code and time (a body-only route compiles nothing else)', async () => {
    const app = await build((root) => {
      root.post('/only-body', { schema: { body: { type: 'object', properties: { id: { type: 'integer' } } } } }, handler)
    })
    const [route] = app.bootProfile().slowestRoutes
    expect(route).to.include({ url: '/only-body', when: 'boot' })
    expect(route.codeBytes).to.be.greaterThan(0)
    expect(route.ms).to.be.greaterThan(0)
  })

  it('a custom serializer compiler still sees each route\'s default validators compiled before it (ajv keyword hooks in route order)', async () => {
    const calls: string[] = []
    await build((root) => {
      root.setSerializerCompiler(({ url }) => { calls.push(`serializer ${String(url)}`); return (data) => JSON.stringify(data) })
      root.post('/a', { schema: { body: { type: 'object', properties: { v: { type: 'string', probe: 'a' } } }, response: { 200: { type: 'object' } } } }, handler)
      root.post('/b', { schema: { body: { type: 'object', properties: { v: { type: 'string', probe: 'b' } } }, response: { 200: { type: 'object' } } } }, handler)
    }, {
      validator: {
        customKeywords: ['probe'],
        plugins: [(ajv: unknown) => {
          (ajv as { addKeyword(name: string, def: object): void }).addKeyword('probe', { compile: (value: string) => { calls.push(`validator /${value}`); return () => true } })
        }],
      },
    })
    expect(calls).to.deep.equal(['validator /a', 'serializer /a', 'validator /b', 'serializer /b'])
  })
})
