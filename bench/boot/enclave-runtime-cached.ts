// Boot worker: Enclave's runtime API, eager, with a schema cache a previous process filled
// (schemaCache option): to listening, the validators and serializers evaluated from the cache.
import { createServer } from '../../src/runtime'
import { measureBoot } from './report'
import { bootReply } from './routes'
import { bootCacheDirectory } from './cache-directory'

measureBoot(async ({ routes, shared }) => {
  const app = createServer({ logger: false, schemaCache: { directory: bootCacheDirectory() } })
  for (const schema of shared) app.addSchema(schema as never)
  for (const r of routes) app.post(r.url, { schema: { body: r.body, response: { 200: r.response } } }, () => bootReply)
  await app.listen({ port: 0, host: '127.0.0.1' })
  return app.server
})
