// new HttpError(status, message, { headers }): the response headers that belong to an error
// (WWW-Authenticate on a 401, Retry-After on a 429/503), set on the reply as Fastify 3 sets an
// error's `headers` field. Found by newcomer22 (a bearer-JWT guard had to cast to add the challenge).
import { expect } from 'chai'
import { createServer, HttpError } from '../../src/runtime'

const challenge = 'Bearer realm="api", error="invalid_token", error_description="The token has expired"'

describe('HttpError headers: response headers that belong to the error', () => {
  it('a guard\'s 401 carries its WWW-Authenticate challenge; the body keeps its shape', async () => {
    const app = createServer()
    app.get('/guarded', { onRequest: async () => { throw new HttpError(401, 'The token has expired', { code: 'TOKEN_EXPIRED', headers: { 'WWW-Authenticate': challenge } }) } }, async () => 'never')
    app.get('/busy', async () => { throw new HttpError(503, 'Try later', { headers: { 'retry-after': 120, 'x-reasons': ['a', 'b'] } }) })
    try {
      const res = await app.inject({ url: '/guarded' })
      expect(res.statusCode).to.equal(401)
      expect(res.headers['www-authenticate']).to.equal(challenge)
      expect(res.body).to.equal('{"statusCode":401,"code":"TOKEN_EXPIRED","error":"Unauthorized","message":"The token has expired"}')
      const busy = await app.inject({ url: '/busy' })
      expect(busy.headers['retry-after']).to.equal('120')
      expect(busy.headers['x-reasons']).to.deep.equal(['a', 'b'])
    } finally { await app.close() }
  })

  it('are set before the error handler runs: kept when it rethrows and when it answers itself (Fastify 3)', async () => {
    const app = createServer()
    app.register(async (scope) => {
      scope.setErrorHandler(async (error) => { throw error })
      scope.get('/rethrown', async () => { throw new HttpError(401, 'no', { headers: { 'www-authenticate': 'Bearer' } }) })
    })
    app.register(async (scope) => {
      scope.setErrorHandler(async (_error, _request, reply) => reply.code(401).send({ problem: 'token' }))
      scope.get('/answered', async () => { throw new HttpError(401, 'no', { headers: { 'www-authenticate': 'Bearer' } }) })
    })
    try {
      for (const url of ['/rethrown', '/answered']) {
        const res = await app.inject({ url })
        expect(res.statusCode, url).to.equal(401)
        expect(res.headers['www-authenticate'], url).to.equal('Bearer')
      }
    } finally { await app.close() }
  })

  it('an HttpError without headers sets none (the property is undefined)', () => {
    expect(new HttpError(401, 'no').headers).to.equal(undefined)
  })

  it('refuses at construction headers Node would refuse, with ENC_ERR_REPLY_INVALID_HTTP_ERROR naming the problem', () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ 'www-authenticate': 'Bearer\r\nSet-Cookie: x=1' }, /Invalid character in header content/],
      [{ 'bad name': 'x' }, /Header name must be a valid HTTP token/],
      [{ 'retry-after': { s: 1 } }, /not a string, number or array of strings \(retry-after/],
      [['www-authenticate', 'Bearer'], /a plain object .* got an array/],
    ]
    for (const [headers, says] of cases) {
      const error = (() => { try { new HttpError(401, 'x', { headers: headers as never }); return null } catch (e) { return e as Error & { code: string } } })()
      expect(error?.code, String(says)).to.equal('ENC_ERR_REPLY_INVALID_HTTP_ERROR')
      expect(error?.message).to.match(says)
      expect(error?.message).to.contain('{ headers }')
    }
  })

  it('types: headers are names to strings, numbers or string arrays', () => {
    // @ts-expect-error a header value must be a string, a number or an array of strings
    expect(() => new HttpError(401, 'x', { headers: { 'www-authenticate': { scheme: 'Bearer' } } })).to.throw()
    expect(new HttpError(429, 'x', { headers: { 'retry-after': 60 } }).headers).to.deep.equal({ 'retry-after': 60 })
  })
})
