import { expect } from 'chai'
import rateLimit from '@fastify/rate-limit'
import { createServer, type Reply, type Request } from '../../src'

// A rate-limit store that is down (Redis stopped): the plugin's onRequest hook throws the store's
// error unless `skipOnError: true`. Fastify 3 and 5 answer it as any thrown error, a 500; which
// way to fail (open: serve unlimited; closed: refuse) is the service's choice, so Enclave does
// not guess: docs/plugins.md shows both.
class DownStore {
  incr(_key: string, callback: (error: Error | null) => void): void { callback(new Error('Connection is closed.')) }
  child(): DownStore { return new DownStore() }
}

async function limitedApp(options: Record<string, unknown>, onError?: (error: Error, request: Request, reply: Reply) => void): Promise<ReturnType<typeof createServer>> {
  const app = createServer()
  if (onError !== undefined) app.setErrorHandler(onError)
  await app.register(rateLimit, { max: 5, timeWindow: 60_000, store: DownStore, ...options })
  app.get('/items', async () => ({ ok: true }))
  return app
}

describe('@fastify/rate-limit with its store down', () => {
  it("answers the store's error as a 500 in the error shape, as Fastify 3 and 5 do, not a hang or a stack", async () => {
    const app = await limitedApp({})
    const res = await app.inject('/items')
    expect(res.statusCode).to.equal(500)
    expect(Object.keys(res.json()).sort()).to.deep.equal(['error', 'message', 'statusCode'])
    expect(res.body).not.to.match(/\n\s+at /)
    await app.close()
  })

  it('skipOnError: true fails open: the route answers, unlimited, while the store is down', async () => {
    const app = await limitedApp({ skipOnError: true })
    for (let i = 0; i < 7; i++) expect((await app.inject('/items')).statusCode).to.equal(200)
    await app.close()
  })

  it('an error handler can fail closed with a 503 and Retry-After for the store error (the docs/plugins.md recipe)', async () => {
    const app = await limitedApp({}, (error, _request, reply) => {
      if (error.message === 'Connection is closed.') { void reply.code(503).header('retry-after', '5').send({ statusCode: 503, error: 'Service Unavailable', message: 'rate limiting is unavailable' }); return }
      void reply.send(error)
    })
    const res = await app.inject('/items')
    expect(res.statusCode).to.equal(503)
    expect(res.headers['retry-after']).to.equal('5')
    await app.close()
  })
})
