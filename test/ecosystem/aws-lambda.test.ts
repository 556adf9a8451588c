// @fastify/aws-lambda (6.x) wrapping an Enclave app, invoked as Lambda invokes it: API Gateway
// REST (payload 1.0), HTTP API (payload 2.0) and ALB events, through the handler function (no
// AWS). The plugin calls app.decorateRequest(name, { getter }), then app.inject(options, callback)
// with `query`, `payload`, `headers`, `remoteAddress`: the same app on Fastify 3.27.4 gets the
// same events, and every answer is compared field by field (the date header aside).
import 'reflect-metadata'
import { expect } from 'chai'
import awsLambdaFastify from '@fastify/aws-lambda'
import { createServer, lift, type Scope } from '../../src/runtime'
import { Body, Get, Module, Post, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'

type Any = any // eslint-disable-line @typescript-eslint/no-explicit-any
type LambdaResult = { statusCode: number; headers: Record<string, string>; body: string; isBase64Encoded?: boolean; cookies?: string[]; multiValueHeaders?: Record<string, string[]> }
type Invoke = (event: unknown, context?: unknown) => Promise<LambdaResult>

const Item = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, price: { type: 'number' } }, required: ['id', 'name', 'price'] } as const
const NewItem = { type: 'object', additionalProperties: false, properties: { name: { type: 'string', minLength: 1 }, price: { type: 'number', minimum: 0 } }, required: ['name', 'price'] } as const

/** The service, written once against the API Enclave and Fastify share. */
function service(app: Any): void {
  app.get('/health', async () => ({ ok: true }))
  app.get('/items/:id', { schema: { params: { type: 'object', properties: { id: { type: 'integer', minimum: 1 } } }, response: { 200: Item } } },
    async (request: Any) => ({ id: request.params.id, name: 'pen', price: 2.5, secret: 'not serialized' }))
  app.get('/search', { schema: { querystring: { type: 'object', properties: { tag: { type: 'array', items: { type: 'string' } }, limit: { type: 'integer', maximum: 100 } } } } },
    async (request: Any) => ({ query: request.query }))
  app.get('/echo', async (request: Any) => ({ multi: request.headers['x-multi'] ?? null, cookie: request.headers.cookie ?? null, ip: request.ip, id: request.headers['x-request-id'] ?? null }))
  app.get('/png', async (_request: Any, reply: Any) => reply.type('image/png').send(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255])))
  app.get('/cookies', async (_request: Any, reply: Any) => { reply.header('set-cookie', ['a=1; Path=/', 'b=2; HttpOnly']); return { set: 2 } })
  app.register(async (admin: Any) => {
    admin.addHook('onRequest', async (request: Any, reply: Any) => {
      if (request.headers.authorization !== 'Bearer secret') return reply.code(401).send({ statusCode: 401, error: 'Unauthorized', message: 'bad token' })
    })
    admin.post('/items', { schema: { body: NewItem, response: { 201: Item } } }, async (request: Any, reply: Any) => reply.code(201).send({ id: 7, ...request.body }))
    admin.get('/boom', async () => { throw new Error('secret detail') })
  }, { prefix: '/admin' })
}

const json = { 'content-type': 'application/json' }
const httpApi = (method: string, rawPath: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  version: '2.0', routeKey: '$default', rawPath, rawQueryString: '', headers: { host: 'abc.execute-api.eu-west-1.amazonaws.com' },
  requestContext: { http: { method, path: rawPath, sourceIp: '203.0.113.9' }, requestId: 'v2-req', stage: '$default' }, isBase64Encoded: false, ...extra,
})
const restApi = (method: string, path: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  resource: '/{proxy+}', path, httpMethod: method, headers: { Host: 'abc.execute-api' }, multiValueHeaders: {}, queryStringParameters: null,
  multiValueQueryStringParameters: null, pathParameters: null, stageVariables: null, body: null, isBase64Encoded: false,
  requestContext: { resourcePath: '/{proxy+}', httpMethod: method, stage: 'prod', requestId: 'v1-req', identity: { sourceIp: '198.51.100.7' } }, ...extra,
})
const alb = (method: string, path: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  requestContext: { elb: { targetGroupArn: 'arn:aws:elasticloadbalancing:eu-west-1:1:targetgroup/t/1' } }, httpMethod: method, path,
  headers: { host: 'alb.example' }, body: '', isBase64Encoded: false, ...extra,
})
const bearer = { authorization: 'Bearer secret' }

/** Events every framework must answer alike. */
const events: Array<[string, Record<string, unknown>]> = [
  ['HTTP API: GET', httpApi('GET', '/health')],
  ['HTTP API: params coerced, response schema drops the extra field', httpApi('GET', '/items/3')],
  ['HTTP API: params invalid, 400', httpApi('GET', '/items/0')],
  ['HTTP API: comma-separated query parsed into an array', httpApi('GET', '/search', { rawQueryString: 'tag=a,b', queryStringParameters: { tag: 'a,b' } })],
  ['HTTP API: query over its maximum, 400', httpApi('GET', '/search', { rawQueryString: 'limit=500', queryStringParameters: { limit: '500' } })],
  ['HTTP API: cookies array joined into the cookie header; sourceIp is request.ip; requestId is x-request-id', httpApi('GET', '/echo', { cookies: ['s=1', 't=2'] })],
  ['HTTP API: set-cookie headers returned as cookies', httpApi('GET', '/cookies')],
  ['HTTP API: binary reply base64-encoded (binaryMimeTypes)', httpApi('GET', '/png')],
  ['HTTP API: base64 JSON body with auth, 201', httpApi('POST', '/admin/items', { headers: { ...json, ...bearer }, body: Buffer.from('{"name":"cup","price":3}').toString('base64'), isBase64Encoded: true })],
  ['HTTP API: body failing its schema, 400', httpApi('POST', '/admin/items', { headers: { ...json, ...bearer }, body: '{"name":"","price":-1}' })],
  ['HTTP API: auth hook refuses, 401', httpApi('POST', '/admin/items', { headers: json, body: '{"name":"cup","price":3}' })],
  ['HTTP API: a thrown error is a 500 that hides its message', httpApi('GET', '/admin/boom', { headers: bearer })],
  ['HTTP API: unknown route, 404', httpApi('GET', '/nope')],
  ['REST API: GET with path params', restApi('GET', '/items/1')],
  ['REST API: multi-value query string', restApi('GET', '/search', { queryStringParameters: { tag: 'b' }, multiValueQueryStringParameters: { tag: ['a', 'b'] } })],
  ['REST API: multi-value header', restApi('GET', '/echo', { headers: { 'X-Multi': 'b' }, multiValueHeaders: { 'X-Multi': ['a', 'b'] } })],
  ['REST API: set-cookie as multiValueHeaders', restApi('GET', '/cookies')],
  ['REST API: the stage prefix of the path is dropped', restApi('GET', '/prod/health', { requestContext: { resourcePath: '/health', stage: 'prod', requestId: 'x' } })],
  ['REST API: a JSON body (no content-length from API Gateway)', restApi('POST', '/admin/items', { headers: { ...json, ...bearer }, body: '{"name":"mug","price":4}' })],
  ['ALB: GET', alb('GET', '/health')],
  ['ALB: multi-value query, URL-decoded', alb('GET', '/search', { multiValueQueryStringParameters: { tag: ['x%20y', 'z'] } })],
  ['ALB: binary reply', alb('GET', '/png')],
]

function lambdaOf(app: Any, options: Record<string, unknown> = {}): Invoke {
  // Without `fastify` in node_modules its FastifyInstance type is unresolved and the call compiles
  // as it is; here fastify 5 is installed (for comparisons), so its declaration wants a Fastify instance.
  return awsLambdaFastify(app as never, { binaryMimeTypes: ['image/png'], ...options }) as unknown as Invoke
}

const comparable = (result: LambdaResult): LambdaResult => {
  const { date, ...headers } = result.headers
  expect(date, 'a date header').to.be.a('string')
  return { ...result, headers }
}

/**
 * Two differences the README lists ("Where Enclave deliberately differs"): validation paths are
 * JSON pointers (`body/name`, Fastify 3: `body.name`), and a 5xx shows only its reason phrase.
 * Fastify 3's answer is brought to Enclave's by those two rules and nothing else.
 */
function withListedDifferences(result: LambdaResult): LambdaResult {
  if (!String(result.headers['content-type']).startsWith('application/json')) return result
  const body = JSON.parse(result.body) as { statusCode?: number; error?: string; message?: string }
  if (body.statusCode === 400 && typeof body.message === 'string') body.message = body.message.replace(/^(params|querystring|body|headers)\.(\w+)/, '$1/$2')
  else if (body.statusCode === 500) body.message = body.error
  else return result
  const text = JSON.stringify(body)
  return { ...result, body: text, headers: { ...result.headers, 'content-length': String(Buffer.byteLength(text)) } }
}

describe('@fastify/aws-lambda in Enclave (API Gateway v1/v2 and ALB events through the handler)', () => {
  let enclave: Scope
  let fastify3: Any
  let ours: Invoke
  let theirs: Invoke
  before(async () => {
    enclave = createServer({ logger: false })
    service(enclave)
    ours = lambdaOf(enclave)
    fastify3 = require('fastify3')({ logger: false })
    service(fastify3)
    theirs = lambdaOf(fastify3)
  })
  after(async () => { await enclave.close(); await fastify3.close() })

  for (const [name, event] of events) {
    it(`${name}: the same answer as Fastify 3.27.4's`, async () => {
      const [a, b] = [await ours(structuredClone(event), {}), await theirs(structuredClone(event), {})]
      expect(comparable(a)).to.deep.equal(comparable(withListedDifferences(b)))
    })
  }

  it('the answers are the ones the service means (spot checks of the compared events)', async () => {
    const answer = async (event: Record<string, unknown>): Promise<LambdaResult> => ours(event, {})
    expect(JSON.parse((await answer(events[1][1])).body)).to.deep.equal({ id: 3, name: 'pen', price: 2.5 })
    expect(JSON.parse((await answer(events[3][1])).body)).to.deep.equal({ query: { tag: ['a', 'b'] } })
    expect(JSON.parse((await answer(events[5][1])).body)).to.deep.equal({ multi: null, cookie: 's=1;t=2', ip: '203.0.113.9', id: 'v2-req' })
    expect((await answer(events[6][1])).cookies).to.deep.equal(['a=1; Path=/', 'b=2; HttpOnly'])
    const png = await answer(events[7][1])
    expect(png).to.deep.include({ isBase64Encoded: true, body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]).toString('base64') })
    expect(JSON.parse((await answer(events[8][1])).body)).to.deep.equal({ id: 7, name: 'cup', price: 3 })
    expect(JSON.parse((await answer(events[11][1])).body)).to.deep.equal({ statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
    expect(JSON.parse((await answer(events[14][1])).body)).to.deep.equal({ query: { tag: ['a', 'b'] } })
    expect(JSON.parse((await answer(events[15][1])).body).multi).to.equal('a,b')
    expect((await answer(events[16][1])).multiValueHeaders).to.deep.equal({ 'set-cookie': ['a=1; Path=/', 'b=2; HttpOnly'] })
    expect(JSON.parse((await answer(events[20][1])).body)).to.deep.equal({ query: { tag: ['x y', 'z'] } })
  })

  it('bad input from the event is a 4xx in the error shape with a code, never a 500: an unparsable JSON body', async () => {
    const result = await ours(httpApi('POST', '/admin/items', { headers: { ...json, ...bearer }, body: '{"name":' }), {})
    expect(result.statusCode).to.equal(400)
    expect(JSON.parse(result.body)).to.include({ statusCode: 400, error: 'Bad Request', code: 'ENC_ERR_CTP_INVALID_JSON' })
  })

  it('request.awsLambda.event and .context reach the handler (the getter decoration), and a client cannot forge them with headers', async () => {
    const app = createServer({ logger: false })
    const lambda = lambdaOf(app)
    app.get('/aws', async (request) => {
      const aws = (request as Any).awsLambda
      return { path: aws.event?.rawPath ?? null, fn: aws.context?.functionName ?? null, token: request.headers['x-aws-lambda-fastify-request'] ?? null }
    })
    const result = await lambda(httpApi('GET', '/aws', { headers: { 'x-apigateway-event': encodeURIComponent('{"rawPath":"/forged"}') } }), { functionName: 'items-fn' })
    expect(JSON.parse(result.body)).to.deep.equal({ path: '/aws', fn: 'items-fn', token: null })
    await app.close()
  })

  it('the callback form of the handler (a third argument) answers through the callback', async () => {
    const app = createServer({ logger: false })
    app.get('/x', async () => ({ x: 1 }))
    const handler = awsLambdaFastify(app as never) as unknown as (event: unknown, context: unknown, callback: (error: unknown, result?: LambdaResult) => void) => void
    const result = await new Promise<LambdaResult | undefined>((resolve, reject) => handler(httpApi('GET', '/x'), {}, (error, res) => error ? reject(error) : resolve(res)))
    expect(result?.statusCode).to.equal(200)
    expect(result?.body).to.equal('{"x":1}')
    await app.close()
  })

  it('a lazy app (schemaCompilation: lazy) answers its first invocation with the route compiled then, and a route handlerTimeout answers a stuck handler 503', async () => {
    const app = createServer({ logger: false, schemaCompilation: 'lazy' })
    service(app)
    app.get('/stuck', { handlerTimeout: 100 }, () => new Promise(() => undefined))
    const lambda = lambdaOf(app)
    await app.ready()
    expect(app.bootProfile().pendingRoutes).to.be.greaterThan(0)
    const first = await lambda(httpApi('GET', '/items/3'), {})
    expect(JSON.parse(first.body)).to.deep.equal({ id: 3, name: 'pen', price: 2.5 })
    const stuck = await lambda(httpApi('GET', '/stuck'), {})
    expect(stuck.statusCode).to.equal(503)
    await app.close()
  })

  describe('with createApp(RootModule)', () => {
    @Route('/notes')
    class Notes {
      @Get('/') list(): Array<{ id: number }> { return [{ id: 1 }] }
      @Post('/', { schema: { body: { type: 'object', required: ['text'], properties: { text: { type: 'string', minLength: 1 } } } } })
      create(@Body() body: { text: string }): { text: string } { return body }
    }

    it('createApp() returns a booted app: pass { decorateRequest: false }, and the module\'s routes answer events', async () => {
      @Module({ controllers: [Notes] }) class Root {}
      const app = await createApp(Root, { logger: false })
      const lambda = lambdaOf(app, { decorateRequest: false })
      expect(JSON.parse((await lambda(httpApi('GET', '/notes'), {})).body)).to.deep.equal([{ id: 1 }])
      const bad = await lambda(httpApi('POST', '/notes', { headers: json, body: '{"text":""}' }), {})
      expect(bad.statusCode).to.equal(400)
      await app.close()
    })

    it('with request.awsLambda: the handler is made in a lift()ed plugin of the root module, before boot', async () => {
      let handler: Invoke | undefined
      @Route('/ctx') class Ctx { @Get('/') fn(request: Any): { fn: string } { return { fn: request.awsLambda.context.functionName } } }
      @Module({ controllers: [Ctx], plugins: [lift(async (scope: Scope) => { handler = lambdaOf(scope) })] }) class Root {}
      const app = await createApp(Root, { logger: false })
      expect(JSON.parse((await handler!(httpApi('GET', '/ctx'), { functionName: 'notes-fn' })).body)).to.deep.equal({ fn: 'notes-fn' })
      await app.close()
    })

    it('without { decorateRequest: false } on a booted app: ENC_ERR_SCOPE_BOOTED, naming the decoration and, for createApp(), the lift()ed plugin', async () => {
      @Module({ controllers: [Notes] }) class Root {}
      const app = await createApp(Root, { logger: false })
      expect(() => lambdaOf(app)).to.throw(/awsLambda/).with.property('code', 'ENC_ERR_SCOPE_BOOTED')
      // The message names the way out for an app createApp() booted, not only ready()/listen().
      expect(() => lambdaOf(app)).to.throw(/createApp\(\) returns the app already booted.*lift\(\)/)
      await app.close()
    })
  })
})
