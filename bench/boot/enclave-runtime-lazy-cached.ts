// Boot worker: Enclave's runtime API, schemaCompilation 'lazy', with a schema cache a previous
// process filled: to listening, then the first request to the last route reads its functions
// from the cache instead of compiling them.
import { createServer } from '../../src/runtime'
import { measureBoot } from './report'
import { bootReply } from './routes'
import { bootCacheDirectory } from './cache-directory'

measureBoot(async ({ routes, shared }) => {
  const app = createServer({ logger: false, schemaCompilation: 'lazy', schemaCache: { directory: bootCacheDirectory() } })
  for (const schema of shared) app.addSchema(schema as never)
  for (const r of routes) app.post(r.url, { schema: { body: r.body, response: { 200: r.response } } }, () => bootReply)
  await app.listen({ port: 0, host: '127.0.0.1' })
  return app.server
})
