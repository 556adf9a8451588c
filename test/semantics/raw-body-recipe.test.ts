// docs/content-type-parsers.md, "Content-type parsers", "Keeping the raw body (webhook signatures)": a module's JSON
// parser that keeps the bytes for an HMAC check and hands them to getDefaultJsonParser(), so the
// body schema still runs and bad JSON is still the built-in 400, never a 500.
import 'reflect-metadata'
import { createHmac, timingSafeEqual } from 'node:crypto'
import { expect } from 'chai'
import { Body, HttpError, Module, PreValidation, Post, Route, injectable, lift, type Request, type Scope } from '../../src'
import { createApp } from '../../src/modules'

declare module '../../src' {
  interface RequestDecorations { rawBody?: Buffer }
}

const SECRET = 'test-secret'
const sign = (body: string): string => 'sha256=' + createHmac('sha256', SECRET).update(body).digest('hex')

const rawJson = lift(async function rawJson(scope: Scope) {
  const json = scope.getDefaultJsonParser()
  scope.decorateRequest('rawBody', undefined)
  scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    request.rawBody = body
    json(request, body, done)
  })
})

@injectable()
class GitHubSignature {
  handle(request: Request): void {
    const given = Buffer.from(String(request.headers['x-hub-signature-256'] ?? ''))
    const expected = Buffer.from('sha256=' + createHmac('sha256', SECRET).update(request.rawBody ?? '').digest('hex'))
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new HttpError(401, 'bad signature')
  }
}

const push = { type: 'object', required: ['ref'], properties: { ref: { type: 'string' } } } as const

@Route('/webhooks')
class WebhookController {
  @PreValidation(GitHubSignature)
  @Post('/github', { schema: { body: push } })
  receive(@Body() event: { ref: string }) { return { received: event.ref } }
}

@Module({ prefix: '/hooks', plugins: [rawJson], controllers: [WebhookController], providers: [GitHubSignature] })
class WebhookModule {}

@Route('/echo')
class EchoController {
  @Post('/') echo(request: Request) { return { body: request.body, hasRaw: request.rawBody !== undefined } }
}

@Module({ prefix: '/api', controllers: [EchoController] })
class ApiModule {}

@Module({ plugins: [WebhookModule, ApiModule] })
class AppModule {}

describe('semantics: the raw-body recipe (docs/content-type-parsers.md, "Keeping the raw body")', () => {
  const post = async (url: string, payload: string, headers: Record<string, string> = {}) => {
    const app = await createApp(AppModule)
    try {
      return await app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json', ...headers } })
    } finally {
      await app.close()
    }
  }

  it('accepts a body signed over its exact bytes (spacing included) and validates it with the schema', async () => {
    const body = '{ "ref" :  "refs/heads/main" }'
    const res = await post('/hooks/webhooks/github', body, { 'x-hub-signature-256': sign(body) })
    expect(res.statusCode).to.equal(200)
    expect(res.json()).to.deep.equal({ received: 'refs/heads/main' })
  })

  it('refuses a forged or missing signature with 401 before the schema runs', async () => {
    expect((await post('/hooks/webhooks/github', '{"ref":"x"}', { 'x-hub-signature-256': sign('{"ref":"y"}') })).statusCode).to.equal(401)
    expect((await post('/hooks/webhooks/github', '{"nope":1}')).statusCode).to.equal(401)
  })

  it('answers a signed body that breaks the schema with the usual 400', async () => {
    const res = await post('/hooks/webhooks/github', '{"after":"abc"}', { 'x-hub-signature-256': sign('{"after":"abc"}') })
    expect(res.statusCode).to.equal(400)
    expect((res.json() as { message: string }).message).to.equal("body should have required property 'ref'")
  })

  it("answers malformed, empty and __proto__ bodies with the built-in parser's 400s, not a 500", async () => {
    const codes = []
    for (const payload of ['{bad', '', '{"__proto__":{"x":1}}']) {
      const res = await post('/hooks/webhooks/github', payload, { 'x-hub-signature-256': sign(payload) })
      codes.push([res.statusCode, (res.json() as { code: string }).code])
    }
    expect(codes).to.deep.equal([
      [400, 'ENC_ERR_CTP_INVALID_JSON'], [400, 'ENC_ERR_CTP_EMPTY_JSON_BODY'], [400, 'ENC_ERR_CTP_FORBIDDEN_PROTO'],
    ])
  })

  it('leaves the other modules on the built-in parser, without rawBody', async () => {
    const res = await post('/api/echo', '{"a":1}')
    expect(res.json()).to.deep.equal({ body: { a: 1 }, hasRaw: false })
  })
})
