// What Fastify 3's test files get for `require('..')`: a Fastify-like factory over Enclave's
// createServer. Deliberately thin: it translates nothing. Every Fastify calling form the tests use
// that Enclave offers is Enclave's own (listen(port, host, cb), listen(options, cb), close(cb),
// ready(cb), inject(options, cb), inject().get(url).end()); the factory only adds a recording
// logger and remembers the servers, so that a failed test's leftovers are closed.
import { createServer } from '../../src'
import type { Scope, ServerOptions } from '../../src'

const live = new Set<Scope>()

/** `fastify(options)`: Enclave's root scope. */
function fastify(options?: ServerOptions): Scope {
  // Only an options object (or none) gets the logger: anything else (`fastify('lol')`) goes to
  // createServer() as given, for it to refuse, not spread into `{ 0: 'l', ... }`.
  const plain = options === undefined || (typeof options === 'object' && options !== null)
  const app = createServer(plain && options?.logger === undefined ? { ...options, logger: recordingLogger } : options as ServerOptions)
  live.add(app)
  return app
}

// Diagnostics only: when a test gives no logger, what Enclave logs at error level is kept and
// reported with the test's result (a 500's cause), so the catalogue can name it.
let logged: string[] = []
const ignore = (): void => {}
const recordingLogger = {
  info: ignore,
  debug: ignore,
  warn: ignore,
  error(obj: unknown, msg?: string): void {
    if (logged.length >= 5) return
    const err = typeof obj === 'object' && obj !== null ? (obj as { err?: unknown }).err ?? obj : obj
    const text = err instanceof Error ? `${err.name}${(err as { code?: unknown }).code !== undefined ? ` [${String((err as { code?: unknown }).code)}]` : ''}: ${err.message}` : String(err)
    logged.push(`${msg ?? ''} ${text}`.trim().slice(0, 400))
  },
}

/** The error-level lines Enclave logged since the last call. */
export function takeLogged(): string[] {
  const out = logged
  logged = []
  return out
}

/** Closes every server the last test left open (a failed test often skips its teardown). */
export async function closeAll(): Promise<void> {
  const apps = [...live]
  live.clear()
  await Promise.all(apps.map((app) => app.close().catch(() => undefined)))
}

const factory = Object.assign(fastify, { fastify, default: fastify })
export { factory as fastify }
