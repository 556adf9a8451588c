// Which statuses a framework assigned to its raw response while answering (Fastify 3 writes
// `res.statusCode` itself, in reply.code() and its error path): node:http2's response refuses one
// of 600 or more by throwing, which a client over HTTP/1 or inject never sees.
import { ServerResponse } from 'node:http'

/**
 * Runs `run` with every `statusCode` assigned to a node:http ServerResponse (light-my-request's
 * inject response is one) recorded. Cases run one at a time, so the prototype is patched only
 * for this run and restored after it.
 */
export async function withRawStatuses<T>(run: () => Promise<T>): Promise<{ result: T; statuses: number[] }> {
  const proto = ServerResponse.prototype
  const original = Object.getOwnPropertyDescriptor(proto, 'statusCode') as PropertyDescriptor
  const own = new WeakMap<object, unknown>()
  const statuses: number[] = []
  Object.defineProperty(proto, 'statusCode', {
    configurable: true,
    enumerable: true,
    get(this: object) { return own.has(this) ? own.get(this) : original.value },
    set(this: object, value: unknown) { statuses.push(Number(value)); own.set(this, value) },
  })
  try {
    return { result: await run(), statuses }
  } finally {
    Object.defineProperty(proto, 'statusCode', original)
  }
}
