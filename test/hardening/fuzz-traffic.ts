/**
 * Generated hostile traffic for the feature fuzz: each seed gives one connection's worth of
 * bytes. A session pipelines one to four requests, each built from a valid request to a route of
 * fuzz-app.ts (sample, schemas, multipart, formbody, cookies, stream, websocket, CORS,
 * rate-limit, guarded, constrained, rethrowing) and then mutated: the request line (methods,
 * absolute-form, %-encodings invalid and overlong, NUL, dot segments, very long targets,
 * versions), headers (invalid bytes, obs-fold, bare LF, duplicated framing headers, huge counts
 * and sizes), bodies (truncated, extra bytes, malformed chunked coding, JSON edge cases). The
 * last request of a session whose framing stays ours is a probe (`GET /fz/seq/<n>`) that proves
 * the connection is still in sync. Delivery: whole, fragmented, slow (bounded) or cut early.
 */
import { FUZZ_KEY } from './fuzz-app'
import { int, pick, mulberry32, type Random } from './fuzz-inputs'

export interface FuzzRequest {
  method: string
  path: string
  bytes: Buffer
  /** Our framing is unambiguous and HTTP/1.1 keeps the connection: the next request must be answered. */
  framed: boolean
  /** The request is whole: the server must answer it or close (its timeouts bound the wait). */
  complete: boolean
  /** GET /fz/seq/<probe>: its answer must be exactly { seq: "<probe>" }. */
  probe?: number
  upgrade?: boolean
}

export type Delivery = 'whole' | 'fragments' | 'slow' | 'cut' | 'half-close'

export interface FuzzSession { seed: number; requests: FuzzRequest[]; delivery: Delivery; bytes: Buffer; cutAt: number; wsFrames: Buffer[] }

const chance = (r: Random, p: number): boolean => r() < p
const TOKEN = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
const TOKEN_RE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
const ch = (codes: number[]): string => String.fromCharCode(...codes)

export interface Template { method: string; path: string; headers: Array<[string, string]>; body?: { type: string; text: string } | { type: string; raw: Buffer } }

const JSON_EDGES = [
  '{"name":"a","__proto__":{"admin":true}}', '{"name":"a","constructor":{"prototype":{"x":1}}}', '{"name":"\\ud800"}', '{"name":"\\udc00\\ud800"}',
  '\ufeff{"name":"bom"}', '{"name":"a","price":1e400}', '{"name":"a","price":-0}', '{"name":"a","qty":1.0}', '{"name":"a","qty":9007199254740993}',
  '{"name":"a","price":0.1e-400}', '{"name":"a","name":"b"}', '{"name":"a",}', '{"name":"a"', '{"name":"\u0000"}', '{"name":"a"} trailing',
  'null', '[]', '"str"', '1', '', ' ', '{"name":' + '9'.repeat(5000) + '}', '{"name":"a","meta":{"k":{"x":1}}}', '{"name":"a","tags":[' + '"t",'.repeat(2000) + '"t"]}',
]
const deep = (r: Random): string => { const n = pick(r, [100, 1000, 10_000]); return chance(r, 0.5) ? '['.repeat(n) + ']'.repeat(n) : '{"a":'.repeat(n) + '1' + '}'.repeat(n) }

function json(r: Random, valid: string): string {
  const roll = int(r, 10)
  if (roll < 5) return valid
  if (roll < 8) return pick(r, JSON_EDGES)
  if (roll < 9) return deep(r)
  return valid.slice(0, int(r, valid.length))
}

function multipartBody(r: Random): { type: string; raw: Buffer } {
  const boundary = pick(r, ['fz', 'x'.repeat(70), '----WebKitFormBoundary7MA4YWxkTrZu0gW', 'a"b'])
  const size = pick(r, [4, 100, 3000])
  const file = `--${boundary}\r\nContent-Disposition: form-data; name="doc"; filename="${pick(r, ['a.txt', '../../etc/passwd', '', 'é.txt', 'a\u0000b'])}"\r\nContent-Type: text/plain\r\n\r\n${'f'.repeat(size)}\r\n`
  const field = `--${boundary}\r\nContent-Disposition: form-data; name="${pick(r, ['title', '__proto__', 'constructor', ''])}"\r\n\r\n${pick(r, ['notes', 'v'.repeat(300)])}\r\n`
  let text = (chance(r, 0.5) ? field : '') + (chance(r, 0.15) ? field.repeat(6) : '') + file + (chance(r, 0.1) ? file + file : '') + `--${boundary}--\r\n`
  switch (int(r, 10)) {
    case 0: text = text.slice(0, int(r, text.length)); break
    case 1: text = text.replace(`--${boundary}--`, ''); break
    case 2: text = text.replace(/Content-Disposition: [^\r]*/, pick(r, ['Content-Disposition: form-data', 'Content-Disposition: attachment; name=', 'X: y'])); break
    case 3: text = text.replace(/\r\n\r\n/, '\r\n'); break
    case 4: text = 'garbage before\r\n' + text; break
    default: break
  }
  const type = pick(r, [`multipart/form-data; boundary=${boundary}`, `multipart/form-data; boundary=${boundary}`, 'multipart/form-data', 'multipart/form-data; boundary=', `multipart/form-data; boundary="${boundary}"`, `multipart/mixed; boundary=${boundary}`])
  return { type, raw: Buffer.from(text, 'latin1') }
}

export function template(r: Random): Template {
  const tenant: Array<[string, string]> = [['X-Tenant', pick(r, ['acme', 'acme', 'ACME', '', 'a'.repeat(9), 'é'])]]
  switch (int(r, 22)) {
    case 0: return { method: 'GET', path: '/one', headers: [['Authorization', pick(r, [`Bearer ${FUZZ_KEY}`, 'Bearer nope', 'Bearer', 'Basic x', `bearer ${FUZZ_KEY}`, `Bearer ${FUZZ_KEY} x`])]] }
    case 1: return { method: 'GET', path: pick(r, ['/two', '/three', '/openapi.json']), headers: [] }
    case 2: return { method: 'GET', path: pick(r, ['/items?limit=2&tags=a&tags=b', '/items?limit=x', '/items?offset=-1', '/items/1', '/items/0', '/items/abc', '/items/99999999999999999999']), headers: [] }
    case 3: return { method: 'POST', path: pick(r, ['/items', '/items/check']), headers: [], body: { type: 'application/json', text: json(r, '{"name":"pen","price":2,"tags":["a"]}') } }
    case 4: return { method: 'POST', path: '/orders', headers: [], body: { type: 'application/json', text: json(r, pick(r, ['{"itemId":1,"quantity":2}', '{"itemId":1,"quantity":500}', '{"itemId":999,"quantity":1}'])) } }
    case 5: case 6: return { method: 'POST', path: `/fz/items/${pick(r, ['1', '0', 'x', '1000001', '1.5', '%31'])}?${pick(r, ['n=1', 'n=1000', 'tags=a&tags=b', 'tags=' + 'a'.repeat(11), 'flag=maybe', ''])}`, headers: [...tenant, ...(chance(r, 0.2) ? [['X-N', pick(r, ['1', 'x', '1e400'])] as [string, string]] : [])], body: { type: pick(r, ['application/json', 'application/json; charset=utf-8', 'application/json; charset=latin1', 'APPLICATION/JSON', 'text/plain']), text: json(r, '{"name":"pen","price":1,"meta":{"k":"v"}}') } }
    case 7: return { method: 'GET', path: `/fz/items/${pick(r, ['7', '-1', 'NaN'])}?${pick(r, ['n=2', 'n=x', 'flag=true', 'tags=a&tags=b&tags=c&tags=d&tags=e'])}`, headers: [] }
    case 8: return { method: 'PUT', path: '/fz/raw', headers: [], body: { type: pick(r, ['application/json', 'text/plain', 'application/octet-stream', 'application/x-unknown', 'text/plain; charset=utf-16']), text: json(r, '{"a":1}') } }
    case 9: return { method: 'POST', path: '/fz/form', headers: [], body: { type: 'application/x-www-form-urlencoded', text: pick(r, ['a=x&b=2', 'a=%zz', 'a=%E0%A4%A', 'b=notint', '__proto__[x]=1', 'a=' + 'x'.repeat(30), '&&&', 'a&a&a', 'a=1&a=2', '%00=%00']) } }
    case 10: return { method: 'POST', path: '/fz/upload', headers: [], body: multipartBody(r) }
    case 11: return { method: 'GET', path: '/fz/cookie', headers: [['Cookie', pick(r, ['a=1; b=2', 'a=%E0%A4%A', 'a="quoted"', '=novalue', ';;;', 'a=1; a=2', 'seen=s%3A1.bad', '__proto__=x', 'x'.repeat(5000) + '=1', 'a=\u00e9', 'a'])]] }
    case 12: return { method: 'GET', path: `/fz/stream?n=${pick(r, ['1', '5', '20', '100', 'x'])}`, headers: [] }
    case 13: return { method: 'GET', path: '/fz/v', headers: chance(r, 0.8) ? [['Accept-Version', pick(r, ['1.2.0', '1.x', '2', '*', '3.0.0', 'x.y', '1.2.0.0', '', '99999999999999999999.0.0'])]] : [] }
    case 14: return { method: 'GET', path: '/fz/host', headers: [] }
    case 15: return { method: 'OPTIONS', path: pick(r, ['/fz/items/1', '/two', '/nope']), headers: [['Origin', pick(r, ['https://app.example', 'https://evil.example', 'https://x.trusted.example', 'null', '', '\u00e9'])], ['Access-Control-Request-Method', pick(r, ['POST', 'GET', 'BREW', ''])], ...(chance(r, 0.5) ? [['Access-Control-Request-Headers', pick(r, ['x-tenant', 'content-type, x-tenant', ','.repeat(50)])] as [string, string]] : [])] }
    case 16: return { method: 'GET', path: '/fz/limited/hit', headers: [['X-Client', pick(r, ['c1', 'c2', 'c3'])]] }
    case 17: return { method: pick(r, ['GET', 'POST']), path: pick(r, ['/fz/auth/me', '/fz/auth/echo']), headers: [['Authorization', pick(r, ['Token ok', 'Token no', ''])]], body: chance(r, 0.5) ? { type: 'application/json', text: json(r, '{"a":1}') } : undefined }
    case 18: return { method: pick(r, ['GET', 'POST']), path: pick(r, ['/fz/rethrow/boom', '/fz/rethrow/bad', '/fz/rethrow/json', '/fz/rethrow/nope']), headers: [], body: chance(r, 0.6) ? { type: 'application/json', text: json(r, '{"a":1}') } : undefined }
    case 19: return { method: 'GET', path: '/fz/slow', headers: [] }
    case 20: return { method: pick(r, ['HEAD', 'DELETE', 'PATCH', 'TRACE']), path: pick(r, ['/two', '/fz/items/1', '/fz/stream', '/nope']), headers: [] }
    default: return { method: 'GET', path: pick(r, ['/nope', '/fz', '/fz/', '/items/', '//two', '/two/']), headers: [] }
  }
}

function mutateTarget(r: Random, t: string): string {
  return pick(r, [
    () => 'http://localhost' + t,
    () => 'http://' + pick(r, ['api.example', 'evil', 'localhost:1', '[::1]', 'a@b']) + t,
    () => t + pick(r, ['%', '%zz', '%00', '%2F', '%C0%AF', '%E0%80%AF', '%ED%A0%80', '%E2%82', '%FF', '%F4%90%80%80']),
    () => t.replace(/\//g, pick(r, ['//', '/./', '/../', '/%2E/', '/%2e%2e/'])),
    () => '/..' + t,
    () => t + pick(r, ['/..', '/.', ';x=1', '#frag', '?', '??', '?&&==&', '?a[b][c]=1']),
    () => t + '\u0000',
    () => t + '/' + 'a'.repeat(pick(r, [3000, 70_000])),
    () => t + '?' + Array.from({ length: 2000 }, (_, i) => `k${i}=v`).join('&'),
    () => pick(r, ['*', '', 'two', 'localhost:80', '\\two', '/\u00e9', '/%u0041']),
  ])()
}

function mutateHeaders(r: Random, headers: Array<[string, string]>): { headers: Array<[string, string]>; framing: boolean } {
  const roll = int(r, 14)
  switch (roll) {
    case 0: headers.push([pick(r, ['X Bad', 'X:Bad', 'X\u0000', 'X\u00e9', '', '(x)']), 'v']); return { headers, framing: true }
    case 1: headers.push(['X-Val', pick(r, ['a\u0000b', 'a\rb', 'a\u007fb', '\u00e9\u00ff', ' lead', 'trail '])]); return { headers, framing: true }
    case 2: headers.push(['X-Fold', 'a\r\n b']); return { headers, framing: true }
    case 3: headers.push(['Host', pick(r, ['localhost', 'other', 'api.example'])]); return { headers, framing: true }
    case 4: headers.push(['Content-Type', pick(r, ['text/plain', 'application/json'])]); return { headers, framing: true }
    case 5: for (let i = 0; i < pick(r, [50, 200, 2500]); i++) headers.push([`X-H${i}`, 'v']); return { headers, framing: true }
    case 6: headers.push(['X-Big', 'v'.repeat(pick(r, [8_000, 20_000, 90_000]))]); return { headers, framing: true }
    case 7: headers.push(['Connection', pick(r, ['close', 'keep-alive', 'upgrade', 'x, close'])]); return { headers, framing: true }
    case 8: headers.push(['Expect', pick(r, ['100-continue', 'nope'])]); return { headers, framing: true }
    case 9: headers.push(['Content-Encoding', pick(r, ['gzip', 'br', 'identity'])]); return { headers, framing: true }
    case 10: headers.push(['Origin', pick(r, ['https://app.example', 'https://evil.example'])]); return { headers, framing: false }
    case 11: headers.push(['Authorization', pick(r, ['Token ok', `Bearer ${FUZZ_KEY}`])]); return { headers, framing: false }
    default: headers.push(['X-' + Array.from({ length: 1 + int(r, 8) }, () => TOKEN[int(r, TOKEN.length)]).join(''), ch(Array.from({ length: int(r, 10) }, () => 32 + int(r, 95)))]); return { headers, framing: !TOKEN_RE.test(headers[headers.length - 1][0]) }
  }
}

function chunked(r: Random, bytes: Buffer, malformed: boolean): Buffer {
  const parts: Buffer[] = []
  for (let i = 0; i < bytes.length;) {
    const n = Math.min(bytes.length - i, 1 + int(r, chance(r, 0.5) ? 8 : 1024))
    parts.push(Buffer.from(`${n.toString(16)}${chance(r, 0.05) ? ';ext="v"' : ''}\r\n`), bytes.subarray(i, i + n), Buffer.from('\r\n'))
    i += n
  }
  if (malformed) {
    const bad = pick(r, ['zz\r\nab\r\n', 'ffffffffffffffff\r\n', '-1\r\n', '3\r\nabcdef\r\n', '3\nabc\n', '2\r\nab', '1 \r\na\r\n', '0x2\r\nab\r\n', '+2\r\nab\r\n', '2;' + 'e'.repeat(20_000) + '\r\nab\r\n'])
    parts.splice(int(r, parts.length + 1), 0, Buffer.from(bad))
  }
  parts.push(Buffer.from(chance(r, 0.1) ? pick(r, ['0\r\nX-Trailer: 1\r\n\r\n', '0\r\n\r\n\r\n', '0\r\nbad trailer\r\n\r\n']) : '0\r\n\r\n'))
  return Buffer.concat(parts)
}

function build(r: Random): FuzzRequest {
  const t = template(r)
  let method = t.method
  let target = t.path
  let version = 'HTTP/1.1'
  let framed = true
  let complete = true
  const headers: Array<[string, string]> = [['Host', 'localhost'], ...t.headers]
  let eol = '\r\n'
  if (chance(r, 0.1)) { method = pick(r, ['get', 'G ET', 'PROPFIND', 'CONNECT', 'BREW', 'M-SEARCH', '', 'GET\u0000', 'QUERY', 'X'.repeat(200)]); framed = framed && /^[A-Z-]+$/.test(method) && method !== 'CONNECT' }
  if (chance(r, 0.2)) { target = mutateTarget(r, target); framed = framed && /^(\/|http:\/\/)[\x21-\x5b\x5d-\x7e]*$/.test(target) && target.length < 60_000 }
  if (chance(r, 0.07)) { version = pick(r, ['HTTP/1.0', 'HTTP/1.2', 'HTTP/2.0', 'HTTP/0.9', 'http/1.1', 'HTTP/1.1 ', 'HTTP/11', '']); framed = false }
  if (chance(r, 0.04)) { headers.shift(); framed = false }
  if (chance(r, 0.3)) { const m = mutateHeaders(r, headers); if (m.framing) framed = false }
  if (chance(r, 0.02)) { eol = '\n'; framed = false }
  let payload: Buffer = Buffer.alloc(0)
  if (t.body !== undefined) {
    const bytes = 'raw' in t.body ? t.body.raw : Buffer.from(t.body.text, 'utf8')
    headers.push(['Content-Type', t.body.type])
    const framing = int(r, 30)
    if (framing === 0) { headers.push(['Content-Length', String(bytes.length + 5)]); payload = bytes; framed = false; complete = false }
    else if (framing === 1) { headers.push(['Content-Length', String(Math.max(0, bytes.length - 3))]); payload = bytes; framed = false }
    else if (framing === 2) { headers.push(['Content-Length', pick(r, ['-1', '1e3', '0x10', ' 5', '+5', `${bytes.length}, ${bytes.length}`, '99999999999999999999'])]); payload = bytes; framed = false }
    else if (framing === 3) { headers.push(['Content-Length', String(bytes.length)], ['Content-Length', String(bytes.length + int(r, 2))]); payload = bytes; framed = false }
    else if (framing === 4) { headers.push(['Transfer-Encoding', 'chunked'], ['Content-Length', String(bytes.length)]); payload = chunked(r, bytes, false); framed = false }
    else if (framing === 5) { headers.push(['Transfer-Encoding', pick(r, ['gzip, chunked', 'chunked, identity', 'xchunked', 'chunked\u000b'])]); payload = chunked(r, bytes, false); framed = false }
    else if (framing === 6) { headers.push(['Transfer-Encoding', 'chunked'], ['Transfer-Encoding', pick(r, ['chunked', 'identity'])]); payload = chunked(r, bytes, false); framed = false }
    else if (framing === 7) { headers.push(['Transfer-Encoding', 'chunked']); payload = chunked(r, bytes, true); framed = false }
    else if (framing < 14) { headers.push(['Transfer-Encoding', 'chunked']); payload = chunked(r, bytes, false) }
    else { headers.push(['Content-Length', String(bytes.length)]); payload = bytes }
    if (chance(r, 0.04)) { payload = Buffer.concat([payload, Buffer.from('EXTRA')]); framed = false }
  } else if (chance(r, 0.03)) {
    headers.push(['Content-Length', pick(r, ['0', '3'])]); payload = Buffer.from('abc'); framed = false
  }
  const head = `${method} ${target} ${version}${eol}${headers.map(([k, v]) => `${k}: ${v}${eol}`).join('')}${eol}`
  return { method, path: t.path, bytes: Buffer.concat([Buffer.from(head, 'latin1'), payload]), framed, complete }
}

function upgrade(r: Random): { request: FuzzRequest; frames: Buffer[] } {
  const headers: Array<[string, string]> = [['Host', 'localhost'], ['Upgrade', pick(r, ['websocket', 'websocket', 'WebSocket', 'h2c', 'x'])], ['Connection', pick(r, ['Upgrade', 'Upgrade', 'keep-alive, Upgrade', 'close'])],
    ['Sec-WebSocket-Key', pick(r, ['dGhlIHNhbXBsZSBub25jZQ==', 'dGhlIHNhbXBsZSBub25jZQ==', 'short', '', '!!!!'])], ['Sec-WebSocket-Version', pick(r, ['13', '13', '8', 'x', ''])]]
  if (chance(r, 0.2)) headers.push(['Sec-WebSocket-Extensions', pick(r, ['permessage-deflate; client_max_window_bits', 'permessage-deflate; server_max_window_bits=99', 'x; ;'])])
  if (chance(r, 0.1)) headers.push(['Origin', 'https://evil.example'])
  const path = pick(r, ['/fz/ws', '/fz/ws', '/fz/ws?x=%zz', '/two', '/nope'])
  const head = `GET ${path} HTTP/1.1\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`
  const mask = Buffer.from([1, 2, 3, 4])
  const masked = (op: number, payload: Buffer, length = payload.length): Buffer => Buffer.concat([Buffer.from([0x80 | op, 0x80 | Math.min(length, 125)]), mask, Buffer.from(payload.map((b, i) => b ^ mask[i % 4]))])
  const frames = Array.from({ length: int(r, 4) }, () => pick(r, [
    () => masked(1, Buffer.from('hello')),
    () => Buffer.from([0x81, 0x05, 0x68, 0x65, 0x6c, 0x6c, 0x6f]), // unmasked: a protocol error from a client
    () => Buffer.concat([Buffer.from([0x82, 0xff]), Buffer.alloc(8, 0xff), mask]), // a 2^64-ish length
    () => masked(1, Buffer.from([0xff, 0xfe])), // invalid UTF-8 text
    () => masked(9, Buffer.from('p')),
    () => masked(8, Buffer.from([0x03, 0xe8])),
    () => Buffer.from([0x8f, 0x80, 1, 2, 3, 4]), // reserved opcode
    () => Buffer.concat([Buffer.from([0x82, 0xfe, 0x20, 0x00]), mask, Buffer.alloc(8192)]), // over maxPayload
  ])())
  return { request: { method: 'GET', path, bytes: Buffer.from(head, 'latin1'), framed: false, complete: true, upgrade: true }, frames }
}

/** The session of `seed`: the same bytes on every run. */
export function fuzzSession(seed: number): FuzzSession {
  const r = mulberry32(seed)
  const requests: FuzzRequest[] = []
  let wsFrames: Buffer[] = []
  if (chance(r, 0.06)) {
    const u = upgrade(r)
    requests.push(u.request)
    wsFrames = u.frames
  } else {
    const count = 1 + (chance(r, 0.4) ? int(r, 3) : 0)
    for (let i = 0; i < count; i++) {
      const request = build(r)
      requests.push(request)
      if (!request.framed) break
    }
    const last = requests[requests.length - 1]
    if (last.framed && chance(r, 0.85)) {
      const probe = seed % 100_000
      requests.push({ method: 'GET', path: `/fz/seq/${probe}`, bytes: Buffer.from(`GET /fz/seq/${probe} HTTP/1.1\r\nHost: localhost\r\n\r\n`), framed: true, complete: true, probe })
    }
  }
  const bytes = Buffer.concat(requests.map((q) => q.bytes))
  const delivery: Delivery = pick(r, ['whole', 'whole', 'whole', 'whole', 'fragments', 'fragments', 'slow', 'cut', 'half-close'])
  return { seed, requests, delivery, bytes, cutAt: delivery === 'cut' ? 1 + int(r, Math.max(1, bytes.length - 1)) : bytes.length, wsFrames }
}
