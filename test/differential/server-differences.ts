// README differences the server-options family meets (server-options.ts): each rewrites Fastify
// 3's answer, or asks Fastify 3 again with the request Enclave's rule reads it as.
import { isIP } from 'node:net'
import proxyAddr from 'proxy-addr'
import type { Answer, Case } from './case'
import type { KnownDifference, RewriteContext } from './difference-types'
import { PARSER_BODY_LIMIT } from './bodies'
import { asSent } from './urls-differences'
import { parserLimit } from './parser-limits'

type Echo = Record<string, unknown>

function echoOf(a: Answer): Echo | undefined {
  const b = a.body
  return b !== null && typeof b === 'object' && !Array.isArray(b) && 'hostname' in b ? (b as Echo) : undefined
}

/** The answer with another JSON body; its Content-Length follows. */
function withBody(a: Answer, body: unknown): Answer {
  const headers = { ...a.headers }
  if (headers['content-length'] !== undefined) headers['content-length'] = String(Buffer.byteLength(JSON.stringify(body)))
  return { ...a, headers, body }
}

/** The path's segments as sent: inject() and Node's client escape a space or a character above U+007E as UTF-8. */
function pathSegments(url: string): string[] {
  return asSent(url.split(/[?#]/)[0] as string).split('/')
}

/** Whether the case's trustProxy trusts the socket's peer (loopback on both transports), as Fastify 3 compiles it. */
function peerTrusted(c: Case): boolean {
  const trust = c.server?.trustProxy
  if (trust === undefined || trust === false) return false
  if (trust === true) return true
  if (typeof trust === 'number') return trust > 0
  if (typeof trust === 'function') return (trust as (address: string, hop: number) => boolean)('127.0.0.1', 0)
  const list = typeof trust === 'string' ? trust.split(',').map((s) => s.trim()) : trust as string[]
  return proxyAddr.compile(list)('127.0.0.1', 0)
}

/** The README rule for request.ips, on Fastify 3's list (the socket's address first, as written). */
function addressesOnly(ips: readonly string[]): string[] {
  const kept = ips.slice(0, 1)
  for (const entry of ips.slice(1)) {
    if (isIP(entry) !== 0) { kept.push(entry); continue }
    const bracketed = /^\[([^\]]+)\]:\d{1,5}$/.exec(entry)
    const v4 = /^([\d.]+):\d{1,5}$/.exec(entry)
    const bare = bracketed !== null && isIP(bracketed[1]) === 6 ? bracketed[1] : v4 !== null && isIP(v4[1]) === 4 ? v4[1] : null
    if (bare === null) break
    kept.push(bare)
  }
  return kept
}

// Enclave's request-id token (serve-context.ts); Fastify 3 takes any non-empty value.
const REQUEST_ID_TOKEN = /^[\w.:@/+=-]{1,128}$/

/** The request headers without those Enclave does not read (both rules below may apply at once). */
function readHeaders(c: Case): Record<string, string> {
  const headers = { ...c.request.headers }
  if (c.server?.trustProxy !== undefined && !peerTrusted(c)) { delete headers['x-forwarded-host']; delete headers['x-forwarded-proto'] }
  const name = (c.server?.requestIdHeader as string | undefined) ?? 'request-id'
  const sent = headers[name]
  if (sent !== undefined && (c.server?.requestIdHeader === undefined || !REQUEST_ID_TOKEN.test(sent))) delete headers[name]
  return headers
}

// Asked once per case and transport: a later pass must not undo the rewrites made after it.
const asked = new WeakMap<Case, Set<string>>()

async function replayAsRead(c: Case, transport: string, replay: RewriteContext['replay']): Promise<Answer | undefined> {
  const done = asked.get(c) ?? new Set<string>()
  if (done.has(transport)) return undefined
  asked.set(c, done.add(transport))
  return await replay({ ...c.request, headers: readHeaders(c) })
}

// The two that ask Fastify 3 again come first: the rewrites of its answer follow in the same pass.
export const SERVER_DIFFERENCES: KnownDifference[] = [
  {
    id: 'forwarded-host-proto-trusted-peer',
    readme: 'With `trustProxy`, `X-Forwarded-Host` and `X-Forwarded-Proto` are read only when the socket\'s\n  peer is a trusted proxy',
    async rewrite(_f, { c, transport, replay }) {
      const headers = c.request.headers ?? {}
      if (c.server?.trustProxy === undefined || peerTrusted(c) || (headers['x-forwarded-host'] === undefined && headers['x-forwarded-proto'] === undefined)) return undefined
      return await replayAsRead(c, transport, replay)
    },
  },
  {
    id: 'request-id-header-opt-in',
    readme: 'A client-sent request id is used only when `requestIdHeader` names its header',
    async rewrite(_f, { c, transport, replay }) {
      const headers = c.request.headers ?? {}
      // By default Fastify 3 reads `request-id`; a header that is read must be a short plain token here.
      const name = (c.server?.requestIdHeader as string | undefined) ?? 'request-id'
      const sent = headers[name]
      if (c.server === undefined || sent === undefined || (c.server.requestIdHeader !== undefined && REQUEST_ID_TOKEN.test(sent))) return undefined
      return await replayAsRead(c, transport, replay)
    },
  },
  {
    id: 'protocol-http-or-https',
    readme: '`request.protocol` is only\n  ever `http` or `https`',
    async rewrite(f, { c, replay }) {
      if (c.server === undefined) return undefined
      // A forwarded `HTTPS` is `https`; anything else is ignored (the socket's: plain HTTP here).
      const rewritten = (a: Answer): Answer | undefined => {
        const echo = echoOf(a)
        if (echo === undefined || echo.protocol === 'http' || echo.protocol === 'https' || typeof echo.protocol !== 'string') return undefined
        return withBody(a, { ...echo, protocol: echo.protocol.trim().toLowerCase() === 'https' ? 'https' : 'http' })
      }
      // A HEAD answer (exposeHeadRoutes) has no echo to read, only the length of the body it would
      // have: the GET is asked, and the HEAD's length moves as the rewrite moves the GET's (seed 224:286).
      if (c.request.method === 'HEAD' && f.body === '' && f.headers['content-length'] !== undefined) {
        const get = await replay({ ...c.request, method: 'GET' })
        const after = rewritten(get)
        if (after === undefined) return undefined
        const moved = Number(after.headers['content-length']) - Number(get.headers['content-length'])
        return { ...f, headers: { ...f.headers, 'content-length': String(Number(f.headers['content-length']) + moved) } }
      }
      return rewritten(f)
    },
  },
  {
    id: 'forwarded-for-addresses-only',
    readme: 'With `trustProxy`, `request.ip` and every entry of `request.ips` are IP addresses',
    async rewrite(f, { c, replay }) {
      if (c.server?.trustProxy === undefined || c.request.headers?.['x-forwarded-for'] === undefined) return undefined
      // Fastify 3's ips (proxy-addr's walk) held to the rule: an address with a port is the
      // address; the first entry that is no address ends the walk; ip is the last one kept.
      const rewritten = (a: Answer): Answer | undefined => {
        const echo = echoOf(a)
        if (echo === undefined || !Array.isArray(echo.ips)) return undefined
        const ips = addressesOnly(echo.ips as string[])
        if (ips.length === echo.ips.length && ips.every((ip, i) => ip === (echo.ips as string[])[i])) return undefined
        return withBody(a, { ...echo, ip: ips[ips.length - 1], ips })
      }
      if (c.request.method === 'HEAD' && f.body === '' && f.headers['content-length'] !== undefined) {
        const get = await replay({ ...c.request, method: 'GET' })
        const after = rewritten(get)
        if (after === undefined) return undefined
        const moved = Number(after.headers['content-length']) - Number(get.headers['content-length'])
        return { ...f, headers: { ...f.headers, 'content-length': String(Number(f.headers['content-length']) + moved) } }
      }
      return rewritten(f)
    },
  },
  {
    id: 'param-too-long-414',
    readme: 'A route parameter longer than `maxParamLength` answers 414 (`ENC_ERR_PARAM_TOO_LONG`)',
    async rewrite(f, { c, enclave, replay }) {
      const limit = (c.server?.maxParamLength as number | undefined) ?? 100
      const code = (enclave.body as { code?: unknown } | null)?.code
      if (c.server === undefined || enclave.statusCode !== 414 || code !== 'ENC_ERR_PARAM_TOO_LONG') return undefined
      // Only where a segment of the path is longer than the limit (decoded, as the router reads it).
      if (!pathSegments(c.request.url).some((s) => { try { return decodeURIComponent(s).length > limit } catch { return s.length > limit } })) return undefined
      // Fastify 3's not-found route reads the body first (a poisoned one is its 400): without it, its 404.
      const { 'content-type': _type, ...rest } = c.request.headers ?? {}
      const unknown = f.statusCode === 404 ? f : await replay({ method: c.request.method, url: c.request.url, headers: rest })
      return unknown.statusCode === 404 ? enclave : undefined
    },
  },
  {
    id: 'param-length-decoded',
    readme: 'The length is the decoded parameter\'s',
    rewrite(f, { c, enclave }) {
      const limit = (c.server?.maxParamLength as number | undefined) ?? 100
      if (c.server === undefined || f.statusCode !== 404 || enclave.statusCode === 404 || enclave.statusCode === 414) return undefined
      // Only where a segment fits the limit decoded and not as sent (find-my-way 4 counts it as sent).
      const fitsOnlyDecoded = (s: string): boolean => { try { return s.length > limit && decodeURIComponent(s).length <= limit } catch { return false } }
      return pathSegments(c.request.url).some(fitsOnlyDecoded) ? enclave : undefined
    },
  },
  {
    id: 'body-limit-names-limit',
    readme: 'and the 413 names the limit',
    rewrite(f, { c, enclave }) {
      const b = f.body as { message?: unknown } | null
      if ((c.server === undefined && c.family !== 'bodies' && c.family !== 'parser-limits' && c.pa === undefined) || f.statusCode !== 413 || b === null || typeof b !== 'object' || b.message !== 'Request body is too large') return undefined
      // The route's limit, or the server's where no route matched (a not-found request's body), or
      // a content-type parser's own (bodies.ts), or a plugin-api route's `bodyLimit: 12` (plugin-api.ts).
      const named = Number(/the limit is (\d+) bytes$/.exec(String((enclave.body as { message?: unknown } | null)?.message ?? ''))?.[1])
      const limits = [c.route.options?.bodyLimit, c.server?.bodyLimit ?? 1048576, ...(c.family === 'bodies' && /text limited/.test(c.summary) ? [PARSER_BODY_LIMIT] : []), ...(c.pa !== undefined ? [12] : []), ...parserLimit(c)]
      if (!limits.includes(named)) return undefined
      const limit = named
      return withBody(f, { ...b, message: `Request body is too large: the limit is ${limit} bytes` })
    },
  },
]
