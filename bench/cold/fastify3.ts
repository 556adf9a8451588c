// Cold-start worker: fastify 3.27.4 (its logger is pino, as Enclave's).
import { coldStart } from './serve'
import { declareFastifyApp, type FastifyLike } from './fastify-app'
import type * as F3 from 'fastify3'

type Fastify3 = typeof F3.default

coldStart(() => require('fastify3'), async (loaded) => {
  const fastify = loaded as Fastify3
  const app = fastify({ logger: { level: 'info' } })
  declareFastifyApp(app as unknown as FastifyLike)
  await app.listen(0, '127.0.0.1')
  return app.server
})
