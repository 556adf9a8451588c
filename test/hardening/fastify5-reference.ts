// The Fastify 5 app a hardening file compares Enclave's answers with, the plugins' own reference
// (their current majors support Fastify 5 only).
type Loose = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * A Fastify 5 app that `listen` declares and starts, for the describe block this is called in:
 * started before its tests, closed after them. Returns its address, read once started.
 */
export function fastify5Reference(listen: (app: Loose) => Promise<string>, options: object = {}): () => string {
  let app: Loose | undefined
  let address = ''
  before(async function () {
    this.timeout(30_000)
    // eslint-disable-next-line @typescript-eslint/no-var-requires
    app = require('fastify5')({ logger: false, ...options }) as Loose
    address = await listen(app)
  })
  after(async () => { await app?.close() })
  return () => address
}
