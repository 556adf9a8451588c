// A public developer API's error contract (docs/recipes-public-api.md, "Errors as a contract"): one root
// @ErrorHandler and @NotFoundHandler answer RFC 9457 `application/problem+json` for every error the
// framework raises itself (validation 400, unparsable body 400, undecodable URL 400, 401 from the key
// hook, 404, 405 with its Allow kept, 413, 415) with a stable code and the request id; a client's
// X-Request-Id is echoed only when it is a plain token; and openapi() documents those statuses with
// the handler's schema under its media type (`@ErrorHandler({ responses: { '4xx' }, contentType })`),
// a document a real OpenAPI 3.1 validator accepts.
import 'reflect-metadata'
import { expect } from 'chai'
import { createHash } from 'node:crypto'
import { Validator } from '@seriousme/openapi-schema-validator'
import { Body, ErrorHandler, Get, Hook, HttpError, Module, NotFoundHandler, OnRequest, Params, Post, Route, describeSecurity, type HandledError, type InjectOptions, type Reply, type Request } from '../../src'
import { createApp } from '../../src/modules'
import { server } from '../support/servers'

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
/** Keys are stored hashed: a leaked table gives no usable key. */
const keysByHash = new Map([[sha256('sk_live_1'), { account: 'acct_1' }]])

const apiKey = describeSecurity(async function apiKey(request: Request) {
  const header = request.headers.authorization
  if (typeof header !== 'string' || !header.startsWith('Bearer ')) throw new HttpError(401, 'Send your API key as Authorization: Bearer <key>', { code: 'API_KEY_MISSING' })
  if (!keysByHash.has(sha256(header.slice(7)))) throw new HttpError(401, 'This API key is not valid', { code: 'API_KEY_INVALID' })
}, { name: 'apiKey', scheme: { type: 'http', scheme: 'bearer' }, status: 401 })

const problemSchema = {
  type: 'object', required: ['type', 'title', 'status', 'code'],
  properties: { type: { type: 'string' }, title: { type: 'string' }, status: { type: 'integer' }, detail: { type: 'string' }, instance: { type: 'string' }, code: { type: 'string' }, requestId: { type: 'string' } },
} as const
interface Problem { type: string; title: string; status: number; detail?: string; instance: string; code: string; requestId: string }

function problem(request: Request, reply: Reply, status: number, code: string, detail?: string) {
  return reply.code(status).type('application/problem+json').send({
    type: `https://docs.example.com/errors/${code.toLowerCase()}`, title: status >= 500 ? 'Internal Server Error' : detail ?? code, status,
    detail, instance: request.url, code, requestId: request.id,
  })
}

@Route('/customers')
class CustomersController {
  @Post('/', { schema: { body: { type: 'object', required: ['email'], properties: { email: { type: 'string', format: 'email' } } } } })
  create(@Body() body: { email: string }) { return { id: 'cus_1', email: body.email } }

  @Get('/:id') find(@Params('id') id: string) { throw new HttpError(404, `No customer ${id}`, { code: 'CUSTOMER_NOT_FOUND' }) }
}

@OnRequest(apiKey)
@Module({ controllers: [CustomersController], prefix: '/v1' })
class V1Module {}

@Module({ plugins: [V1Module] })
class AppModule {
  // Every error the framework raises reaches this handler (its own 400s, 405, 413, 415 included).
  @ErrorHandler({ responses: { '4xx': problemSchema, '5xx': problemSchema }, contentType: 'application/problem+json' })
  onError(error: HandledError, request: Request, reply: Reply) {
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500
    const code = error.validation !== undefined ? 'VALIDATION_FAILED' : typeof error.code === 'string' ? error.code : 'INTERNAL'
    return problem(request, reply, status, code, status >= 500 ? undefined : error.message)
  }

  @NotFoundHandler() notFound(request: Request, reply: Reply) { return problem(request, reply, 404, 'NOT_FOUND', `${request.method} ${request.url} is not a route`) }

  // The id a client sent (a plain token: requestIdHeader) or the generated one, on every answer.
  @Hook('onSend') async requestId(request: Request, reply: Reply) { reply.header('x-request-id', request.id) }
}

describe('public API: every framework error answered as application/problem+json (docs/recipes-public-api.md)', function () {
  this.timeout(10_000)
  let app: Awaited<ReturnType<typeof createApp>>
  before(async () => { app = await createApp(AppModule, { requestIdHeader: 'x-request-id', bodyLimit: 1024 }) })
  after(async () => { await app.close() })

  const auth = { authorization: 'Bearer sk_live_1' }
  const cases: Array<{ what: string; status: number; code: string; request: InjectOptions }> = [
    { what: 'no API key', status: 401, code: 'API_KEY_MISSING', request: { url: '/v1/customers/cus_1' } },
    { what: 'an unknown API key', status: 401, code: 'API_KEY_INVALID', request: { url: '/v1/customers/cus_1', headers: { authorization: 'Bearer sk_live_2' } } },
    { what: 'a body failing its schema', status: 400, code: 'VALIDATION_FAILED', request: { method: 'POST', url: '/v1/customers', headers: auth, payload: { email: 'nope' } } },
    { what: 'a body that is not JSON', status: 400, code: 'ENC_ERR_CTP_INVALID_JSON', request: { method: 'POST', url: '/v1/customers', headers: { ...auth, 'content-type': 'application/json' }, payload: '{nope' } },
    { what: 'an undecodable URL', status: 400, code: 'ENC_ERR_BAD_URL', request: { url: '/v1/customers/%zz', headers: auth } },
    { what: 'a body over bodyLimit', status: 413, code: 'ENC_ERR_CTP_BODY_TOO_LARGE', request: { method: 'POST', url: '/v1/customers', headers: auth, payload: { email: 'a'.repeat(2000) } } },
    { what: 'a media type no parser takes', status: 415, code: 'ENC_ERR_CTP_INVALID_MEDIA_TYPE', request: { method: 'POST', url: '/v1/customers', headers: { ...auth, 'content-type': 'text/xml' }, payload: '<a/>' } },
    { what: 'a method the path does not have', status: 405, code: 'ENC_ERR_METHOD_NOT_ALLOWED', request: { method: 'DELETE', url: '/v1/customers', headers: auth } },
    { what: 'an unknown URL', status: 404, code: 'NOT_FOUND', request: { url: '/v2/customers', headers: auth } },
    { what: "a handler's HttpError", status: 404, code: 'CUSTOMER_NOT_FOUND', request: { url: '/v1/customers/cus_9', headers: auth } },
  ]
  for (const c of cases) {
    it(`answers ${c.what} ${c.status} problem+json with code ${c.code} and the request id`, async () => {
      const res = await app.inject(c.request)
      const body = res.json() as Problem
      expect([res.statusCode, res.headers['content-type'], body.status, body.code]).to.deep.equal([c.status, 'application/problem+json; charset=utf-8', c.status, c.code])
      expect(body.requestId).to.equal(res.headers['x-request-id']).and.to.match(/^req-/)
      expect(JSON.stringify(body)).to.not.match(/\bat .+\.js:\d+/)   // no stack
    })
  }

  it('keeps the 405 Allow header while the handler changes the body', async () => {
    const res = await app.inject({ method: 'DELETE', url: '/v1/customers', headers: auth })
    expect(res.headers.allow).to.equal('POST')
  })

  it("echoes a client's X-Request-Id when it is a plain token, and replaces one that is not", async () => {
    const mine = await app.inject({ url: '/v1/customers/cus_9', headers: { ...auth, 'x-request-id': 'client-7f3a' } })
    expect([mine.headers['x-request-id'], (mine.json() as Problem).requestId]).to.deep.equal(['client-7f3a', 'client-7f3a'])
    const hostile = await app.inject({ url: '/v1/customers/cus_9', headers: { ...auth, 'x-request-id': 'x\u0000<script>alert(1)</script>' } })
    expect(hostile.headers['x-request-id']).to.match(/^req-[0-9a-z]+$/)
  })

  it("documents the framework's statuses with the handler's 4xx/5xx schema under application/problem+json, and a real validator accepts the document", async () => {
    const doc = app.openapi({ title: 'Public API', version: '1' })
    const create = doc.paths['/v1/customers'].post
    for (const status of ['400', '401', '404', '413', '415', '500']) {
      expect(Object.keys(create.responses[status].content ?? {}), status).to.deep.equal(['application/problem+json'])
      expect(create.responses[status].content!['application/problem+json'].schema, status).to.have.property('required').that.includes('code')
    }
    expect(create.responses['401'].description).to.include('apiKey')   // why the framework answers it stays documented
    expect(create.responses['4XX'].content!['application/problem+json'].schema).to.have.property('type', 'object')
    expect(create.security).to.deep.equal([{ apiKey: [] }])
    const result = await new Validator().validate(doc as never)
    expect(result.errors, JSON.stringify(result.errors)).to.equal(undefined)
    expect(result.valid).to.equal(true)
  })

  it('reads a runtime annotate({ errorResponses, errorContentType }) in either spelling (`4XX` or `4xx`, any media-type case) as the decorator does', async () => {
    const scope = server()
    scope.setErrorHandler((error, request, reply) => { reply.code(400).type('application/problem+json').send({ title: String(error) }) })
    scope.annotate({ errorResponses: { '4XX': problemSchema, '5xx': problemSchema }, errorContentType: 'Application/Problem+JSON' })
    scope.post('/things', { schema: { body: { type: 'object', required: ['a'], properties: { a: { type: 'string' } } } } }, async () => 'ok')
    await scope.ready()
    const doc = scope.openapi({ title: 'T', version: '1' })
    const post = doc.paths['/things'].post
    for (const status of ['400', '404', '500']) expect(Object.keys(post.responses[status].content ?? {}), status).to.deep.equal(['application/problem+json'])
    expect(post.responses['400'].content!['application/problem+json'].schema).to.have.property('required').that.includes('code')
    expect(Object.keys(post.responses)).to.include.members(['4XX', '5XX'])
    await scope.close()
  })

  it("refuses a contentType that is not a media type at declaration (ENC_ERR_DECL_TARGET naming the method)", () => {
    let error: (Error & { code?: string }) | undefined
    try {
      class Bad { @ErrorHandler({ contentType: 'problem json' }) onError() { /* never declared */ } }
      void Bad
    } catch (e) { error = e as Error & { code?: string } }
    expect(error?.code).to.equal('ENC_ERR_DECL_TARGET')
    expect(error?.message).to.include('Bad.onError').and.to.include("'application/problem+json'")
  })
})
