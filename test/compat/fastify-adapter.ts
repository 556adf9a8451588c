// What Fastify 3's test files get for `require('..')`: a Fastify-like factory over Enclave's
// createServer. Deliberately thin: it translates calling conventions, never behaviour. Each
// translation below is a Fastify calling form Enclave does not offer itself; they are listed in
// docs/fastify-compat.md ("adapter translations") so the gap stays visible. Setting
// ENCLAVE_COMPAT_STRICT=1 turns them all off to measure Enclave bare.
import { createServer } from '../../src'
import type { Scope, ServerOptions } from '../../src'

type Callback = (error: unknown, value?: unknown) => void
type Method = (...args: unknown[]) => unknown

const live = new Set<Scope>()
const strict = process.env.ENCLAVE_COMPAT_STRICT === '1'

/** `fastify(options)`: Enclave's root scope, with the callback forms translated. */
function fastify(options?: ServerOptions): Scope {
  const app = createServer(options?.logger === undefined ? { ...options, logger: recordingLogger } : options)
  live.add(app)
  if (!strict) {
    // listen(port, host, backlog, cb) / listen(options, cb): Enclave takes (port, host) or options and returns a promise.
    withCallback(app, 'listen', (args) => typeof args[0] === 'object' ? [args[0]] : args.filter((arg, index) => index < 2 && arg !== undefined))
    withCallback(app, 'close', () => [])
    // inject(options, cb) and the chained inject() are Enclave's own.
  }
  return app
}

/** When the last argument is a function, calls the promise-returning method without it and hands the outcome to it. */
function withCallback(app: Scope, name: 'listen' | 'close', keep: (args: unknown[]) => unknown[]): void {
  const original = (app[name] as Method).bind(app)
  Object.defineProperty(app, name, {
    configurable: true,
    writable: true,
    value: function (...args: unknown[]): unknown {
      const callback = typeof args[args.length - 1] === 'function' ? args.pop() as Callback : null
      const result = original(...keep(args)) as Promise<unknown>
      if (callback === null) return result
      result.then((value) => callback(null, name === 'listen' ? value : undefined), (error: unknown) => callback(error))
      return app
    },
  })
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
