import type { IncomingMessage } from 'node:http'

// RFC 9112 §3.2 / RFC 3986 §3.2.2: Host = uri-host [ ":" port ], uri-host an IP literal in
// brackets or a reg-name (unreserved, pct-encoded, sub-delims); empty is allowed (a target
// without authority). Linear: no nested quantifiers.
const VALID_HOST = /^(?:\[[0-9A-Za-z:._~!$&'()*+,;=-]+\]|[0-9A-Za-z._~!$&'()*+,;=%-]*)(?::[0-9]*)?$/

/**
 * What is wrong with the request's Host header, if anything: RFC 9112 §3.2 requires a 400 for an
 * HTTP/1.1 request without one, and for any request with more than one Host line or a value
 * that is no host[:port]. Node keeps only the first of two Host lines, so `Host: a` + `Host: evil`
 * would be served as `a` here and possibly as `evil` by a proxy in front: host confusion, cache
 * poisoning through URLs built from request.hostname.
 */
export function hostHeaderProblem(raw: IncomingMessage): 'missing' | 'invalid' | null {
  // The raw header list, not raw.headers: Node builds that object on first access, and most GET
  // routes never need it. Every line is looked at, since a second Host may come anywhere.
  const rawHeaders = raw.rawHeaders
  // A request object made in process by a plugin (@fastify/websocket's injectWS) may have no
  // raw list at all: nothing came over the wire to check.
  if (rawHeaders === undefined) return null
  let value: string | null = null
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]
    if (name.length === 4 && name.toLowerCase() === 'host') {
      if (value !== null) return 'invalid'
      value = rawHeaders[i + 1]
    }
  }
  if (value === null) return raw.httpVersionMajor === 1 && raw.httpVersionMinor === 1 ? 'missing' : null
  return VALID_HOST.test(value) ? null : 'invalid'
}
