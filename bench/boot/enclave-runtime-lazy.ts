// Boot worker: Enclave's runtime API with schemaCompilation 'lazy': to listening, then the first
// request to the last route compiles that route.
import { createServer } from '../../src/runtime'
import { measureBoot } from './report'
import { bootReply } from './routes'

measureBoot(async ({ routes, shared }) => {
  const app = createServer({ logger: false, schemaCompilation: 'lazy' })
  for (const schema of shared) app.addSchema(schema as never)
  for (const r of routes) app.post(r.url, { schema: { body: r.body, response: { 200: r.response } } }, () => bootReply)
  await app.listen({ port: 0, host: '127.0.0.1' })
  return app.server
})
