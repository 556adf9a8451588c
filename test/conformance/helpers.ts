// Helpers for the conformance sweep (docs/spec-conformance.md). Everything goes through the public
// entry (src/index.ts) and over HTTP: the tests read like a user's application, never like internals.
import request from 'supertest'
import type { Scope } from '../../src'

export { server, track, build, bootError, thrown } from '../support/servers'

/** A supertest agent over the booted server's node http.Server. */
export function http(app: Scope): ReturnType<typeof request> {
  return request(app.server)
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
