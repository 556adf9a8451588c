// Helpers for the conformance sweep (docs/spec-conformance.md). Everything goes through the public
// entry (src/index.ts) and over HTTP: the tests read like a user's application, never like internals.
import request from 'supertest'
import { createServer, type Scope, type ServerOptions } from '../../src'

/** Every server a test creates; closed after each test, so a failing test leaks no socket. */
const open: Scope[] = []

afterEach(async () => {
  while (open.length > 0) await (open.pop() as Scope).close()
})

/** A server closed after the current test. */
export function server(options?: ServerOptions): Scope {
  const app = createServer(options)
  open.push(app)
  return app
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

/** A supertest agent over the booted server's node http.Server. */
export function http(app: Scope): ReturnType<typeof request> {
  return request(app.server)
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

/** The default 400 payload of spec §2.4 for `message`. */
export function badRequest(message: string): { statusCode: 400; error: 'Bad Request'; message: string } {
  return { statusCode: 400, error: 'Bad Request', message }
}

/** A handler that answers what it received, so a test sees what validation left in each part. */
export function echo(req: { body: unknown; query: unknown; params: unknown; headers: Record<string, unknown> }): unknown {
  return { body: req.body ?? null, query: req.query, params: req.params }
}

/**
 * Runs one request and fails the test, at once and with a clear message, if an exception escapes
 * the request path instead of becoming an error reply (which would take a real server down).
 * The server should be built with a short `closeTimeout`: the crashed request never ends.
 */
export async function withoutCrash<T>(run: () => PromiseLike<T>): Promise<T> {
  const saved = process.listeners('uncaughtException')
  process.removeAllListeners('uncaughtException')
  let onCrash: (error: Error) => void = () => undefined
  const crashed = new Promise<never>((_resolve, reject) => {
    onCrash = (error) => reject(new Error(`the server crashed: an uncaught exception escaped the request path: ${error?.message}`))
  })
  process.on('uncaughtException', onCrash)
  const running = Promise.resolve(run())
  running.catch(() => undefined)
  try {
    return await Promise.race([running, crashed])
  } finally {
    process.removeListener('uncaughtException', onCrash)
    for (const listener of saved) process.on('uncaughtException', listener)
  }
}
