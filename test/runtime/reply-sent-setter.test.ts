// `reply.sent = true`: Fastify 3.27.4's deprecated way to hijack a reply (FSTDEP010), still found in
// Fastify 3 apps and plugins. The handler answers through reply.raw itself; what it returns is
// ignored. Any other value is refused, as Fastify 3 refuses it (FST_ERR_REP_SENT_VALUE).
import { expect } from 'chai'
import { build, recordingLogger } from './helpers'

describe('reply.sent = true (Fastify 3 deprecated hijack)', () => {
  it('reply.sent = true hijacks the reply: the handler writes to reply.raw and its returned value is ignored, without a warning', async () => {
    const log = recordingLogger()
    const app = await build((root) => {
      root.get('/', async (_req, reply) => {
        (reply as { sent: boolean }).sent = true
        reply.raw.end('hello world')
        return 'this is ignored'
      })
    }, { logger: log })
    const res = await app.inject('/')
    expect(res.statusCode).to.equal(200)
    expect(res.body).to.equal('hello world')
    expect(log.entries.filter((entry) => entry.level === 'warn' || entry.level === 'error')).to.deep.equal([])
    await app.close()
  })

  it('reply.sent = false is refused with ENC_ERR_REPLY_SENT_VALUE', async () => {
    let code: unknown
    const app = await build((root) => {
      root.get('/', (_req, reply) => {
        try { (reply as { sent: boolean }).sent = false } catch (error) { code = (error as { code?: unknown }).code }
        reply.send('ok')
      })
    })
    expect((await app.inject('/')).body).to.equal('ok')
    expect(code).to.equal('ENC_ERR_REPLY_SENT_VALUE')
    await app.close()
  })

  it('reply.sent = true after the reply was sent, or set twice, throws ENC_ERR_REPLY_ALREADY_SENT (Fastify 3 FST_ERR_REP_ALREADY_SENT)', async () => {
    const caught: unknown[] = []
    const app = await build((root) => {
      root.get('/after-send', (_req, reply) => {
        reply.send('sent')
        try { (reply as { sent: boolean }).sent = true } catch (error) { caught.push(error) }
      })
      root.get('/twice', (_req, reply) => {
        (reply as { sent: boolean }).sent = true
        try { (reply as { sent: boolean }).sent = true } catch (error) { caught.push(error) }
        reply.raw.end('raw')
      })
    })
    expect((await app.inject('/after-send')).body).to.equal('sent')
    expect((await app.inject('/twice')).body).to.equal('raw')
    expect(caught.map((e) => (e as { code?: unknown }).code)).to.deep.equal(['ENC_ERR_REPLY_ALREADY_SENT', 'ENC_ERR_REPLY_ALREADY_SENT'])
    expect((caught[0] as Error).message).to.include('reply.sent = true: the reply was already sent')
    await app.close()
  })
})

describe('a hijacked reply and the async handler\'s resolved value', () => {
  it('an async handler that hijacks the reply and resolves a value: the value is ignored without a warning (Fastify 3 wrapThenable)', async () => {
    const log = recordingLogger()
    const app = await build((root) => {
      root.get('/', async (_req, reply) => {
        reply.hijack()
        reply.raw.end('raw answer')
        return { ignored: true }
      })
    }, { logger: log })
    const res = await app.inject('/')
    expect(res.body).to.equal('raw answer')
    await new Promise((resolve) => setImmediate(resolve))
    expect(log.entries.filter((entry) => entry.level === 'warn' || entry.level === 'error')).to.deep.equal([])
    await app.close()
  })
})
