// A payments-style API's inbound webhooks (docs/recipes-payments.md, "Payments-style APIs"): a Stripe-style signature
// (`Stripe-Signature: t=...,v1=HMAC-SHA256(t + '.' + raw bytes)`) checked in constant time over the
// exact bytes, with the parsed JSON still validated; a timestamp outside the tolerance is a coded 400
// (replay protection); bodyLimit and gzip bodies (@fastify/compress decoding them in preParsing);
// the other modules keep the built-in parser. Also fastify-raw-body 6 (its current major) as-is.
import 'reflect-metadata'
import { createHmac, timingSafeEqual } from 'node:crypto'
import { gzipSync } from 'node:zlib'
import { expect } from 'chai'
import compress from '@fastify/compress'
import fastifyRawBody from 'fastify-raw-body'
import { Body, HttpError, Module, PreValidation, Post, Req, Route, injectable, lift, type Request, type Scope } from '../../src'
import { createApp } from '../../src/modules'

declare module '../../src/runtime' {
  // One declaration for the whole app (test/semantics/raw-body-recipe.test.ts has the same): the
  // recipe keeps a Buffer, and so does fastify-raw-body with `encoding: false` (a string by default);
  // fastify-raw-body's own declaration augments `fastify`'s FastifyRequest, not Enclave's Request.
  interface RequestDecorations { rawBody?: Buffer }
}

const SECRET = 'whsec_test'
const TOLERANCE_S = 300
const signature = (body: string | Buffer, t = Math.floor(Date.now() / 1000)): string =>
  `t=${t},v1=${createHmac('sha256', SECRET).update(`${t}.`).update(body).digest('hex')}`

/** The README recipe: the built-in JSON parser (its 400s, its 415 for an undecoded gzip body), keeping the bytes. */
const rawJson = lift(async function rawJson(scope: Scope) {
  const json = scope.getDefaultJsonParser()
  scope.decorateRequest('rawBody', undefined)
  scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    request.rawBody = body
    json(request, body, done)
  })
})

@injectable()
class StripeSignature {
  handle(request: Request): void {
    const fields = new Map<string, string>()
    for (const part of String(request.headers['stripe-signature'] ?? '').split(',')) {
      const at = part.indexOf('=')
      if (at > 0) fields.set(part.slice(0, at).trim(), part.slice(at + 1).trim())
    }
    const t = Number(fields.get('t'))
    if (!Number.isSafeInteger(t)) throw new HttpError(400, 'Stripe-Signature has no timestamp', { code: 'WEBHOOK_NO_TIMESTAMP' })
    if (Math.abs(Date.now() / 1000 - t) > TOLERANCE_S) throw new HttpError(400, `timestamp outside the ${TOLERANCE_S} s tolerance`, { code: 'WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE' })
    const expected = Buffer.from(createHmac('sha256', SECRET).update(`${t}.`).update(request.rawBody ?? '').digest('hex'))
    const given = Buffer.from(fields.get('v1') ?? '')
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new HttpError(401, 'bad signature', { code: 'WEBHOOK_BAD_SIGNATURE' })
  }
}

const event = { type: 'object', required: ['id', 'type'], properties: { id: { type: 'string' }, type: { type: 'string' } } } as const

@Route('/webhooks')
class StripeWebhooks {
  @PreValidation(StripeSignature)
  @Post('/stripe', { schema: { body: event }, bodyLimit: 1024 })
  receive(@Body() e: { id: string; type: string }) { return { received: e.id, type: e.type } }
}

@Module({ prefix: '/hooks', plugins: [rawJson], controllers: [StripeWebhooks], providers: [StripeSignature] })
class WebhookModule {}

/** The same module behind @fastify/compress, whose preParsing hook decodes gzip request bodies. */
@Module({ prefix: '/gz', plugins: [[compress, {}], WebhookModule] })
class GzipWebhookModule {}

@Route('/payments')
class Payments {
  @Post('/') create(@Req() request: Request) { return { body: request.body, hasRaw: request.rawBody !== undefined } }
}
@Module({ prefix: '/v1', controllers: [Payments] })
class PaymentsModule {}

@Route('/raw')
class RawBodyPlugin {
  @Post('/', { config: { rawBody: true } })
  keep(@Req() request: Request) { return { raw: request.rawBody?.toString('utf8'), body: request.body } }
}
@Module({ prefix: '/frb', plugins: [[fastifyRawBody, { global: false, encoding: false }]], controllers: [RawBodyPlugin] })
class FastifyRawBodyModule {}

@Module({ plugins: [WebhookModule, GzipWebhookModule, PaymentsModule, FastifyRawBodyModule] })
class AppModule {}

describe('payments API: signed inbound webhooks (docs/recipes-payments.md, "Payments-style APIs")', function () {
  this.timeout(10_000)
  let app: Awaited<ReturnType<typeof createApp>>
  before(async () => { app = await createApp(AppModule) })
  after(async () => { await app.close() })

  const post = (url: string, payload: string | Buffer, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json', ...headers } })

  it('accepts an event signed over its exact bytes (t + "." + body) and validates the parsed JSON', async () => {
    const body = '{ "id": "evt_1",  "type": "payment_intent.succeeded" }'
    const res = await post('/hooks/webhooks/stripe', body, { 'stripe-signature': signature(body) })
    expect(res.statusCode).to.equal(200)
    expect(res.json()).to.deep.equal({ received: 'evt_1', type: 'payment_intent.succeeded' })
  })

  it('refuses a forged signature (same length, constant-time compare) with a coded 401', async () => {
    const body = '{"id":"evt_1","type":"x"}'
    const res = await post('/hooks/webhooks/stripe', body, { 'stripe-signature': signature('{"id":"evt_2","type":"x"}') })
    expect(res.statusCode).to.equal(401)
    expect(res.json()).to.deep.equal({ statusCode: 401, code: 'WEBHOOK_BAD_SIGNATURE', error: 'Unauthorized', message: 'bad signature' })
  })

  it('refuses a replayed event (timestamp outside the tolerance) and one without a timestamp with coded 400s', async () => {
    const body = '{"id":"evt_1","type":"x"}'
    const old = Math.floor(Date.now() / 1000) - TOLERANCE_S - 60
    const replayed = await post('/hooks/webhooks/stripe', body, { 'stripe-signature': signature(body, old) })
    expect(replayed.statusCode).to.equal(400)
    expect((replayed.json() as { code: string }).code).to.equal('WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE')
    const bare = await post('/hooks/webhooks/stripe', body, { 'stripe-signature': 'v1=abc' })
    expect([bare.statusCode, (bare.json() as { code: string }).code]).to.deep.equal([400, 'WEBHOOK_NO_TIMESTAMP'])
  })

  it("holds the route's bodyLimit: a larger event is the 413, before any signature check", async () => {
    const body = JSON.stringify({ id: 'x'.repeat(2000), type: 'x' })
    const res = await post('/hooks/webhooks/stripe', body, { 'stripe-signature': signature(body) })
    expect([res.statusCode, (res.json() as { code: string }).code]).to.deep.equal([413, 'ENC_ERR_CTP_BODY_TOO_LARGE'])
  })

  it('answers a gzip event that nothing decodes with the 415 that says so, not a 400 quoting compressed bytes', async () => {
    const body = '{"id":"evt_1","type":"x"}'
    const res = await post('/hooks/webhooks/stripe', gzipSync(body), { 'content-encoding': 'gzip', 'stripe-signature': signature(body) })
    expect(res.statusCode).to.equal(415)
    expect(res.json()).to.deep.equal({ statusCode: 415, code: 'ENC_ERR_CTP_UNSUPPORTED_ENCODING', error: 'Unsupported Media Type',
      message: 'Unsupported Content-Encoding: gzip; send the body uncompressed' })
  })

  it('verifies a gzip event that @fastify/compress decodes: the raw body is the decoded bytes the sender signed', async () => {
    const body = '{"id":"evt_gz","type":"x"}'
    const res = await post('/gz/hooks/webhooks/stripe', gzipSync(body), { 'content-encoding': 'gzip', 'stripe-signature': signature(body) })
    expect(res.statusCode).to.equal(200)
    expect(res.json()).to.deep.equal({ received: 'evt_gz', type: 'x' })
  })

  it('leaves the other modules on the built-in parser, without rawBody', async () => {
    const res = await post('/v1/payments', '{"amount":100}')
    expect(res.json()).to.deep.equal({ body: { amount: 100 }, hasRaw: false })
  })

  it('fastify-raw-body 6 (route config rawBody: true, encoding: false) gives the exact bytes beside the parsed body', async () => {
    const res = await post('/frb/raw', '{ "a" : 1 }')
    expect(res.statusCode).to.equal(200)
    expect(res.json()).to.deep.equal({ raw: '{ "a" : 1 }', body: { a: 1 } })
  })
})
