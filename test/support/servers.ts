// Server lifecycle helpers shared by every suite: each server a test creates is closed after
// that test, so a failing test leaks no socket and no timer.
import { createServer, type Logger, type Scope, type ServerOptions } from '../../src'

const open: Scope[] = []

// A root hook: if it fails, mocha skips every test left in the run, not just this file's. So it
// gets more time than a test (a server whose test timed out may still be closing its sockets on
// a loaded machine) before it fails.
afterEach(async function () {
  this.timeout(60_000)
  while (open.length > 0) await (open.pop() as Scope).close()
})

/** A server closed after the current test. */
export function server(options?: ServerOptions): Scope {
  return track(createServer(options))
}

/** The same routes declared on an Enclave server and on a reference framework's app, to compare their answers. */
export function declaredOnBoth<R>(declare: (app: never) => void, reference: R): { app: Scope; reference: R } {
  const app = server()
  declare(app as never)
  declare(reference as never)
  return { app, reference }
}

/** Keeps a scope built elsewhere (createApp, the sample) on the close list of the current test. */
export function track<S extends Scope>(app: S): S {
  open.push(app)
  return app
}

/** Creates a server, lets `declare` register on its root scope, and boots it. */
export async function build(declare: (root: Scope) => void | Promise<void>, options?: ServerOptions): Promise<Scope> {
  const app = server(options)
  await declare(app)
  await app.ready()
  return app
}

/** What `ready()` rejected with; fails the test when it resolves. */
export async function bootError(app: Scope): Promise<Error & { code?: string }> {
  try {
    await app.ready()
  } catch (error) {
    return error as Error & { code?: string }
  }
  throw new Error('ready() was expected to reject')
}

/** What `fn` threw synchronously; fails the test when it does not throw. */
export function thrown(fn: () => unknown): Error & { code?: string } {
  try {
    fn()
  } catch (error) {
    return error as Error & { code?: string }
  }
  throw new Error('the call was expected to throw')
}

export interface LogEntry { level: 'info' | 'warn' | 'error' | 'debug'; obj: Record<string, unknown>; msg: string | undefined }

/** A logger that keeps every call, for asserting on what the framework logs. */
export function recordingLogger(): Logger & { entries: LogEntry[] } {
  const entries: LogEntry[] = []
  const at = (level: LogEntry['level']) => (obj: unknown, msg?: string): void => { entries.push({ level, obj: obj as Record<string, unknown>, msg }) }
  // trace/fatal/child as the server completes a hand-made logger (trace as debug, fatal as error, child as itself).
  const logger = { entries, info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug'), trace: at('debug'), fatal: at('error'), child: () => logger }
  return logger
}

/** A promise with its resolve function outside: lets a test release a handler it holds. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => { resolve = r })
  return { promise, resolve }
}

/** The boot warnings (`ENC_WARN_*` entries at warn) of an app `declare` builds, each as its log object and message. */
export async function bootWarnings(declare: (root: Scope) => void, options: ServerOptions = {}): Promise<Array<Record<string, unknown>>> {
  const logger = recordingLogger()
  await build(declare, { logger, ...options })
  return logger.entries.filter((e) => e.level === 'warn' && typeof e.obj?.code === 'string' && (e.obj.code as string).startsWith('ENC_WARN_')).map((e) => ({ ...e.obj, msg: e.msg }))
}
