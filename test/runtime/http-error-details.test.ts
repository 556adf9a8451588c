import { expect } from 'chai'
import { createServer, HttpError } from '../../src/runtime'

describe('HttpError details: extra body fields (NestJS new NotFoundException({ message, catId }))', () => {
  it('the built-in reply writes an HttpError\'s details after message, 4xx and 5xx alike, code kept', async () => {
    const app = createServer()
    app.get('/cats/:id', async () => { throw new HttpError(404, 'No cat 7', { code: 'CAT_NOT_FOUND', details: { catId: 7, tried: ['a', 'b'] } }) })
    app.get('/down', async () => { throw new HttpError(503, 'Down until 10:00', { details: { retryAfter: 600 } }) })
    try {
      const missing = await app.inject({ url: '/cats/7' })
      expect(missing.statusCode).to.equal(404)
      expect(missing.body).to.equal('{"statusCode":404,"code":"CAT_NOT_FOUND","error":"Not Found","message":"No cat 7","details":{"catId":7,"tried":["a","b"]}}')
      expect((await app.inject({ url: '/down' })).json()).to.deep.equal({ statusCode: 503, error: 'Service Unavailable', message: 'Down until 10:00', details: { retryAfter: 600 } })
    } finally { await app.close() }
  })

  it('an HttpError without details keeps the body it had: no details key', async () => {
    const app = createServer()
    app.get('/', async () => { throw new HttpError(409, 'taken') })
    try {
      expect((await app.inject({ url: '/' })).body).to.equal('{"statusCode":409,"error":"Conflict","message":"taken"}')
    } finally { await app.close() }
  })

  it('another error\'s own details field never reaches the body, 4xx or 5xx (it may hold internals)', async () => {
    const app = createServer()
    app.get('/4xx', async () => { throw Object.assign(new Error('bad'), { statusCode: 400, details: { sql: 'select secret' } }) })
    app.get('/5xx', async () => { throw Object.assign(new Error('boom'), { statusCode: 500, expose: true, details: { sql: 'select secret' } }) })
    try {
      expect((await app.inject({ url: '/4xx' })).json()).to.deep.equal({ statusCode: 400, error: 'Bad Request', message: 'bad' })
      expect((await app.inject({ url: '/5xx' })).body).to.not.contain('secret')
    } finally { await app.close() }
  })

  it('a subclass (class CatNotFound extends HttpError) carries its details the same way', async () => {
    class CatNotFound extends HttpError { constructor(readonly catId: string) { super(404, `No cat ${catId}`, { details: { catId } }) } }
    const app = createServer()
    app.get('/', async () => { throw new CatNotFound('tom') })
    try {
      expect((await app.inject({ url: '/' })).json()).to.deep.equal({ statusCode: 404, error: 'Not Found', message: 'No cat tom', details: { catId: 'tom' } })
    } finally { await app.close() }
  })

  it('a route\'s response schema for the status shapes the error as before: details kept when the schema lists it, dropped when not', async () => {
    const app = createServer()
    const error = { type: 'object', properties: { message: { type: 'string' }, details: { type: 'object', properties: { catId: { type: 'integer' } } } } } as const
    app.get('/listed', { schema: { response: { 404: error } } }, async () => { throw new HttpError(404, 'No cat', { details: { catId: 7, extra: 1 } }) })
    app.get('/unlisted', { schema: { response: { 404: { type: 'object', properties: { message: { type: 'string' } } } } } }, async () => { throw new HttpError(404, 'No cat', { details: { catId: 7 } }) })
    try {
      expect((await app.inject({ url: '/listed' })).json()).to.deep.equal({ message: 'No cat', details: { catId: 7 } })
      expect((await app.inject({ url: '/unlisted' })).json()).to.deep.equal({ message: 'No cat' })
    } finally { await app.close() }
  })

  it('refuses at construction details that are not a JSON-serializable plain object, with ENC_ERR_REPLY_INVALID_HTTP_ERROR', () => {
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    for (const [details, says] of [[[1, 2], 'an array'], ['text', "'text'"], [new Map(), 'an instance of Map'], [{ n: 1n }, 'BigInt'], [cyclic, 'circular']] as const) {
      const error = (() => { try { new HttpError(404, 'x', { details: details as never }); return null } catch (e) { return e as Error & { code: string } } })()
      expect(error?.code, String(says)).to.equal('ENC_ERR_REPLY_INVALID_HTTP_ERROR')
      expect(error?.message).to.contain('details must be a plain object').and.contain(says)
    }
  })
})
