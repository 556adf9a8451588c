// Boot worker: fastify 5 with the 1,000 schema routes, to listening.
import fastify from 'fastify5'
import { measureBoot } from './report'
import { bootReply } from './routes'

measureBoot(async ({ routes, shared }) => {
  const app = fastify({ logger: false })
  for (const schema of shared) app.addSchema(schema)
  for (const r of routes) app.post(r.url, { schema: { body: r.body, response: { 200: r.response } } }, async () => bootReply)
  await app.listen({ port: 0, host: '127.0.0.1' })
  return app.server
})
