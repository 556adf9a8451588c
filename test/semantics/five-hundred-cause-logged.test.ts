// leftovers §5: the README's advice for a 500 whose cause is invisible ("Errors", "Testing"):
// the default logger is silent (Fastify 3), and `logger: { level: 'error' }` shows the cause with
// its stack, for a runtime server and an app alike. This pins what the README promises.
import 'reflect-metadata'
import { expect } from 'chai'
import { Writable } from 'node:stream'
import { Get, Module, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { createServer } from '../../src/runtime'

function capture(): { stream: Writable; lines: () => Array<Record<string, any>> } {
  const chunks: string[] = []
  const stream = new Writable({ write(chunk, _encoding, done) { chunks.push(String(chunk)); done() } })
  return { stream, lines: () => chunks.join('').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l)) }
}

describe('a handler\'s 500: the client gets the generic body, logger { level: \'error\' } shows the cause with its stack (leftovers §5)', () => {
  it('logs the thrown error (message and stack, with the request id) at error level; the 500 access line is at info (Fastify 3), so level error shows only the cause', async () => {
    const { stream, lines } = capture()
    const app = createServer({ logger: { level: 'error', stream } })
    app.get('/boom', async function boom() { throw new Error('db down') })
    await app.ready()
    try {
      const res = await app.inject('/boom')
      expect(res.json()).to.deep.equal({ statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
      const [cause, ...rest] = lines()
      expect([cause.level, cause.msg, cause.err.message, cause.reqId, cause.req.url, cause.res.statusCode]).to.deep.equal([50, 'db down', 'db down', 'req-1', '/boom', 500])
      expect(cause.err.stack).to.match(/^Error: db down\n\s+at .*boom/)
      expect(rest).to.deep.equal([])
    } finally { await app.close() }
  })

  it('does the same for an app: createApp(AppModule, { logger: { level: \'error\' } })', async () => {
    const { stream, lines } = capture()
    @Route('/') class Boom { @Get('/boom') boom(): never { throw new Error('cache miss storm') } }
    @Module({ controllers: [Boom] }) class AppModule {}
    const app = await createApp(AppModule, { logger: { level: 'error', stream } })
    try {
      expect((await app.inject({ url: '/boom' })).statusCode).to.equal(500)
      const cause = lines().find((l) => l.err !== undefined)
      expect(cause?.err.stack).to.match(/^Error: cache miss storm\n\s+at /)
    } finally { await app.close() }
  })
})
