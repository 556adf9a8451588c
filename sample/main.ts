import { buildSampleApp } from './sample-app'

/**
 * `npm start`: serves the sample. Configuration by environment:
 *   PORT (default 3000), HOST (default 127.0.0.1),
 *   API_KEYS (comma-separated bearer tokens for GET /one; default the demo key `abc123`),
 *   SAMPLE_LIFT_GRANDCHILD=1 (lift the grandchild module, so GET /two also answers `bar`).
 */
async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 3000)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be an integer from 0 to 65535, got '${process.env.PORT}'`)
  const host = process.env.HOST ?? '127.0.0.1'
  const keys = (process.env.API_KEYS ?? '').split(',').map((k) => k.trim()).filter((k) => k !== '')
  if (keys.length === 0) {
    keys.push('abc123')
    console.warn('WARNING: API_KEYS is not set; GET /one accepts the demo key "abc123". Set API_KEYS to your own keys outside a demo.')
  }
  // logger: true writes one JSON line per event (unexpected errors with their stack) to stdout/stderr.
  const app = await buildSampleApp({ keys, liftGrandchild: process.env.SAMPLE_LIFT_GRANDCHILD === '1', server: { logger: true } })
  const address = await app.listen({ port, host })

  let closing = false
  const shutdown = (signal: string): void => {
    if (closing) return
    closing = true
    console.log(`${signal} received, closing`)
    app.close().then(() => process.exit(0), (error: unknown) => { console.error(error); process.exit(1) })
  }
  process.once('SIGTERM', () => shutdown('SIGTERM'))
  process.once('SIGINT', () => shutdown('SIGINT'))
  // Printed once the handlers are in: a supervisor (or the sample-process test) that signals on
  // this line would otherwise kill the process with Node's default action, not close it.
  console.log(`Enclave sample listening on ${address}`)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
