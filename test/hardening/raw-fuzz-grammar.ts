/**
 * A small grammar of raw HTTP/1.1 requests with mutations, for raw-fuzz.test.ts: methods (odd
 * and lowercase ones too), request-target forms, percent-encoding, header names and values from
 * every byte class, duplicated and conflicting headers, content types with parameters, almost
 * valid JSON and form bodies, deep and wide structures, huge numbers, chunked and sized framing,
 * fragmented writes. Each case is built from its own seed, so a failure names a seed that
 * replays exactly. A scaled-down port of the fuzz8 scratch fuzzer (/work/scratch/fuzz8).
 */
import { int, mulberry32, pick, type Random } from './fuzz-inputs'

export interface RawCase {
  seed: number
  method: string
  path: string
  bytes: Buffer
  /** The framing is ours and unambiguous: on a kept connection, the next request must be answered. */
  framed: boolean
  /** The request is whole: the server must answer it (else its timeouts close the connection). */
  complete: boolean
  fragments: boolean
}

const chance = (r: Random, p: number): boolean => r() < p
const TOKEN = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
function byteOf(r: Random, cls: string): string {
  switch (cls) {
    case 'token': return TOKEN[int(r, TOKEN.length)]
    case 'sep': return '()<>@,;:\\"/[]?={} \t'[int(r, 19)]
    case 'ctl': return String.fromCharCode(pick(r, [0, 1, 8, 10, 11, 13, 27, 127]))
    case 'obs': return String.fromCharCode(0x80 + int(r, 128))
    default: return String.fromCharCode(32 + int(r, 95))
  }
}
const bytesOf = (r: Random, n: number, classes: string[]): string => Array.from({ length: n }, () => byteOf(r, pick(r, classes))).join('')

const METHODS = ['GET', 'GET', 'POST', 'POST', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']
const ODD = ['get', 'Post', 'PROPFIND', 'SEARCH', 'PURGE', 'TRACE', 'CONNECT', 'BREW', 'M-SEARCH', 'G T']
const PATHS = ['/ping', '/items/1', '/items/0', '/items/abc', '/items/99999999999999999999', '/search', '/text', '/any', '/form', '/boom', '/w/a/b',
  '/rethrow/boom', '/rethrow/bad', '/rethrow/nope', '/lazy/l/3', '/nope', '/']
const BODY_PATHS = ['/items/1', '/items/2', '/text', '/any', '/form', '/lazy/l/3', '/rethrow/echo']
const HUGE = ['1e400', '-1e400', '123456789012345678901234567890', '-0', '9'.repeat(2000), '1.' + '5'.repeat(500), '1e-400']

function target(r: Random, path: string): string {
  let t = path
  if (chance(r, 0.2)) {
    t = pick(r, [
      () => t + pick(r, ['%', '%zz', '%00', '%2F', '%C0%AF', '%ED%A0%80', '%E2%82', '%FF']),
      () => t.replace(/\//g, pick(r, ['//', '/./', '/%2E/'])),
      () => t + pick(r, ['/..', '/.', '/', ';x=1', '#f', '?', '??']),
      () => t.toUpperCase(),
      () => t + '/' + 'a'.repeat(pick(r, [101, 3000])),
      () => t.replace(/\d+/, pick(r, ['1e3', '0x10', '+1', '%201', 'NaN', '9'.repeat(40)])),
      () => t + bytesOf(r, 1 + int(r, 4), ['obs', 'ctl', 'sep']),
    ])()
  }
  if (chance(r, 0.4)) {
    const keys = ['q', 'limit', 'n', 'tags', 'fmt', '__proto__', 'a[b]', '']
    const values = ['1', '0', '-1', 'true', 'json', '', '1e400', '%zz', '%E2%82', '%00', 'a+b', 'x'.repeat(200)]
    t += '?' + Array.from({ length: chance(r, 0.02) ? 1001 : int(r, 5) }, () => `${pick(r, keys)}=${pick(r, values)}`).join('&')
  }
  const form = int(r, 30)
  if (form === 0) return 'http://localhost' + t
  if (form === 1) return '*'
  if (form === 2) return t.slice(1)
  return t
}

function item(r: Random): string {
  const fields: string[] = []
  if (chance(r, 0.9)) fields.push(`"name":${pick(r, ['"pen"', '""', `"${'n'.repeat(51)}"`, '1', 'null', '"\\ud800"'])}`)
  if (chance(r, 0.9)) fields.push(`"kind":${pick(r, ['"a"', '"z"', '10', '9', '"10"', 'null', '[]', ...HUGE])}`)
  if (chance(r, 0.3)) fields.push(`"email":${pick(r, ['"a@b.co"', '"nope"', '"\\u0000"'])}`)
  if (chance(r, 0.5)) fields.push(`"price":${pick(r, ['1', '-1', '"3"', ...HUGE])}`)
  if (chance(r, 0.3)) fields.push(`"qty":${pick(r, ['1', '0', '"2"', '2.5', 'true'])}`)
  if (chance(r, 0.3)) fields.push(`"addr":${pick(r, ['{"zip":"12345"}', '{"zip":"1234"}', '{"zip":12345}', '{"zip":"12345","country":"XX"}', '{}', 'null'])}`)
  if (chance(r, 0.3)) fields.push(`"grid":[${Array.from({ length: chance(r, 0.1) ? 30 : int(r, 4) }, () => `[${Array.from({ length: int(r, 4) }, () => pick(r, ['1', '"2"', 'null', '1.5'])).join(',')}]`).join(',')}]`)
  if (chance(r, 0.2)) fields.push(`"tags":${pick(r, ['["a","b"]', '["a","a"]', '["A"]', '[1]', '"a"'])}`)
  if (chance(r, 0.1)) fields.push(`${pick(r, ['"__proto__"', '"constructor"', '"\\u005f_proto__"'])}:${pick(r, ['{"x":1}', '{"prototype":{"x":1}}'])}`)
  return `{${fields.join(',')}}`
}

function mutate(r: Random, s: string): string {
  return pick(r, [
    () => s.slice(0, int(r, s.length + 1)),
    () => { const i = int(r, s.length + 1); return s.slice(0, i) + pick(r, [',', '}', ']', '"', ':', '\\', '\u0000', '/*c*/']) + s.slice(i) },
    () => s.replace(/\d+/, pick(r, [...HUGE, '01', '+1', '.5', 'NaN', '0x10'])),
    () => '\ufeff' + s,
    () => s + pick(r, [',', 'garbage', '{}']),
    () => s + s,
  ])()
}

function body(r: Random, path: string): { type: string; text: string } {
  if (path === '/form') return { type: 'application/x-www-form-urlencoded', text: Array.from({ length: int(r, 5) }, () => `${pick(r, ['a', 'b', '__proto__', 'a[b]', '%zz'])}=${pick(r, ['1', 'x', '%zz', '%E2%82', '1e400'])}`).join('&') }
  if (path === '/text') return { type: 'text/plain', text: pick(r, ['hello', 'x'.repeat(1001), '\u00e9\ud800', '']) }
  const roll = int(r, 20)
  let text = path === '/rethrow/echo' ? pick(r, ['{"a":1}', '{"a":"x"}', '[]', 'null']) : item(r)
  if (roll === 0) { const n = pick(r, [999, 1001, 5000]); text = chance(r, 0.5) ? '['.repeat(n) + ']'.repeat(n) : '{"a":'.repeat(n) + '1' + '}'.repeat(n) }
  if (roll === 1) text = '[' + Array.from({ length: 5000 }, (_, i) => String(i)).join(',') + ']'
  if (chance(r, 0.3)) text = mutate(r, text)
  const types = ['application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/json;;', 'application/json ; a=b', 'application/problem+json',
    'application/jsonx', 'text/plain', 'text/csv', 'application/x-bin', 'application/vnd.foo+xml', 'application/x-www-form-urlencoded', '', ';', 'x', 'multipart/form-data; boundary=b']
  return { type: chance(r, 0.75) ? 'application/json' : pick(r, types), text }
}

function extraHeaders(r: Random): Array<[string, string]> {
  return Array.from({ length: int(r, 3) }, (): [string, string] => {
    switch (int(r, 12)) {
      case 0: return ['X-Tenant', pick(r, ['acme', 'ACME', 'a'.repeat(11), 'é'])]
      case 1: return ['X-N', pick(r, ['1', '101', 'x', '1e400', '1,2'])]
      case 2: return ['X-Fail-Hook', pick(r, ['onrequest', 'prehandler'])]
      case 3: return ['Accept', pick(r, ['*/*', 'application/json', 'text/html', ''])]
      case 4: return ['Content-Encoding', pick(r, ['gzip', 'identity', 'x'])]
      case 5: return ['Expect', pick(r, ['100-continue', 'x'])]
      case 6: return [bytesOf(r, 1 + int(r, 6), ['token', 'token', 'sep', 'ctl', 'obs']), bytesOf(r, int(r, 8), ['any', 'obs', 'ctl'])]
      case 7: return ['X-' + bytesOf(r, 1 + int(r, 6), ['token']), bytesOf(r, int(r, 20), ['any', 'obs'])]
      case 8: return ['Host', pick(r, ['evil', 'a b', ''])]
      case 9: return ['Content-Type', pick(r, ['application/json', 'text/plain', ''])]
      case 10: return ['Connection', pick(r, ['close', 'keep-alive', 'x'])]
      default: return ['X-Big', 'v'.repeat(pick(r, [100, 17_000]))]
    }
  })
}

const FRAMING_HEADERS = /^(host|content-length|transfer-encoding|connection|expect|x-big|content-type)$/i

export function rawCase(seed: number): RawCase {
  const r = mulberry32(seed)
  const method = chance(r, 0.08) ? pick(r, ODD) : pick(r, METHODS)
  const withBody = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method)
  const path = withBody && chance(r, 0.85) ? pick(r, BODY_PATHS) : pick(r, PATHS)
  const url = target(r, path)
  let framed = /^[A-Z]+$/.test(method) && /^[\x21-\x7e]+$/.test(url)
  let complete = true
  const headers: Array<[string, string]> = [['Host', 'localhost']]
  if (chance(r, 0.03)) { headers.pop(); framed = false }
  let payload: Buffer = Buffer.alloc(0)
  if (withBody) {
    const { type, text } = body(r, path)
    const bytes = Buffer.from(text)
    headers.push(['Content-Type', type])
    const framing = int(r, 24)
    if (framing === 0) { headers.push(['Content-Length', String(bytes.length + 3)]); framed = false; complete = false }
    else if (framing === 1) { headers.push(['Content-Length', String(Math.max(0, bytes.length - 2))]); framed = false }
    else if (framing === 2) { headers.push(['Content-Length', pick(r, ['-1', '1e3', `${bytes.length}, ${bytes.length + 1}`, '0x10'])]); framed = false }
    else if (framing === 3) { headers.push(['Transfer-Encoding', 'chunked'], ['Content-Length', String(bytes.length)]); framed = false }
    else if (framing === 4) { headers.push(['Transfer-Encoding', pick(r, ['gzip, chunked', 'identity', 'xchunked'])]); framed = false }
    if (framing < 5) payload = framing >= 3 ? chunk(r, bytes) : bytes
    else if (framing < 12) { headers.push(['Transfer-Encoding', 'chunked']); payload = chunk(r, bytes) }
    else { headers.push(['Content-Length', String(bytes.length)]); payload = bytes }
  }
  for (const [name, value] of extraHeaders(r)) {
    headers.push([name, value])
    if (FRAMING_HEADERS.test(name) || !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name) || /[\x00-\x08\x0a-\x1f\x7f]/.test(value)) framed = false
  }
  const head = `${method} ${url} HTTP/1.1\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`
  return { seed, method, path, bytes: Buffer.concat([Buffer.from(head, 'latin1'), payload]), framed, complete, fragments: chance(r, 0.25) }
}

function chunk(r: Random, bytes: Buffer): Buffer {
  const parts: Buffer[] = []
  for (let i = 0; i < bytes.length;) {
    const n = Math.min(bytes.length - i, 1 + int(r, chance(r, 0.5) ? 16 : 2048))
    parts.push(Buffer.from(`${n.toString(16)}${chance(r, 0.05) ? ';ext=1' : ''}\r\n`), bytes.subarray(i, i + n), Buffer.from('\r\n'))
    i += n
  }
  parts.push(Buffer.from('0\r\n\r\n'))
  return Buffer.concat(parts)
}
