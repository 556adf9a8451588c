// ready({ compileAll: true }) on a lazy app compiles in eager boot's order (every route's own checks,
// then every validator, then every serializer: boot/serializer-batch.ts), because that order costs less
// CPU. What it reports and leaves must not change with it: the first broken route in declaration order,
// the routes before it compiled, that route failed, the routes after it waiting for their first request,
// and the boot warnings logged up to it only.
import { expect } from 'chai'
import { recordingLogger, server } from '../support/servers'
import type { Scope } from '../../src'

const handler = async (): Promise<Record<string, unknown>> => ({ id: 1, secret: 'x' })
const brokenResponse = { response: { 200: { $ref: 'missing#' } } }
const brokenBody = { body: { $ref: 'nope#' } }
const fine = { body: { type: 'object', properties: { n: { type: 'integer' } } }, response: { 200: { type: 'object', properties: { id: { type: 'integer' } } } } }
// Logs ENC_WARN_SCHEMA_UNIQUE_ITEMS_UNBOUNDED when the route's schema is first read.
const warningBody = { body: { type: 'object', properties: { tags: { type: 'array', uniqueItems: true } } } }

async function compileAllOf(declare: (app: Scope) => void) {
  const logger = recordingLogger()
  const app = server({ logger, schemaCompilation: 'lazy' })
  declare(app)
  await app.ready()
  let error: (Error & { code?: string }) | null = null
  try { await app.ready({ compileAll: true }) } catch (e) { error = e as Error & { code?: string } }
  const warned = (): string[] => logger.entries.filter((e) => e.level === 'warn').map((e) => String(e.obj.route))
  return { app, error, warned }
}

describe('ready({ compileAll: true }): batched, the same report and the same routes left', () => {
  it('a broken response schema declared before a broken body schema is the error reported', async () => {
    const { error } = await compileAllOf((app) => {
      app.post('/first', { schema: brokenResponse }, handler)
      app.post('/second', { schema: brokenBody }, handler)
    })
    expect(error?.code).to.equal('ENC_ERR_SCH_REF_NOT_VISIBLE')
    expect(error?.message).to.contain('POST /first').and.contain('response 200')
  })

  it('a broken body schema declared before a misspelt keyword is the error reported', async () => {
    const { error } = await compileAllOf((app) => {
      app.post('/first', { schema: brokenBody }, handler)
      app.post('/typo', { schema: { body: { type: 'object', maxLenght: 2 } } }, handler)
    })
    expect(error?.code).to.equal('ENC_ERR_SCH_REF_NOT_VISIBLE')
    expect(error?.message).to.contain('POST /first').and.contain('body schema')
  })

  it('leaves the routes before the failure compiled, that route failed and the routes after it pending', async () => {
    const { app, error } = await compileAllOf((app) => {
      app.post('/before', { schema: fine }, handler)
      app.post('/broken', { schema: brokenResponse }, handler)
      app.post('/after', { schema: fine }, handler)
      app.post('/after-broken', { schema: brokenBody }, handler)
    })
    expect(error?.message).to.contain('POST /broken')
    const profile = app.bootProfile()
    expect(profile.compiledRoutes).to.equal(1)
    expect(profile.pendingRoutes).to.equal(3)
    expect((await app.inject({ method: 'POST', url: '/before', payload: { n: 'x' } })).statusCode).to.equal(400)
    expect((await app.inject({ method: 'POST', url: '/before', payload: { n: 1 } })).json()).to.deep.equal({ id: 1 })
    const broken = await app.inject({ method: 'POST', url: '/broken', payload: {} })
    expect(broken.statusCode).to.equal(500)
    expect((broken.json() as { code?: string }).code).to.equal('ENC_ERR_SCH_REF_NOT_VISIBLE')
    // Not reached by compileAll: compiled (and validated) on its first request.
    expect((await app.inject({ method: 'POST', url: '/after', payload: { n: 'x' } })).statusCode).to.equal(400)
    expect(app.bootProfile().pendingRoutes).to.equal(2)
    // compileAll again: the failed route throws its error again, first in route order.
    let again: (Error & { code?: string }) | null = null
    try { await app.ready({ compileAll: true }) } catch (e) { again = e as Error & { code?: string } }
    expect(again?.message).to.equal(error?.message)
  })

  it('a failing validator leaves the routes after it pending, their warnings logged when they compile', async () => {
    const { app, error, warned } = await compileAllOf((app) => {
      app.post('/a', { schema: warningBody }, handler)
      app.post('/broken', { schema: brokenBody }, handler)
      app.post('/c', { schema: warningBody }, handler)
    })
    expect(error?.message).to.contain('POST /broken')
    expect(warned()).to.deep.equal(['POST /a'])
    expect(app.bootProfile().pendingRoutes).to.equal(2)
    await app.inject({ method: 'POST', url: '/c', payload: {} })
    expect(warned()).to.deep.equal(['POST /a', 'POST /c'])
  })

  it('a misspelt keyword refused in the first pass, with nothing failing before it, fails that route only', async () => {
    const { app, error } = await compileAllOf((app) => {
      app.post('/fine', { schema: fine }, handler)
      app.post('/typo', { schema: { body: { type: 'object', maxLenght: 2 } } }, handler)
      app.post('/later', { schema: fine }, handler)
    })
    expect(error?.code).to.equal('ENC_ERR_SCH_UNKNOWN_KEYWORD')
    expect(app.bootProfile().compiledRoutes).to.equal(1)
    expect(app.bootProfile().pendingRoutes).to.equal(2)
    expect((await app.inject({ method: 'POST', url: '/typo', payload: {} })).statusCode).to.equal(500)
    expect((await app.inject({ method: 'POST', url: '/later', payload: { n: 1 } })).json()).to.deep.equal({ id: 1 })
  })

  it('a good app: every route compiled and serving, warnings logged once in route order, nothing pending', async () => {
    const { app, error, warned } = await compileAllOf((app) => {
      app.post('/a', { schema: { ...warningBody, response: fine.response } }, handler)
      app.post('/b', { schema: fine }, handler)
      app.get('/c', { schema: { querystring: { type: 'object', properties: { n: { type: 'integer' } } }, response: fine.response } }, handler)
      app.post('/d', { schema: warningBody }, handler)
    })
    expect(error).to.equal(null)
    expect(warned()).to.deep.equal(['POST /a', 'POST /d'])
    expect(app.bootProfile().pendingRoutes).to.equal(0)
    expect(app.bootProfile().compiledRoutes).to.equal(4)
    expect((await app.inject({ method: 'POST', url: '/b', payload: { n: 'x' } })).statusCode).to.equal(400)
    expect((await app.inject({ method: 'GET', url: '/c?n=x' })).statusCode).to.equal(400)
    expect((await app.inject({ method: 'HEAD', url: '/c?n=x' })).statusCode).to.equal(400)
    expect((await app.inject({ method: 'GET', url: '/c?n=2' })).body).to.equal('{"id":1}')
    expect(warned()).to.deep.equal(['POST /a', 'POST /d'])
  })

  it('after a first request, the statuses it left are built by compileAll in route order, their failure reported first', async () => {
    const logger = recordingLogger()
    const app = server({ logger, schemaCompilation: 'lazy' })
    app.get('/early', { schema: { response: { 200: fine.response[200], 404: { $ref: 'missing#' } } } }, handler)
    app.post('/late', { schema: brokenBody }, handler)
    expect((await app.inject({ method: 'GET', url: '/early' })).statusCode).to.equal(200)
    let error: (Error & { code?: string }) | null = null
    try { await app.ready({ compileAll: true }) } catch (e) { error = e as Error & { code?: string } }
    expect(error?.message).to.contain('GET /early').and.contain('response 404')
    expect(app.bootProfile().pendingRoutes).to.equal(1)
  })
})
