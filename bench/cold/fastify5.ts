// Cold-start worker: fastify 5.
import { coldStart } from './serve'
import { declareFastifyApp, type FastifyLike } from './fastify-app'
import type * as F5 from 'fastify5'

type Fastify5 = typeof F5.default

coldStart(() => require('fastify5'), async (loaded) => {
  const fastify = loaded as Fastify5
  const app = fastify({ logger: { level: 'info' } })
  declareFastifyApp(app as unknown as FastifyLike)
  await app.listen({ port: 0, host: '127.0.0.1' })
  return app.server
})
