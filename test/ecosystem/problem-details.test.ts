// A payments API's errors as RFC 9457 problem details (docs/recipes-payments.md, "Payments-style APIs"): one root
// @ErrorHandler and @NotFoundHandler answer `application/problem+json` with type, title, status,
// detail, instance and the error's code, validation failures with each failing field; a route's
// 4xx response schema still serializes (and filters) the problem under that content type.
import 'reflect-metadata'
import { expect } from 'chai'
import { Body, ErrorHandler, Get, HttpError, Module, NotFoundHandler, Params, Post, Route, type HandledError, type Reply, type Request } from '../../src'
import { createApp } from '../../src/modules'

interface Problem { type: string; title: string; status: number; detail?: string; instance: string; code?: string; errors?: Array<{ pointer: string; detail: string }> }

const problem = (reply: Reply, body: Problem) => reply.code(body.status).type('application/problem+json').send(body)

/** ajv 6's errors as RFC 9457 §3's extension member: a JSON pointer into the request part and what is wrong there. */
function fieldErrors(error: HandledError): Problem['errors'] {
  if (!Array.isArray(error.validation)) return undefined
  return (error.validation as Array<{ dataPath: string; message?: string; params: { missingProperty?: string } }>).map((e) => ({
    pointer: `#/${error.validationContext ?? 'body'}${e.dataPath.replace(/\./g, '/')}${e.params.missingProperty !== undefined ? `/${e.params.missingProperty}` : ''}`,
    detail: e.message ?? 'is invalid',
  }))
}

const problemSchema = { type: 'object', properties: { type: { type: 'string' }, title: { type: 'string' }, status: { type: 'integer' },
  detail: { type: 'string' }, instance: { type: 'string' }, code: { type: 'string' } } } as const

@Route('/payments')
class PaymentsController {
  @Post('/', { schema: { body: { type: 'object', required: ['amount', 'currency'], properties: { amount: { type: 'integer', minimum: 1 }, currency: { type: 'string' } } } } })
  create(@Body() body: { amount: number }) { return body }

  @Get('/:id', { schema: { response: { 200: { type: 'object', properties: { id: { type: 'string' } } }, '4xx': problemSchema } } })
  find(@Params('id') id: string) {
    throw new HttpError(404, `no payment ${id}`, { code: 'PAYMENT_NOT_FOUND', details: { internalShard: 7 } })
  }

  @Get('/crash/now') crash() { throw new Error('database password is hunter2') }
}

@Module({ controllers: [PaymentsController] })
class AppModule {
  @ErrorHandler() onError(error: HandledError, request: Request, reply: Reply) {
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500
    const code = error.validation !== undefined ? 'VALIDATION_FAILED' : typeof error.code === 'string' ? error.code : status >= 500 ? 'INTERNAL' : 'ERROR'
    if (status >= 500) request.log.error({ err: error }, 'unhandled')
    return problem(reply, {
      type: `https://docs.example.com/errors/${code.toLowerCase()}`,
      title: status >= 500 ? 'Internal Server Error' : error.validation !== undefined ? 'Invalid request' : error.message,
      status,
      detail: status >= 500 ? undefined : error.message,   // a 5xx's message may hold internals
      instance: request.url,
      code,
      errors: fieldErrors(error),
    })
  }

  @NotFoundHandler() notFound(request: Request, reply: Reply) {
    return problem(reply, { type: 'https://docs.example.com/errors/not_found', title: 'Not Found', status: 404, detail: `${request.method} ${request.url} is not a route`, instance: request.url, code: 'NOT_FOUND' })
  }
}

describe('payments API: errors as RFC 9457 problem+json (docs/recipes-payments.md, "Payments-style APIs")', function () {
  this.timeout(10_000)
  let app: Awaited<ReturnType<typeof createApp>>
  before(async () => { app = await createApp(AppModule) })
  after(async () => { await app.close() })

  it('names the missing property in the pointer', async () => {
    const res = await app.inject({ method: 'POST', url: '/payments', payload: { amount: 5 } })
    expect((res.json() as Problem).errors).to.deep.equal([{ pointer: '#/body/currency', detail: "should have required property 'currency'" }])
  })

  it('answers a validation failure 400 application/problem+json with a code and each failing field', async () => {
    const res = await app.inject({ method: 'POST', url: '/payments', payload: { amount: 0, currency: 'usd' } })
    expect([res.statusCode, res.headers['content-type']]).to.deep.equal([400, 'application/problem+json; charset=utf-8'])
    expect(res.json()).to.deep.equal({
      type: 'https://docs.example.com/errors/validation_failed', title: 'Invalid request', status: 400,
      detail: 'body/amount should be >= 1', instance: '/payments', code: 'VALIDATION_FAILED',
      errors: [{ pointer: '#/body/amount', detail: 'should be >= 1' }],   // ajv stops at the first failure (allErrors: false, as Fastify)
    })
  })

  it("keeps a thrown HttpError's code, and the route's 4xx response schema serializes the problem under its custom content type", async () => {
    const res = await app.inject('/payments/pay_9')
    expect([res.statusCode, res.headers['content-type']]).to.deep.equal([404, 'application/problem+json; charset=utf-8'])
    expect(res.json()).to.deep.equal({ type: 'https://docs.example.com/errors/payment_not_found', title: 'no payment pay_9', status: 404,
      detail: 'no payment pay_9', instance: '/payments/pay_9', code: 'PAYMENT_NOT_FOUND' })
  })

  it('answers an unknown URL with the same shape, and a crash without its message', async () => {
    const missing = await app.inject('/refunds')
    expect([missing.statusCode, missing.headers['content-type'], (missing.json() as Problem).code]).to.deep.equal([404, 'application/problem+json; charset=utf-8', 'NOT_FOUND'])
    const crash = await app.inject('/payments/crash/now')
    expect(crash.statusCode).to.equal(500)
    expect(crash.json()).to.deep.equal({ type: 'https://docs.example.com/errors/internal', title: 'Internal Server Error', status: 500, instance: '/payments/crash/now', code: 'INTERNAL' })
  })

  it("answers a body that is not JSON with the parser's code kept (ENC_ERR_CTP_INVALID_JSON)", async () => {
    const res = await app.inject({ method: 'POST', url: '/payments', payload: '{nope', headers: { 'content-type': 'application/json' } })
    expect([res.statusCode, (res.json() as Problem).code]).to.deep.equal([400, 'ENC_ERR_CTP_INVALID_JSON'])
  })
})
