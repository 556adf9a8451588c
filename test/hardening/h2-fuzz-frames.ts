/**
 * Generated hostile HTTP/2 connections for the frame fuzz: each seed gives one connection as a
 * sequence of frames (and short pauses). A connection opens one to five request streams built
 * from the HTTP/1.1 fuzz's valid requests to the fuzz app (fuzz-traffic.ts `template`), HPACK
 * encoded here (no Huffman, so a mutation can aim at any byte), then mutated: header fields
 * (duplicate, missing, unknown or late pseudo-headers, connection-specific fields, uppercase and
 * empty names, CR/LF/NUL in values, 20 KB values, 300 fields), the HPACK block (indexes past
 * the tables, string lengths that lie, oversized table-size updates, Huffman-flagged garbage),
 * framing (CONTINUATION chains and floods, padding and its lies, PRIORITY flags, DATA with and
 * without END_STREAM, bodies past content-length), and control frames between them (SETTINGS
 * with bad values or lengths, PING, WINDOW_UPDATE of 0 and past 2^31-1, PRIORITY on itself,
 * RST_STREAM, GOAWAY, PUSH_PROMISE from the client, unknown types, even, reused, decreasing and
 * closed stream ids, frames past the frame size). Each stream says whether it was left intact:
 * an intact stream must be answered (or its connection ended with GOAWAY) within the wait.
 */
import { int, mulberry32, pick, type Random } from './fuzz-inputs'
import { template } from './fuzz-traffic'

export const T = { DATA: 0, HEADERS: 1, PRIORITY: 2, RST_STREAM: 3, SETTINGS: 4, PUSH_PROMISE: 5, PING: 6, GOAWAY: 7, WINDOW_UPDATE: 8, CONTINUATION: 9 } as const
const F = { END_STREAM: 0x1, ACK: 0x1, END_HEADERS: 0x4, PADDED: 0x8, PRIORITY: 0x20 } as const

export const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n')

/** One HTTP/2 frame; `length` lies about the payload's size when given. */
export function h2Frame(type: number, flags: number, streamId: number, payload: Buffer = Buffer.alloc(0), length = payload.length): Buffer {
  const head = Buffer.alloc(9)
  head.writeUIntBE(Math.min(length, 0xffffff), 0, 3)
  head[3] = type
  head[4] = flags
  head.writeUInt32BE(streamId >>> 0, 5)
  return Buffer.concat([head, payload])
}

/** An HPACK integer with an N-bit prefix (RFC 7541 §5.1); `flags` fill the prefix byte's high bits. */
export function hpackInt(value: number, prefixBits: number, flags = 0): Buffer {
  const max = (1 << prefixBits) - 1
  if (value < max) return Buffer.from([flags | value])
  const bytes = [flags | max]
  let rest = value - max
  while (rest >= 128) { bytes.push((rest % 128) + 128); rest = Math.floor(rest / 128) }
  bytes.push(rest)
  return Buffer.from(bytes)
}

const hpackString = (text: string | Buffer, huffman = false): Buffer => {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'latin1') : text
  return Buffer.concat([hpackInt(bytes.length, 7, huffman ? 0x80 : 0), bytes])
}

/** A literal field, new name; without indexing, or with incremental indexing (fills the dynamic table). */
const literal = (name: string, value: string, indexed = false): Buffer => Buffer.concat([Buffer.from([indexed ? 0x40 : 0]), hpackString(name), hpackString(value)])

type Field = [string, string]

export interface H2Stream {
  id: number
  method: string
  path: string
  /** Neither its fields, its block nor its frames were mutated, and the client ended it: it must be answered. */
  intact: boolean
}

export interface H2FuzzSession {
  seed: number
  /** Written in order; a number is a pause (ms). */
  steps: Array<Buffer | number>
  streams: H2Stream[]
  /** Leave the connection open for the server's timeouts (bodyTimeout) to answer unfinished streams. */
  linger: boolean
  /** Cut the connection after this many bytes (a client that vanishes mid-frame). */
  cutAt?: number
  mutations: string[]
}

const chance = (r: Random, p: number): boolean => r() < p

/** The fields of one request, pseudo-headers first, as a valid client sends them. */
function requestFields(r: Random, secure: boolean): { fields: Field[]; body?: Buffer; method: string; path: string } {
  const t = template(r)
  const fields: Field[] = [[':method', t.method], [':scheme', secure ? 'https' : 'http'], [':path', t.path], [':authority', 'localhost']]
  for (const [name, value] of t.headers) fields.push([name.toLowerCase(), value])
  let body: Buffer | undefined
  if (t.body !== undefined) {
    body = 'raw' in t.body ? t.body.raw : Buffer.from(t.body.text)
    if (body.length > 16_000) body = body.subarray(0, 16_000)
    fields.push(['content-type', t.body.type])
    if (chance(r, 0.5)) fields.push(['content-length', String(body.length)])
  }
  return { fields, body, method: t.method, path: t.path }
}

/** Field-level mutations: what a client's HPACK encoder would send but an HTTP/2 server must refuse or survive. */
const FIELD_MUTATIONS: Array<[string, (r: Random, fields: Field[]) => void]> = [
  ['duplicate :path', (_r, f) => f.push([':path', '/fz/seq/2'])],
  ['duplicate :method', (_r, f) => f.splice(1, 0, [':method', 'POST'])],
  ['no :method', (_r, f) => f.splice(f.findIndex(([n]) => n === ':method'), 1)],
  ['no :path', (_r, f) => f.splice(f.findIndex(([n]) => n === ':path'), 1)],
  ['no :scheme', (_r, f) => f.splice(f.findIndex(([n]) => n === ':scheme'), 1)],
  ['unknown pseudo-header', (r, f) => f.splice(int(r, 4), 0, [pick(r, [':foo', ':status', ':protocol', ':']), 'x'])],
  ['pseudo-header after a field', (_r, f) => f.push([':authority', 'late.example'])],
  ['connection-specific field', (r, f) => f.push(pick(r, [['connection', 'keep-alive'], ['te', 'gzip'], ['transfer-encoding', 'chunked'], ['keep-alive', '5'], ['upgrade', 'websocket'], ['proxy-connection', 'x']] as Field[]))],
  ['uppercase name', (_r, f) => f.push(['X-Upper', '1'])],
  ['empty name', (_r, f) => f.push(['', 'v'])],
  ['bad byte in a value', (r, f) => f.push(['x-bad', pick(r, ['a\r\nb: c', 'a\u0000b', 'a\nb', ' lead', 'trail ', '\u007f', '\u00ff'])])],
  ['bad byte in a name', (r, f) => f.push([pick(r, ['x y', 'x:y', 'x\u0000', 'x\r\n', 'é', '(x)']), 'v'])],
  ['20 KB value', (_r, f) => f.push(['x-huge', 'h'.repeat(20_000)])],
  ['300 fields', (_r, f) => { for (let i = 0; i < 300; i++) f.push([`x-f${i}`, 'v']) }],
  ['odd :path', (r, f) => { f[f.findIndex(([n]) => n === ':path')] = [':path', pick(r, ['', '*', 'fz/seq/1', 'http://evil.example/fz/seq/1', '/fz/seq/%zz', '/fz/' + 'a/'.repeat(3000), '/fz/seq/1#frag', '/fz/seq/\u00e9'])] }],
  ['odd :method', (r, f) => { f[f.findIndex(([n]) => n === ':method')] = [':method', pick(r, ['get', 'CONNECT', 'BREW', '', 'G ET', 'PRI', 'OPTIONS'])] }],
  ['odd :authority', (r, f) => { f[f.findIndex(([n]) => n === ':authority')] = [':authority', pick(r, ['', 'a b', 'api.example', 'x'.repeat(3000), 'localhost:99999', '[::1'])] }],
  ['host and :authority differ', (_r, f) => f.push(['host', 'api.example'])],
  ['content-length lies', (r, f) => f.push(['content-length', pick(r, ['0', '1', '99999', '-1', 'x', '1, 2'])])],
  ['cookie crumbs', (_r, f) => { f.push(['cookie', 'a=1'], ['cookie', '__proto__=x'], ['cookie', 'b=2']) }],
  ['prototype names', (_r, f) => { f.push(['__proto__', 'x'], ['constructor', 'y'], ['hasownproperty', 'z']) }],
]

/** Block-level mutations: bytes no sane encoder writes. */
const BLOCK_MUTATIONS: Array<[string, (r: Random, block: Buffer) => Buffer]> = [
  ['an index past the tables', (r, b) => Buffer.concat([b, hpackInt(pick(r, [62, 70, 4096, 2 ** 28]), 7, 0x80)])],
  ['index 0', (_r, b) => Buffer.concat([b, Buffer.from([0x80])])],
  ['a string length that lies', (_r, b) => Buffer.concat([b, Buffer.from([0x00, 0x7f, 0x7f, 0x10]), Buffer.from('x-lie')])],
  ['an integer that never ends', (_r, b) => Buffer.concat([b, Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])])],
  ['a table-size update past SETTINGS', (r, b) => Buffer.concat([hpackInt(pick(r, [4097, 65536, 2 ** 30]), 5, 0x20), b])],
  ['a table-size update after a field', (_r, b) => Buffer.concat([b, hpackInt(0, 5, 0x20)])],
  ['Huffman-flagged garbage', (r, b) => Buffer.concat([b, Buffer.from([0x00, 0x83, 0xff, 0xff, 0xff, 0x83, pick(r, [0xff, 0x00]), 0x12, 0x34])])],
  ['truncated block', (r, b) => b.subarray(0, int(r, b.length))],
  ['random bytes flipped', (r, b) => { const c = Buffer.from(b); for (let i = 0; i < 3; i++) c[int(r, c.length)] ^= 1 << int(r, 8); return c }],
  ['a filled dynamic table', (_r, b) => Buffer.concat([b, ...Array.from({ length: 60 }, (_, i) => literal(`x-dyn-${i}`, 'd'.repeat(100), true)), Buffer.from([0xbe])])],
]

function encodeBlock(fields: Field[], r: Random): Buffer {
  // Static-table names for the pseudo-headers and a few fields, as nghttp2 and browsers do.
  const STATIC: Record<string, number> = { ':authority': 1, ':method': 2, ':path': 4, ':scheme': 6, 'content-length': 28, 'content-type': 31, cookie: 32 }
  return Buffer.concat(fields.map(([name, value]) => {
    if (name === ':method' && value === 'GET') return Buffer.from([0x82])
    if (name === ':method' && value === 'POST') return Buffer.from([0x83])
    if (name === ':scheme' && value === 'http') return Buffer.from([0x86])
    if (name === ':scheme' && value === 'https') return Buffer.from([0x87])
    const index = STATIC[name]
    if (index !== undefined && chance(r, 0.7)) return Buffer.concat([hpackInt(index, 4), hpackString(value)])
    return literal(name, value, chance(r, 0.2))
  }))
}

/** HEADERS (maybe padded, maybe with PRIORITY) and CONTINUATION frames carrying `block`. */
function headerFrames(r: Random, id: number, block: Buffer, endStream: boolean, mutations: string[]): Buffer[] {
  const pieces: Buffer[] = []
  const split = chance(r, 0.2) ? 1 + int(r, 4) : 0
  let rest = block
  const size = Math.max(1, Math.ceil(block.length / (split + 1)))
  while (rest.length > size && pieces.length < split) { pieces.push(rest.subarray(0, size)); rest = rest.subarray(size) }
  pieces.push(rest)
  let flags = (endStream ? F.END_STREAM : 0) | (pieces.length === 1 ? F.END_HEADERS : 0)
  let first = pieces[0]
  if (chance(r, 0.15)) {
    flags |= F.PRIORITY
    first = Buffer.concat([u32(chance(r, 0.5) ? 0 : Math.max(0, id - 2)), Buffer.from([15]), first])
  }
  if (chance(r, 0.15)) {
    const pad = int(r, 40)
    flags |= F.PADDED
    first = Buffer.concat([Buffer.from([pad]), first, Buffer.alloc(pad)])
  }
  const frames = [h2Frame(T.HEADERS, flags, id, first)]
  for (let i = 1; i < pieces.length; i++) frames.push(h2Frame(T.CONTINUATION, i === pieces.length - 1 ? F.END_HEADERS : 0, id, pieces[i]))
  if (pieces.length > 1) mutations.push(`${pieces.length - 1} CONTINUATION`)
  return frames
}

function dataFrames(r: Random, id: number, body: Buffer, end: boolean): Buffer[] {
  const frames: Buffer[] = []
  let rest = body
  do {
    const size = Math.min(rest.length, chance(r, 0.3) ? 1 + int(r, 64) : 16_000)
    let chunk = rest.subarray(0, size)
    rest = rest.subarray(size)
    let flags = end && rest.length === 0 ? F.END_STREAM : 0
    if (chance(r, 0.15)) {
      const pad = int(r, 30)
      flags |= F.PADDED
      chunk = Buffer.concat([Buffer.from([pad]), chunk, Buffer.alloc(pad)])
    }
    frames.push(h2Frame(T.DATA, flags, id, chunk))
  } while (rest.length > 0)
  return frames
}

const u32 = (n: number): Buffer => { const b = Buffer.alloc(4); b.writeUInt32BE(n >>> 0); return b }
const setting = (id: number, value: number): Buffer => { const b = Buffer.alloc(6); b.writeUInt16BE(id); b.writeUInt32BE(value >>> 0, 2); return b }

/** Frames between (or instead of) requests; `stream` is a stream id the connection used, or the next one. */
const CONTROL: Array<[string, (r: Random, stream: number, next: number) => Buffer]> = [
  ['PING', () => h2Frame(T.PING, 0, 0, Buffer.alloc(8, 7))],
  ['PING ACK unasked', () => h2Frame(T.PING, F.ACK, 0, Buffer.alloc(8))],
  ['PING of 7 bytes', () => h2Frame(T.PING, 0, 0, Buffer.alloc(7))],
  ['PING on a stream', (_r, s) => h2Frame(T.PING, 0, s, Buffer.alloc(8))],
  ['PING flood', () => Buffer.concat(Array.from({ length: 300 }, () => h2Frame(T.PING, 0, 0, Buffer.alloc(8))))],
  ['SETTINGS valid', (r) => h2Frame(T.SETTINGS, 0, 0, Buffer.concat([setting(1, pick(r, [0, 4096, 100_000])), setting(3, pick(r, [1, 100, 0])), setting(5, pick(r, [16_384, 65_535]))]))],
  ['SETTINGS INITIAL_WINDOW_SIZE 0', () => h2Frame(T.SETTINGS, 0, 0, setting(4, 0))],
  ['SETTINGS bad value', (r) => h2Frame(T.SETTINGS, 0, 0, pick(r, [setting(2, 2), setting(4, 2 ** 31), setting(5, 100), setting(5, 2 ** 24), setting(8, 7), setting(0x99, 1)]))],
  ['SETTINGS of 5 bytes', () => h2Frame(T.SETTINGS, 0, 0, Buffer.alloc(5))],
  ['SETTINGS ACK with a payload', () => h2Frame(T.SETTINGS, F.ACK, 0, setting(1, 0))],
  ['SETTINGS on a stream', (_r, s) => h2Frame(T.SETTINGS, 0, s, setting(3, 10))],
  ['SETTINGS flood', () => Buffer.concat(Array.from({ length: 200 }, () => h2Frame(T.SETTINGS, 0, 0)))],
  ['WINDOW_UPDATE 0', (r, s) => h2Frame(T.WINDOW_UPDATE, 0, chance(r, 0.5) ? 0 : s, u32(0))],
  ['WINDOW_UPDATE overflow', (r, s) => { const id = chance(r, 0.5) ? 0 : s; return Buffer.concat([h2Frame(T.WINDOW_UPDATE, 0, id, u32(2 ** 31 - 1)), h2Frame(T.WINDOW_UPDATE, 0, id, u32(2 ** 31 - 1))]) }],
  ['WINDOW_UPDATE of 3 bytes', () => h2Frame(T.WINDOW_UPDATE, 0, 0, Buffer.alloc(3, 1))],
  ['WINDOW_UPDATE valid', (_r, s) => h2Frame(T.WINDOW_UPDATE, 0, s, u32(1_000))],
  ['PRIORITY on itself', (_r, s) => h2Frame(T.PRIORITY, 0, s, Buffer.concat([u32(s), Buffer.from([10])]))],
  ['PRIORITY of 4 bytes', (_r, s) => h2Frame(T.PRIORITY, 0, s, u32(0))],
  ['PRIORITY on an idle stream', (_r, _s, n) => h2Frame(T.PRIORITY, 0, n + 20, Buffer.concat([u32(0), Buffer.from([1])]))],
  ['RST_STREAM', (r, s) => h2Frame(T.RST_STREAM, 0, s, u32(pick(r, [0, 8, 2, 0xffff])))],
  ['RST_STREAM on stream 0', () => h2Frame(T.RST_STREAM, 0, 0, u32(8))],
  ['RST_STREAM on an idle stream', (_r, _s, n) => h2Frame(T.RST_STREAM, 0, n + 40, u32(8))],
  ['RST_STREAM of 2 bytes', (_r, s) => h2Frame(T.RST_STREAM, 0, s, Buffer.alloc(2))],
  ['GOAWAY from the client', (r, s) => h2Frame(T.GOAWAY, 0, 0, Buffer.concat([u32(s), u32(pick(r, [0, 1, 0xdead])), Buffer.from('bye')]))],
  ['PUSH_PROMISE from the client', (_r, s, n) => h2Frame(T.PUSH_PROMISE, F.END_HEADERS, s, Buffer.concat([u32(n + 1), Buffer.from([0x82, 0x84, 0x86])]))],
  ['unknown frame type', (r, s) => h2Frame(0x0a + int(r, 0xf0), int(r, 256), chance(r, 0.5) ? 0 : s, Buffer.alloc(int(r, 50), 0x5a))],
  ['CONTINUATION without HEADERS', (_r, s) => h2Frame(T.CONTINUATION, F.END_HEADERS, s, Buffer.from([0x82]))],
  ['DATA on stream 0', () => h2Frame(T.DATA, 0, 0, Buffer.from('x'))],
  ['DATA on a closed or idle stream', (_r, s) => h2Frame(T.DATA, F.END_STREAM, s, Buffer.from('{"late":1}'))],
  ['DATA with a padding lie', (_r, s) => h2Frame(T.DATA, F.PADDED, s, Buffer.from([200, 1, 2]))],
  ['HEADERS on an even stream', (_r, _s, n) => h2Frame(T.HEADERS, F.END_HEADERS | F.END_STREAM, n + 1, Buffer.from([0x82, 0x84, 0x86, 0x41, 0x01, 0x78]))],
  ['HEADERS on stream 0', () => h2Frame(T.HEADERS, F.END_HEADERS | F.END_STREAM, 0, Buffer.from([0x82, 0x84, 0x86]))],
  ['HEADERS on a lower stream id', (_r, s) => h2Frame(T.HEADERS, F.END_HEADERS | F.END_STREAM, Math.max(1, s - 2), Buffer.from([0x82, 0x84, 0x86, 0x41, 0x01, 0x78]))],
  ['HEADERS on stream 2^31-1', () => h2Frame(T.HEADERS, F.END_HEADERS | F.END_STREAM, 2 ** 31 - 1, Buffer.from([0x82, 0x84, 0x86, 0x41, 0x01, 0x78]))],
  ['HEADERS with a padding lie', (_r, _s, n) => h2Frame(T.HEADERS, F.END_HEADERS | F.PADDED, n, Buffer.from([250, 0x82, 0x84]))],
  ['a frame past the frame size', (_r, s) => h2Frame(T.DATA, 0, s, Buffer.alloc(16_385, 0x20))],
  ['a length that lies', (_r, s) => h2Frame(T.DATA, 0, s, Buffer.from('abc'), 0xffffff)],
  ['CONTINUATION flood', (_r, _s, n) => Buffer.concat([h2Frame(T.HEADERS, F.END_STREAM, n, Buffer.from([0x82, 0x84, 0x86, 0x41, 0x01, 0x78])), ...Array.from({ length: 2_000 }, () => h2Frame(T.CONTINUATION, 0, n, literal('x-c', 'y')))])],
]

/** The connection of `seed`: the same frames on every run. */
export function h2FuzzSession(seed: number, secure = false): H2FuzzSession {
  const r = mulberry32(seed)
  // The server's SETTINGS are acknowledged blindly, as test/support/raw-h2.ts does.
  const opening = chance(r, 0.2) ? setting(4, pick(r, [1, 100, 1 << 20])) : Buffer.alloc(0)
  const steps: Array<Buffer | number> = [PREFACE, h2Frame(T.SETTINGS, 0, 0, opening), h2Frame(T.SETTINGS, F.ACK, 0)]
  const streams: H2Stream[] = []
  const mutations: string[] = []
  let nextId = 1
  const count = 1 + int(r, 5)
  // A connection mutated nowhere is a control: every stream of it must be answered.
  const hostile = chance(r, 0.85)
  for (let i = 0; i < count; i++) {
    const id = nextId
    nextId += 2
    const { fields, body, method, path } = requestFields(r, secure)
    let intact = true
    if (hostile && chance(r, 0.3)) {
      const [name, mutate] = pick(r, FIELD_MUTATIONS)
      mutate(r, fields)
      mutations.push(`stream ${id}: ${name}`)
      intact = false
    }
    let block = encodeBlock(fields, r)
    if (hostile && chance(r, 0.12)) {
      const [name, mutate] = pick(r, BLOCK_MUTATIONS)
      block = mutate(r, block)
      mutations.push(`stream ${id}: ${name}`)
      intact = false
    }
    // A body left open (no END_STREAM) waits for bodyTimeout's 408.
    const ends = !(hostile && chance(r, 0.1))
    if (!ends) { mutations.push(`stream ${id}: no END_STREAM`); intact = false }
    steps.push(...headerFrames(r, id, block, body === undefined && ends, mutations))
    if (body !== undefined) {
      let sent = body
      if (hostile && chance(r, 0.1)) { sent = Buffer.concat([body, Buffer.from('{"extra":true}')]); mutations.push(`stream ${id}: body past content-length`); intact = false }
      if (hostile && chance(r, 0.1)) { sent = body.subarray(0, int(r, body.length)); mutations.push(`stream ${id}: body cut short`); intact = false }
      steps.push(...dataFrames(r, id, sent, ends))
    }
    streams.push({ id, method, path, intact })
    if (chance(r, 0.2)) steps.push(1 + int(r, 20))
    const controls = hostile ? int(r, 3) : 0
    for (let c = 0; c < controls; c++) {
      const [name, build] = pick(r, CONTROL)
      const target = pick(r, streams).id
      steps.push(build(r, target, nextId))
      mutations.push(`${name} (stream ${target})`)
      // A control aimed at a stream may end that stream (RST_STREAM, PRIORITY on itself, flow control).
      const aimed = streams.find((s) => s.id === target)
      if (aimed !== undefined) aimed.intact = false
      if (/HEADERS|CONTINUATION flood|PUSH_PROMISE/.test(name)) nextId += 2
      if (/HEADERS on stream 2\^31-1/.test(name)) nextId = 2 ** 31 + 1
    }
    if (nextId > 2 ** 31 - 1) break
  }
  const size = steps.reduce<number>((n, s) => n + (typeof s === 'number' ? 0 : s.length), 0)
  const cutAt = hostile && chance(r, 0.08) ? PREFACE.length + int(r, size - PREFACE.length) : undefined
  if (cutAt !== undefined) mutations.push(`cut at byte ${cutAt}`)
  return { seed, steps, streams, linger: chance(r, 0.1), cutAt, mutations }
}
