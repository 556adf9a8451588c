import type { IncomingHttpHeaders } from 'node:http'

/**
 * The body size a request's Content-Length declares, read as Fastify 3 reads it (parseInt), NaN
 * when absent. Node's parser refuses anything but digits on the wire, so a value without
 * leading digits (`abc`) reaches here only through inject(): it declares nothing.
 */
export function declaredLength(headers: IncomingHttpHeaders): number {
  const header = headers['content-length']
  return header === undefined ? Number.NaN : Number.parseInt(header, 10)
}
