import { expect } from 'chai'
import request from 'supertest'
import type { Scope } from '../../src/runtime'
import { build, recordingLogger } from './helpers'

const body = { type: 'object', properties: { price: { type: 'number', minimum: 0 } }, required: ['price'] }

/**
 * The same route twice: at the root, where nothing would see the validation Error (its 400 is then
 * sent without building it, validation-reply.ts), and in a scope with an onError hook, which
 * receives the Error and so takes the regular path.
 */
async function twoRoutes(onSend: (payload: unknown, statusCode: number) => unknown) {
  const logger = recordingLogger()
  const errors: Error[] = []
  const app = await build((root: Scope) => {
    root.addHook('onSend', async (_request, reply, payload) => onSend(payload, reply.statusCode))
    root.post('/unobserved', { schema: { body } }, () => ({ ok: true }))
    root.register(async (child: Scope) => {
      child.addHook('onError', async (_request, _reply, error) => { errors.push(error) })
      child.post('/observed', { schema: { body } }, () => ({ ok: true }))
    })
  }, { logger })
  return { app, logger, errors }
}

describe('runtime: a failed validation nobody observes', () => {
  it('answers the same 400, info log line and onSend payload as one whose Error an onError hook receives', async () => {
    const sent: Array<[unknown, number]> = []
    const { app, logger, errors } = await twoRoutes((payload, statusCode) => { sent.push([payload, statusCode]); return payload })
    const answers = []
    for (const path of ['/unobserved', '/observed']) {
      logger.entries.length = 0
      const res = await request(app.server).post(path).send({ price: -1 }).expect(400)
      answers.push({
        text: res.text,
        type: res.headers['content-type'],
        length: res.headers['content-length'],
        logs: logger.entries.map((e) => {
          const err = e.obj.err as { message?: unknown; statusCode?: unknown; validationContext?: unknown; validation?: unknown } | undefined
          const errFields = err === undefined ? undefined : { message: err.message, statusCode: err.statusCode, validationContext: err.validationContext, validation: err.validation }
          return { level: e.level, msg: e.msg, res: e.obj.res, err: errFields, reqId: typeof e.obj.reqId }
        }),
      })
    }
    expect(answers[0]).to.deep.equal(answers[1])
    expect(JSON.parse(answers[0].text)).to.deep.equal({ statusCode: 400, error: 'Bad Request', message: 'body/price should be >= 0' })
    // Fastify 3's line for a 4xx: `res` and the Error itself as `err`, at info.
    expect(answers[0].logs).to.deep.include({
      level: 'info', msg: 'body/price should be >= 0', res: { statusCode: 400 }, reqId: 'string',
      err: { message: 'body/price should be >= 0', statusCode: 400, validationContext: 'body', validation: [{ keyword: 'minimum', dataPath: '/price', schemaPath: '#/properties/price/minimum', params: { comparison: '>=', limit: 0, exclusive: false }, message: 'should be >= 0' }] },
    })
    expect(sent).to.deep.equal([[answers[0].text, 400], [answers[0].text, 400]])
    expect(errors).to.have.length(1)
    expect(errors[0]).to.include({ statusCode: 400, validationContext: 'body', message: 'body/price should be >= 0' })
  })

  it('whose 400 an onSend hook then fails ends in the same fallback answer as one whose Error is observed', async () => {
    const { app, logger } = await twoRoutes((payload, statusCode) => { if (statusCode === 400) throw new Error('onSend broke'); return payload })
    const answers = []
    for (const path of ['/unobserved', '/observed']) {
      logger.entries.length = 0
      const res = await request(app.server).post(path).send({ price: -1 })
      answers.push({ status: res.status, text: res.text, logs: logger.entries.map((e) => ({ level: e.level, msg: e.msg })) })
    }
    expect(answers[0]).to.deep.equal(answers[1])
    // The hook's failure goes past the built-in reply (written directly), not through it again: the
    // 400's line was written once, as its Error reached the built-in reply (Fastify 3's order), and
    // the hook's own failure, a 500 with the generic body (hardening/error-replies), gets its error line.
    expect(answers[0].status).to.equal(500)
    expect(answers[0].logs).to.deep.equal([{ level: 'info', msg: 'body/price should be >= 0' }, { level: 'error', msg: 'onSend broke' }])
  })

  it("on a server without a logger, still logs its 400 line to a request.log that an onRequest hook set, as a thrown error's line is", async () => {
    const lines: string[] = []
    const own = recordingLogger()
    const app = await build((root: Scope) => {
      root.addHook('onRequest', async (req) => { (req as { log: unknown }).log = own })
      root.post('/price', { schema: { body } }, () => ({ ok: true }))
    })
    const res = await request(app.server).post('/price').send({ price: -1 })
    expect(res.status).to.equal(400)
    for (const entry of own.entries) lines.push(`${entry.level} ${entry.msg}`)
    expect(lines).to.deep.equal(['info body/price should be >= 0'])
  })
})
