// The `parser-limits` family: which limit bounds a body, and which parser reads it. The server's
// `bodyLimit`, a route's `bodyLimit` and a content-type parser's own `bodyLimit` (a custom type,
// the JSON or text parser replaced with a limit, a catch-all `*`), bodies just under, at and over
// each, `parseAs` string and buffer, the default JSON and `text/plain` parsers with their charset
// and case variants, empty bodies under a JSON type, removeContentTypeParser of a default, and
// bodies sent without a Content-Length (chunked over HTTP/1). The handler echoes the body as parsed
// and its kind, so the parser that ran shows.
import type { Handler, RequestSpec, RouteSpec } from './case'
import type { Random } from './random'

type Any = any // eslint-disable-line @typescript-eslint/no-explicit-any
type Done = (error: Error | null, value?: unknown) => void

export interface ParserLimitsDrawn {
  route: RouteSpec
  request: RequestSpec
  server?: Record<string, unknown>
  note: string
}

const echoBody: Handler = (request) => {
  const body = request.body
  return { body: Buffer.isBuffer(body) ? { buffer: body.toString('hex') } : body ?? null, kind: body === undefined ? 'undefined' : body === null ? 'null' : Buffer.isBuffer(body) ? 'buffer' : typeof body }
}

/** The parsers a case declares on the root, each with the limit it was drawn with. */
type ParserKind = 'none' | 'custom-string' | 'custom-buffer' | 'json-replaced' | 'text-replaced' | 'catch-all' | 'json-removed' | 'text-removed'

const PARSERS: ParserKind[] = ['none', 'none', 'custom-string', 'custom-buffer', 'json-replaced', 'text-replaced', 'catch-all', 'json-removed', 'text-removed']

function declareParser(app: Any, kind: ParserKind, limit: number | undefined): void {
  const opts = (parseAs: 'string' | 'buffer'): Record<string, unknown> => (limit === undefined ? { parseAs } : { parseAs, bodyLimit: limit })
  switch (kind) {
    case 'none': return
    case 'custom-string': app.addContentTypeParser('application/x-lim', opts('string'), (_q: Any, body: string, done: Done) => { done(null, { custom: body }) }); return
    case 'custom-buffer': app.addContentTypeParser('application/x-lim', opts('buffer'), (_q: Any, body: Buffer, done: Done) => { done(null, { bytes: body.length }) }); return
    case 'json-replaced':
      app.removeContentTypeParser('application/json')
      app.addContentTypeParser('application/json', opts('string'), (_q: Any, body: string, done: Done) => { done(null, { json: body }) })
      return
    case 'text-replaced':
      app.removeContentTypeParser('text/plain')
      app.addContentTypeParser('text/plain', opts('buffer'), (_q: Any, body: Buffer, done: Done) => { done(null, { text: body.toString('latin1') }) })
      return
    case 'catch-all': app.addContentTypeParser('*', opts('string'), (request: Any, body: string, done: Done) => { done(null, { any: body, type: request.headers['content-type'] ?? null }) }); return
    case 'json-removed': app.removeContentTypeParser('application/json'); return
    case 'text-removed': app.removeContentTypeParser('text/plain')
  }
}

const TYPES = ['application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/json;charset=UTF-8', 'text/plain', 'text/plain; charset=utf-8', 'text/plain; charset=latin1',
  'application/x-lim', 'application/x-lim; v=1', 'application/x-other', '']

const LIMITS = [undefined, undefined, 4, 9, 16]
const SIZES = [0, 2, 4, 5, 8, 9, 10, 15, 16, 17, 30]

/** A body of exactly `size` bytes that the JSON parser takes (a number or a string), or plain text. */
function bodyOf(type: string, size: number, r: Random): string {
  if (size === 0) return ''
  if (/json/i.test(type)) return size < 3 ? '7'.repeat(size) : `"${'x'.repeat(size - 2)}"`
  // Sometimes two-byte characters: the limits count bytes, not characters.
  return r.chance(0.25) ? 'é'.repeat(Math.floor(size / 2)) + 'a'.repeat(size % 2) : 'a'.repeat(size)
}

export function drawParserLimitsCase(r: Random): ParserLimitsDrawn {
  const kind = r.pick(PARSERS)
  const parserLimit = r.pick(LIMITS)
  const routeLimit = r.pick(LIMITS)
  const serverLimit = r.pick([undefined, undefined, 6, 12])
  const type = r.pick(TYPES)
  const method = r.pick(['POST', 'POST', 'PUT', 'PATCH', 'DELETE'])
  const payload = bodyOf(type, r.pick(SIZES), r)
  const headers: Record<string, string> = type === '' ? {} : { 'content-type': type }
  if (r.chance(0.15)) headers['transfer-encoding'] = 'chunked'
  const route: RouteSpec = {
    method, url: '/l', handler: echoBody,
    ...(routeLimit === undefined ? {} : { options: { bodyLimit: routeLimit } }),
    setup: (app) => declareParser(app, kind, parserLimit),
  }
  const note = `parser ${kind}${parserLimit === undefined ? '' : ` limit ${parserLimit}`}, route limit ${routeLimit ?? '-'}, server limit ${serverLimit ?? '-'}, ${Buffer.byteLength(payload)} bytes${headers['transfer-encoding'] ? ' chunked' : ''}`
  return { route, request: { method, url: '/l', headers, payload }, ...(serverLimit === undefined ? {} : { server: { bodyLimit: serverLimit } }), note }
}

/** The `bodyLimit` a parser-limits case gave its parser, if any (the 413's named limit may be it: server-differences.ts). */
export function parserLimit(c: { family: string; summary: string }): number[] {
  const limit = c.family === 'parser-limits' ? /\(parser \S+ limit (\d+),/.exec(c.summary)?.[1] : undefined
  return limit === undefined ? [] : [Number(limit)]
}
