// The `content-types` family: content-type parsers as apps declare them beyond what `bodies`
// draws: RegExp and array types, stream parsers (no `parseAs`, callback and async), parsers that
// throw, reject or call done(err) with and without a status, a catch-all taking buffers, parsers
// declared in a child scope (the JSON parser replaced there after removeContentTypeParser, or all
// removed with removeAllContentTypeParsers and a catch-all added) beside a root route that keeps
// the root's, hasContentTypeParser read by the handler, and preParsing hooks that replace or
// transform the payload stream. Requests carry the types these match and miss (case, parameters,
// `+json` suffixes, leading whitespace, none) on every method that parses.
import { Readable, Transform } from 'node:stream'
import type { Handler, RequestSpec, RouteSpec } from './case'
import type { Random } from './random'

type Any = any // eslint-disable-line @typescript-eslint/no-explicit-any
type Done = (error: Error | null, value?: unknown) => void

export interface ContentTypesDrawn {
  route: RouteSpec
  request: RequestSpec
  note: string
}

function statusError(message: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), extra)
}

function readAll(payload: Any, done: (error: Error | null, text?: string) => void): void {
  let text = ''
  payload.setEncoding?.('utf8')
  payload.on('data', (chunk: string | Buffer) => { text += String(chunk) })
  payload.on('end', () => done(null, text))
  payload.on('error', (error: Error) => done(error))
}

const IMAGE = /^image\/.*/
const VND_JSON = /^application\/vnd\.x\+json/

/** Parsers declared on a scope (the root or the child), in the drawn order. */
const PARSERS: Array<[string, (scope: Any) => void]> = [
  ['regexp image buffer', (s) => s.addContentTypeParser(IMAGE, { parseAs: 'buffer' }, (_q: Any, body: Buffer, done: Done) => { done(null, { image: body.length }) })],
  ['regexp vnd+json string', (s) => s.addContentTypeParser(VND_JSON, { parseAs: 'string' }, (_q: Any, body: string, done: Done) => { try { done(null, { vnd: JSON.parse(body) }) } catch (error) { done(Object.assign(error as Error, { statusCode: 400 })) } })],
  ['array csv/tsv', (s) => s.addContentTypeParser(['text/csv', 'text/tab-separated-values'], { parseAs: 'string' }, (_q: Any, body: string, done: Done) => { done(null, { rows: body.split(/[,\t]/) }) })],
  ['stream callback', (s) => s.addContentTypeParser('application/x-stream', (_q: Any, payload: Any, done: Done) => { readAll(payload, (error, text) => { if (error !== null) done(error); else done(null, { streamed: text }) }) })],
  ['stream async', (s) => s.addContentTypeParser('application/x-async-stream', async (_q: Any, payload: Any) => { let text = ''; for await (const chunk of payload) text += String(chunk); return { streamedAsync: text } })],
  ['done(err) no status', (s) => s.addContentTypeParser('application/x-fail', { parseAs: 'string' }, (_q: Any, _body: string, done: Done) => { done(statusError('parser failed')) })],
  ['done(err) 422 code', (s) => s.addContentTypeParser('application/x-reject', { parseAs: 'string' }, (_q: Any, _body: string, done: Done) => { done(statusError('not acceptable body', { statusCode: 422, code: 'E_BODY' })) })],
  ['async rejects', (s) => s.addContentTypeParser('application/x-async-fail', { parseAs: 'string' }, async () => { throw statusError('async parser failed') })],
  ['async rejects 400', (s) => s.addContentTypeParser('application/x-async-bad', { parseAs: 'buffer' }, async () => { throw statusError('bad bytes', { statusCode: 400 }) })],
  ['catch-all buffer', (s) => s.addContentTypeParser('*', { parseAs: 'buffer' }, (request: Any, body: Buffer, done: Done) => { done(null, { any: body.toString('hex'), type: request.headers['content-type'] ?? null }) })],
]

/** How the child scope treats the parsers it inherits before declaring its own. */
const CHILD_SCOPES: Array<[string, (child: Any) => void]> = [
  ['child keeps root parsers', () => undefined],
  ['child replaces JSON', (child) => {
    child.removeContentTypeParser('application/json')
    child.addContentTypeParser('application/json', { parseAs: 'string' }, (_q: Any, body: string, done: Done) => { done(null, { childJson: body }) })
  }],
  ['child removes all, adds *', (child) => {
    child.removeAllContentTypeParsers()
    child.addContentTypeParser('*', { parseAs: 'string' }, (_q: Any, body: string, done: Done) => { done(null, { childAny: body }) })
  }],
  ['child removes all', (child) => { child.removeAllContentTypeParsers() }],
]

const HAS_TYPES = ['application/json', 'text/plain', 'text/csv', 'image/png', '*', 'application/x-stream']

/** The handler: the body as parsed, and what the scope says it can parse. */
function echoWith(scope: () => Any, tag: string): Handler {
  return (request) => {
    const body = request.body
    const has = Object.fromEntries(HAS_TYPES.map((type) => [type, scope()?.hasContentTypeParser(type) ?? null]))
    return { tag, body: Buffer.isBuffer(body) ? { buffer: body.toString('hex') } : body ?? null, has }
  }
}

/**
 * A replacement stream as Fastify 3 asks a decompressing hook to write it: its
 * `receivedEncodedLength` is the request's Content-Length, so that Fastify 3 does not compare the
 * replaced bytes with it. Only on Fastify 3's replays once the README rule asked for it
 * (content-types-differences.ts): a flag rather than a header, so that every later replay of the
 * case (another rule's, with another Content-Type) declares it too. run.ts clears it per case.
 */
export const declaredLength = { on: false }

/**
 * Fastify 3.27.4's child scopes lose their ancestors' RegExp parsers (README): on Fastify 3's
 * replays once that rule asked for it, the child declares the root's RegExp parsers again (after
 * removing them: Fastify 3 still lists them by name). run.ts clears it per case.
 */
export const regexpInChild = { on: false }

function declared(request: Any, stream: Any): Any {
  if (declaredLength.on) stream.receivedEncodedLength = Number(request.headers['content-length'] ?? 0)
  return stream
}

function upperAscii(bytes: Buffer): Buffer {
  return Buffer.from(bytes.map((b) => (b >= 0x61 && b <= 0x7a ? b - 0x20 : b)))
}

const HOOKS: Array<[string, Record<string, unknown>]> = [
  ['preParsing replaces stream (async)', { preParsing: async (request: Any) => declared(request, Readable.from([Buffer.from('{"replaced":true}')])) }],
  ['preParsing replaces stream (done)', { preParsing: (request: Any, _r: Any, _payload: Any, done: (e: Error | null, s?: unknown) => void) => { done(null, declared(request, Readable.from([Buffer.from('a,b')]))) } }],
  // Byte for byte (ASCII letters only), so that the bytes stay as many and any other byte as sent.
  ['preParsing upper-cases', { preParsing: async (request: Any, _r: Any, payload: Any) => declared(request, payload.pipe(new Transform({ transform(chunk: Buffer, _e, cb) { cb(null, upperAscii(chunk)) } }))) }],
]

/** Whether a RegExp parser the case declares (in either scope) takes this Content-Type (tested without its parameters, as sent). */
export function regexpTakes(c: { family: string; summary: string }, type: string): boolean {
  if (c.family !== 'content-types') return false
  const essence = type.split(';')[0] as string
  return (/regexp image/.test(c.summary) && IMAGE.test(essence)) || (/regexp vnd/.test(c.summary) && VND_JSON.test(essence))
}

/** The body a parser reads in a case: the payload, or what the drawn preParsing hook put in its place (known-differences.ts). */
export function bodyParsed(c: { family: string; summary: string; request: RequestSpec }): string | Buffer | undefined {
  const payload = c.request.payload
  if (c.family !== 'content-types') return payload
  if (/preParsing replaces stream \(async\)/.test(c.summary)) return '{"replaced":true}'
  if (/preParsing replaces stream \(done\)/.test(c.summary)) return 'a,b'
  if (/preParsing upper-cases/.test(c.summary) && payload !== undefined) return upperAscii(Buffer.from(payload))
  return payload
}

const TYPES = [
  'application/json', 'application/json; charset=utf-8', 'image/png', 'IMAGE/PNG', 'image/svg+xml; charset=utf-8', 'application/vnd.x+json', 'application/vnd.x+json; charset=utf-8',
  'APPLICATION/VND.X+JSON', 'text/csv', 'text/csv; charset=utf-8', 'text/tab-separated-values', 'TEXT/CSV', 'application/x-stream', 'application/x-async-stream', 'application/x-fail',
  'application/x-reject', 'application/x-async-fail', 'application/x-async-bad', 'text/plain', ' application/json', 'application/json ', 'application/x-unknown', '',
]

const PAYLOADS: Array<string | Buffer> = ['{"a":1}', 'a,b\tc', '', '{bad', 'x', Buffer.from([0x89, 0x50, 0x4e, 0x47]), '{"a":"é"}']

export function drawContentTypesCase(r: Random): ContentTypesDrawn {
  const notes: string[] = []
  const parsers = r.some(PARSERS, 3)
  const inChild = r.chance(0.5)
  const [childName, childScope] = r.pick(CHILD_SCOPES)
  notes.push(`parsers (${inChild ? 'child' : 'root'}): ${parsers.map(([name]) => name).join(', ') || 'none'}`)
  if (inChild) notes.push(childName)
  const hook = r.chance(0.25) ? r.pick(HOOKS) : undefined
  if (hook !== undefined) notes.push(hook[0])
  const method = r.pick(['POST', 'POST', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'GET'])
  let root: Any
  let child: Any
  const route: RouteSpec = {
    method,
    url: '/out',
    handler: echoWith(() => root, 'root'),
    options: hook?.[1] ?? {},
    setup: (app) => {
      root = app
      if (!inChild) for (const [, declare] of parsers) declare(app)
      app.register(async (scope: Any) => {
        child = scope
        if (inChild) { childScope(scope); for (const [, declare] of parsers) declare(scope) }
        if (!inChild && regexpInChild.on) {
          for (const [name, declare] of parsers) {
            if (!name.startsWith('regexp')) continue
            scope.removeContentTypeParser(name.startsWith('regexp image') ? IMAGE : VND_JSON)
            declare(scope)
          }
        }
        scope.route({ method, url: '/in', handler: echoWith(() => child, 'child'), ...(hook?.[1] ?? {}) })
      })
    },
  }
  const type = r.pick(TYPES)
  const headers: Record<string, string> = type === '' ? {} : { 'content-type': type }
  let payload = r.chance(0.1) ? undefined : r.pick(PAYLOADS)
  // No empty body beside a replacing hook: Fastify 3 reads a declared `receivedEncodedLength` of 0
  // as none (`0 || received`), so no replay could declare it (and Node's client sends
  // `Content-Length: 0` for a PUT without a body).
  if ((payload === '' || payload === undefined) && hook !== undefined && /replaces/.test(hook[0])) payload = '{"a":1}'
  const request: RequestSpec = { method, url: r.pick(['/in', '/in', '/out']), headers, ...(payload === undefined ? {} : { payload }) }
  return { route, request, note: notes.join('; ') }
}
