import type { IncomingMessage } from 'node:http'

// RFC 9112 §3.2 / RFC 3986 §3.2.2: Host = uri-host [ ":" port ], uri-host an IP literal in
// brackets or a reg-name (unreserved, pct-encoded, sub-delims); empty is allowed (a target
// without authority). An IP literal may carry an IPv6 zone, percent-encoded (RFC 6874:
// `[fe80::1%25eth0]`), as link-local clients send it. The common case (a reg-name, maybe a port) is one pass over a byte table;
// only a value starting with '[' goes to the regular expression (linear: no nested quantifiers).
const IP_LITERAL_HOST = /^\[[0-9A-Za-z:._~!$&'()*+,;=%-]+\](?::[0-9]*)?$/
const REG_NAME = new Uint8Array(128)
for (const c of "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-._~!$&'()*+,;=%") REG_NAME[c.charCodeAt(0)] = 1

// The last value found valid: most requests to a server name the same host, and one string
// comparison costs less than the pass over its characters.
let lastValidHost = 'localhost'

/** `value` is a Host value of RFC 9112 §3.2 (`host[:port]`); trust-proxy.ts holds a forwarded host to it too. */
export function validHost(value: string): boolean {
  if (value === lastValidHost) return true
  if (value.charCodeAt(0) === 0x5b /* [ */) {
    if (!IP_LITERAL_HOST.test(value)) return false
    lastValidHost = value
    return true
  }
  let i = 0
  for (; i < value.length; i++) {
    const c = value.charCodeAt(i)
    if (c === 0x3a /* : */) break
    if (c > 127 || REG_NAME[c] === 0) return false
  }
  // The port: digits only, possibly none.
  for (i++; i < value.length; i++) {
    const c = value.charCodeAt(i)
    if (c < 0x30 || c > 0x39) return false
  }
  lastValidHost = value
  return true
}

/** `name` is `host` in any case, without lowercasing a copy (this runs on every request). */
function isHost(name: string): boolean {
  return (name.charCodeAt(0) | 0x20) === 0x68 && (name.charCodeAt(1) | 0x20) === 0x6f &&
    (name.charCodeAt(2) | 0x20) === 0x73 && (name.charCodeAt(3) | 0x20) === 0x74
}

const ONLY_CHUNKED = /^[ \t]*chunked[ \t]*$/i

/** What a request's head breaks that is answered before routing (or, for 'malformed', before its body is read). */
export type HeadProblem = 'no-host' | 'bad-host' | 'transfer-coding' | 'malformed'

/**
 * The header rules checked before routing, in one pass over the raw header list:
 * - Host (RFC 9112 §3.2 requires a 400): missing on HTTP/1.1; more than one line, or a value that
 *   is no host[:port], on any version. Node keeps only the first of two Host lines, so `Host: a` +
 *   `Host: evil` would be served as `a` here and possibly as `evil` by a proxy in front: host
 *   confusion, cache poisoning through URLs built from request.hostname.
 * - HTTP/2's :authority stands for Host (RFC 9113 §8.3.1) and is held to the same rule; a Host
 *   beside it naming another host is malformed there (a SHOULD), and is refused here: Node's
 *   request.headers.host would win over :authority, so a proxy routing on :authority and the app
 *   building URLs from request.hostname would disagree on the host, the confusion above.
 * - Transfer-Encoding: Node frames by a final `chunked` but passes any coding before it
 *   (`gzip, chunked`, or two lines) on undecoded, so the body would be read as if plain; RFC 9112
 *   §6.1: a transfer coding the server does not understand is a 501.
 * The raw list, not raw.headers: only it shows a repeated Host line (Node's object keeps the
 * first). (node:http 20 has raw.headers built before the 'request' event on every HTTP/1.1
 * request, for its Expect check; session 20.)
 */
export function requestHeadProblem(raw: IncomingMessage): HeadProblem | null {
  const rawHeaders = raw.rawHeaders
  // A request object made in process by a plugin (@fastify/websocket's injectWS) may have no
  // raw list at all: nothing came over the wire to check.
  if (rawHeaders === undefined) return null
  let host: string | null = null
  let authority: string | null = null
  let transferCodings = 0
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]
    // `:` first: HTTP/1.1's Connection and User-Agent are 10 long too, and never start with it.
    if (name.length === 10 && name.charCodeAt(0) === 0x3a && name === ':authority') {
      authority = rawHeaders[i + 1]
    } else if (name.length === 4) {
      if (!isHost(name)) continue
      if (host !== null) return 'bad-host'
      host = rawHeaders[i + 1]
    } else if (name.length === 17 && (name.charCodeAt(0) | 0x20) === 0x74 /* t */ && name.toLowerCase() === 'transfer-encoding') {
      // The first letter is tested before a lower-cased copy is made: X-Forwarded-Proto and
      // If-Modified-Since are 17 long too, and a proxy sends the first on every request (~20 ns).
      if (++transferCodings > 1 || !ONLY_CHUNKED.test(rawHeaders[i + 1])) return 'transfer-coding'
    }
  }
  if (authority !== null && (!validHost(authority) || (host !== null && host !== authority && !sameHost(host, authority)))) return 'bad-host'
  if (host === null) return raw.httpVersionMajor === 1 && raw.httpVersionMinor === 1 ? 'no-host' : null
  return validHost(host) ? null : 'bad-host'
}

/**
 * Whether a Host beside :authority names the same host (RFC 9113 §8.3.1 calls only "an entity
 * that differs" malformed): case aside, a trailing dot aside, and the scheme's default port
 * written or not (`example.com` and `example.com:443`; either port is default for the check, as
 * the request's :scheme is not at hand here and 80/443 never name two hosts of one service).
 */
function sameHost(a: string, b: string): boolean {
  return normalHost(a) === normalHost(b)
}

function normalHost(value: string): string {
  const lower = value.toLowerCase().replace(/:(80|443)$/, '')
  return lower.endsWith('.') ? lower.slice(0, -1) : lower
}
