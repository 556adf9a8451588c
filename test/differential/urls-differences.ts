// README differences the `urls` family meets (urls.ts): find-my-way 9 reads paths otherwise than
// Fastify 3's find-my-way 4, the 405 on a known path, the undecodable URL's 400. Where a rule says
// "Enclave reads the URL as Fastify 3 reads another", Fastify 3 is asked that other URL and its
// echo of `request.url` is put back to the URL sent (both leave `request.url` as it came).
import { STATUS_CODES } from 'node:http'
import type { Transport } from './apps'
import type { Answer, Case, RequestSpec } from './case'
import type { KnownDifference, RewriteContext } from './difference-types'

type Echo = Record<string, unknown>

function echoOf(a: Answer): Echo | undefined {
  const b = a.body
  return b !== null && typeof b === 'object' && !Array.isArray(b) && 'url' in b ? (b as Echo) : undefined
}

/** The answer with another JSON body; its Content-Length follows. */
function withBody(a: Answer, body: unknown, statusCode = a.statusCode): Answer {
  const headers = { ...a.headers }
  if (headers['content-length'] !== undefined) headers['content-length'] = String(Buffer.byteLength(JSON.stringify(body)))
  return { ...a, statusCode, headers, body }
}

function pathEnd(url: string): number {
  const at = url.search(/[?#]/)
  return at === -1 ? url.length : at
}

/**
 * The URL as find-my-way 9 reads it, written so that find-my-way 4 reads it alike: escapes of
 * unreserved characters decoded (`%2D` is `-`, `%61` is `a`: they take part in matching), `;`
 * escaped (part of the path, not its end), and a `#` before any `?` ending the path and the query.
 */
export function asRouterReads(url: string): string {
  const end = pathEnd(url)
  const path = url.slice(0, end).replace(/%([0-9a-fA-F]{2})/g, (escape, hex: string) => {
    const ch = String.fromCharCode(parseInt(hex, 16))
    return /^[A-Za-z0-9._~-]$/.test(ch) ? ch : escape
  }).replace(/;/g, '%3B')
  const rest = url.slice(end)
  return rest.startsWith('#') ? path : path + rest
}

function inUrls(c: Case): boolean {
  return c.family === 'urls' || c.family === 'route-options'
}

/** `request.url` in Fastify 3's echo as sent (Enclave's is), where it was asked another URL. */
function urlPutBack(a: Answer, asked: string, sent: string, transport: Transport, rewrite?: (url: string) => string): Answer {
  const echo = echoOf(a)
  const read = rewrite === undefined ? asked : rewrite(asked)
  // inject() leaves a fragment out of the URL it sends; Node's client sends it.
  const whole = rewrite === undefined ? sent : rewrite(sent)
  if (echo === undefined) return a
  if (echo.url === read) return withBody(a, { ...echo, url: transport === 'inject' ? injected(whole) : whole })
  if (echo.url === injected(read)) return withBody(a, { ...echo, url: injected(whole) })
  return a
}

/** The URL inject() gives the server: without a fragment, and without a `?` that starts no query. */
function injected(url: string): string {
  return (url.split('#')[0] as string).replace(/\?$/, '')
}

/** The URL as inject() and a socket's client send it: a space or a character above U+007E escaped as UTF-8. */
export function asSent(url: string): string {
  return url.replace(/[^\x21-\x7e]/gu, (ch) => encodeURIComponent(ch))
}

/** Fastify 3's answer from the fallback its routers share (a method or URL its router does not take). */
function isFallback404(a: Answer): boolean {
  // A HEAD answer has only the length of that body.
  if (a.statusCode === 404 && a.body === '' && a.headers['content-length'] === '60') return true
  const b = a.body as Record<string, unknown> | null
  return a.statusCode === 404 && b !== null && typeof b === 'object' && b.message === 'Not Found' && b.error === 'Not Found' && Object.keys(b).length === 3
}

function undecodable(url: string): boolean {
  try {
    decodeURIComponent(url.slice(0, pathEnd(url)))
    return false
  } catch {
    return true
  }
}

function rewriteOf(c: Case): ((url: string) => string) | undefined {
  const fn = c.server?.rewriteUrl as ((raw: { url: string }) => string) | undefined
  return fn === undefined ? undefined : (url) => fn({ url })
}

/** Fastify 3 asked the URL as Enclave's router reads it. */
async function replayAsRead(c: Case, transport: Transport, replay: RewriteContext['replay'], method = c.request.method): Promise<Answer> {
  const asked = asRouterReads(c.request.url)
  const request: RequestSpec = { ...c.request, method, url: asked }
  // The request's own headers stay (an Accept-Version or Host a constrained route needs: constraints.ts).
  if (method !== c.request.method && ['POST', 'PUT', 'PATCH'].includes(method)) { request.headers = { ...c.request.headers, 'content-type': 'application/json' }; request.payload = '{"k":1}' }
  return urlPutBack(await replay(request), asked, c.request.url, transport, rewriteOf(c))
}

// Asked once per case and transport: a later pass must not undo the rewrites made after it.
const asked = new WeakMap<Case, Set<Transport>>()

function firstTime(c: Case, transport: Transport): boolean {
  const done = asked.get(c) ?? new Set<Transport>()
  if (done.has(transport)) return false
  asked.set(c, done.add(transport))
  return true
}

/** A segment over `maxParamLength` as sent (find-my-way 4 counts it so; README: a 414 here or, fitting once decoded, served here). */
function tooLong(c: Case): boolean {
  const limit = (c.server?.maxParamLength as number | undefined) ?? 100
  const path = asSent(c.request.url.slice(0, pathEnd(c.request.url)))
  return path.split('/').some((s) => s.length > limit)
}

/**
 * The 405 of a routing table: every method Enclave's `Allow` names is one Fastify 3 serves on
 * that path (asked as Enclave reads it), unless a parameter is longer than `maxParamLength`
 * (README: a 414 here, a 404 there, for the allowed method as for this one).
 */
export async function notAllowedInTable(f: Answer, c: Case, enclave: Answer, transport: Transport, replay: RewriteContext['replay']): Promise<Answer | undefined> {
  const allow = enclave.headers.allow
  if (f.statusCode !== 404 || enclave.statusCode !== 405 || allow === undefined) return undefined
  for (const method of allow.split(', ')) {
    if (method === 'HEAD' || tooLong(c)) continue
    const served = await replayAsRead(c, transport, replay, method)
    // Over h2c a stream nghttp2 reset for Fastify 3's own stale Content-Length (an onSend hook's
    // stream under an error's length: README) was served by a route all the same (head-routes 11:101).
    const resetForItsLength = transport === 'http2' && served.statusCode === -3 && /NGHTTP2_PROTOCOL_ERROR/.test(String(served.body))
    if (served.statusCode === 404 || (served.statusCode < 0 && !resetForItsLength)) return undefined
  }
  const read = asSent(rewriteOf(c)?.(c.request.url) ?? c.request.url)
  const path = read.slice(0, pathEnd(read))
  const body = { statusCode: 405, code: 'ENC_ERR_METHOD_NOT_ALLOWED', error: STATUS_CODES[405] as string, message: `Method ${c.request.method} is not allowed for ${path}; allowed: ${allow}` }
  // Headers root hooks set on Fastify 3's 404 (route-options' onRequest hook) are set on the 405 too.
  const { 'content-type': _type, 'content-length': _length, ...hooked } = f.headers
  const answer: Answer = { statusCode: 405, headers: { ...hooked, 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(JSON.stringify(body))), allow }, body }
  return c.request.method === 'HEAD' ? { ...answer, body: '' } : answer
}

/** `/:a-:b` or `/:name.:ext`: the two names and the separator of each such segment of a route path. */
function twoParamSegments(routerPath: string): Array<[string, string, string]> {
  const out: Array<[string, string, string]> = []
  for (const segment of routerPath.split('/')) {
    const m = /^:(\w+)([^\w:])?:(\w+)$/.exec(segment)
    if (m !== null && m[2] !== undefined) out.push([m[1] as string, m[2], m[3] as string])
  }
  return out
}

export const URLS_DIFFERENCES: KnownDifference[] = [
  {
    id: 'router-reads-escapes-semicolons-fragments',
    readme: 'URLs are matched by find-my-way 9 (Fastify 5\'s router), not Fastify 3\'s find-my-way 4',
    async rewrite(_f, { c, transport, replay }) {
      if (!inUrls(c) || asRouterReads(c.request.url) === c.request.url || !firstTime(c, transport)) return undefined
      return await replayAsRead(c, transport, replay)
    },
  },
  {
    id: 'two-params-split-at-last',
    readme: 'two parameters in one segment split at the last separator',
    rewrite(f, { c }) {
      const echo = echoOf(f)
      if (!inUrls(c) || echo === undefined || typeof echo.routerPath !== 'string') return undefined
      const params = { ...(echo.params as Record<string, string>) }
      let changed = false
      for (const [a, sep, b] of twoParamSegments(echo.routerPath)) {
        if (typeof params[a] !== 'string' || typeof params[b] !== 'string') continue
        const joined = `${params[a]}${sep}${params[b]}`
        const at = joined.lastIndexOf(sep)
        if (joined.slice(0, at) === params[a]) continue
        params[a] = joined.slice(0, at)
        params[b] = joined.slice(at + 1)
        changed = true
      }
      return changed ? withBody(f, { ...echo, params }) : undefined
    },
  },
  {
    id: 'unrouted-method-bad-url-not-found',
    readme: 'and so is an undecodable path under a method no route\n    has',
    rewrite(f, { c, enclave }) {
      // Enclave's not-found handler answers it (the built-in one or the app's), Fastify 3's fallback.
      if (!inUrls(c) || !isFallback404(f) || enclave.statusCode !== 404 || !undecodable(c.request.url)) return undefined
      return enclave
    },
  },
  {
    id: 'client-error-malformed',
    readme: 'A request Node cannot parse (a garbled request line or header) answers 400\n  `ENC_ERR_REQUEST_MALFORMED` in the JSON shape',
    rewrite(f, { transport, enclave }) {
      const b = f.body as Record<string, unknown> | null
      const e = enclave.body as Record<string, unknown> | null
      if (transport !== 'http' || f.statusCode !== 400 || b?.message !== 'Client Error' || e?.code !== 'ENC_ERR_REQUEST_MALFORMED') return undefined
      const body = { statusCode: 400, code: 'ENC_ERR_REQUEST_MALFORMED', error: 'Bad Request', message: 'Bad Request' }
      return { statusCode: 400, headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(JSON.stringify(body))) }, body }
    },
  },
  {
    id: 'unknown-method-not-found-handler',
    readme: 'a method Node knows but the router does not (`PROPFIND`, `MKCOL`) is a 404 through the\n    not-found handler and its hooks',
    async rewrite(f, { c, enclave, transport, replay }) {
      // Fastify 3 asked with a method no route of the table has (PATCH): its not-found handler's
      // answer, read with the method sent. (A known path's 405 is the entry above.)
      if (!inUrls(c) || c.request.method !== 'PROPFIND' || !isFallback404(f) || enclave.statusCode !== 404 || undecodable(c.request.url)) return undefined
      const asked = await replayAsRead({ ...c, request: { ...c.request, method: 'PATCH' } }, transport, replay)
      const text = JSON.stringify(asked.body)
      if (typeof asked.body !== 'object' || asked.body === null) return undefined
      return withBody(asked, JSON.parse(text.replace('"message":"Route PATCH:', '"message":"Route PROPFIND:').replace('"method":"PATCH"', '"method":"PROPFIND"')))
    },
  },
  {
    id: 'query-too-many-keys',
    readme: 'A query string with more than `maxQueryKeys`\n  (1000) keys answers 414 (`ENC_ERR_QUERY_TOO_MANY_KEYS`)',
    rewrite(f, { c, enclave }) {
      const query = c.request.url.split('?')[1]?.split('#')[0] ?? ''
      const keys = new Set(query.split('&').filter(Boolean).map((pair) => pair.split('=')[0]))
      const code = (enclave.body as { code?: unknown } | null)?.code
      // Fastify 3 kept the first 1000 (its answer is what the route made of them); Enclave refuses the request.
      // (A HEAD answer has no body to show its code.) The check comes before routing: an unknown path's 404 too.
      const coded = code === 'ENC_ERR_QUERY_TOO_MANY_KEYS' || (c.request.method === 'HEAD' && enclave.body === '')
      if (!inUrls(c) || keys.size <= 1000 || enclave.statusCode !== 414 || !coded || f.statusCode === 414) return undefined
      return enclave
    },
  },
  {
    id: 'bad-url-400',
    readme: 'An undecodable path (`/u/%zz`, `/u/%C3`) answers 400 `ENC_ERR_BAD_URL`',
    async rewrite(f, { c, enclave, transport, replay }) {
      // A HEAD answer has no body to read the message from: the GET's tells.
      const head = c.request.method === 'HEAD' && f.body === ''
      const read = head ? await replay({ ...c.request, method: 'GET' }) : f
      const b = read.body as { message?: unknown; code?: unknown } | null
      if (f.statusCode !== 400 || read.statusCode !== 400 || b === null || typeof b !== 'object' || b.code !== undefined || !/ is not a valid url component$/.test(String(b.message))) return undefined
      // The URL Enclave names: the request's (inject() leaves a fragment out, and a bare `?` is no query).
      const named = head ? (transport === 'inject' ? injected(c.request.url) : c.request.url) : String(/^'(.*)' is not a valid URL$/.exec(String((enclave.body as { message?: unknown } | null)?.message ?? ''))?.[1])
      if (![c.request.url, c.request.url.split('#')[0], injected(c.request.url)].includes(named)) return undefined
      const body = { statusCode: 400, code: 'ENC_ERR_BAD_URL', error: 'Bad Request', message: `'${named}' is not a valid URL` }
      const answer: Answer = { statusCode: 400, headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(JSON.stringify(body))) }, body }
      return head ? { ...answer, body: '' } : answer
    },
  },
]
