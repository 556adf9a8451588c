/**
 * The websocket frame fuzz: each seed gives one connection to the fuzz app's echo route (/fz/ws,
 * @fastify/websocket, maxPayload 4096; it answers each message with `echo <bytes>`): an upgrade
 * head (mostly valid, else mutated) then a sequence of frames: valid masked text/binary messages
 * (0 to 4,000 bytes), fragmented messages with control frames between the fragments, and hostile
 * frames (reserved opcodes, RSV bits, unmasked, control frames over 125 bytes or fragmented,
 * non-minimal and lying 16/64-bit lengths, payloads past maxPayload, a continuation with no
 * start, a new message inside a fragmented one, invalid UTF-8 text, close frames with invalid
 * codes, 1-byte payloads or invalid UTF-8 reasons, ping and pong floods). Every valid message sent
 * before the first hostile frame must be echoed, exactly and in order.
 */
import { connect } from 'node:net'
import { int, mulberry32, pick, type Random } from './fuzz-inputs'

export interface WsFuzzSession { seed: number; head: Buffer; validHead: boolean; frames: Buffer[]; expected: string[]; mutations: string[]; fragmented: boolean }

const chance = (r: Random, p: number): boolean => r() < p

/** One client frame; `length` lies about the payload size, `form` forces the 16- or 64-bit length encoding. */
function wsFrame(opcode: number, payload: Buffer, o: { fin?: boolean; rsv?: number; masked?: boolean; length?: number; form?: 7 | 16 | 64 } = {}): Buffer {
  const length = o.length ?? payload.length
  const form = o.form ?? (length < 126 ? 7 : length < 65536 ? 16 : 64)
  const first = ((o.fin ?? true) ? 0x80 : 0) | ((o.rsv ?? 0) << 4) | opcode
  const maskBit = (o.masked ?? true) ? 0x80 : 0
  let head: Buffer
  if (form === 7) head = Buffer.from([first, maskBit | length])
  else if (form === 16) { head = Buffer.alloc(4); head[0] = first; head[1] = maskBit | 126; head.writeUInt16BE(length & 0xffff, 2) }
  else { head = Buffer.alloc(10); head[0] = first; head[1] = maskBit | 127; head.writeBigUInt64BE(BigInt(length), 2) }
  if (!(o.masked ?? true)) return Buffer.concat([head, payload])
  const mask = Buffer.from([0x12, 0x34, 0x56, 0x78])
  return Buffer.concat([head, mask, Buffer.from(payload.map((b, i) => b ^ mask[i % 4]))])
}

const text = (n: number): Buffer => Buffer.from('t'.repeat(n))
const closePayload = (code: number, reason: Buffer = Buffer.alloc(0)): Buffer => { const b = Buffer.alloc(2); b.writeUInt16BE(code); return Buffer.concat([b, reason]) }

const HOSTILE: Array<[string, (r: Random) => Buffer]> = [
  ['reserved data opcode', (r) => wsFrame(pick(r, [3, 4, 5, 6, 7]), text(3))],
  ['reserved control opcode', (r) => wsFrame(pick(r, [0xb, 0xc, 0xd, 0xe, 0xf]), text(3))],
  ['RSV bits', (r) => wsFrame(1, text(3), { rsv: 1 + int(r, 7) })],
  ['unmasked', () => wsFrame(1, text(5), { masked: false })],
  ['control over 125 bytes', () => wsFrame(9, text(126))],
  ['fragmented ping', () => wsFrame(9, text(2), { fin: false })],
  ['continuation with no start', () => wsFrame(0, text(4))],
  ['64-bit length with the top bit', () => Buffer.concat([Buffer.from([0x82, 0xff, 0x80, 0, 0, 0, 0, 0, 0, 0]), Buffer.from([1, 2, 3, 4])])],
  ['length past maxPayload', (r) => wsFrame(2, Buffer.alloc(pick(r, [4097, 10_000])))],
  ['length past maxPayload, not sent', () => wsFrame(2, text(10), { length: 2 ** 40 })],
  ['invalid UTF-8 text', (r) => wsFrame(1, Buffer.from(pick(r, [[0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82]])))],
  ['close with an invalid code', (r) => wsFrame(8, closePayload(pick(r, [0, 999, 1004, 1005, 1006, 1015, 2999, 5000, 65535])))],
  ['close of 1 byte', () => wsFrame(8, Buffer.from([3]))],
  ['close with an invalid UTF-8 reason', () => wsFrame(8, closePayload(1000, Buffer.from([0xff, 0xfe])))],
  ['close over 125 bytes', () => wsFrame(8, closePayload(1000, text(200)))],
  ['garbage', (r) => Buffer.from(Array.from({ length: 1 + int(r, 40) }, () => int(r, 256)))],
]

/**
 * Frames a well-behaved client may send between messages; `echo` is the reply a data frame gets.
 * A ping flood ends the expectations: ws (8.x) terminates a socket, with no close frame and no
 * log, once more than `maxPendingAutoPongs` (default 60) of its automatic pongs wait to be
 * flushed, which a burst of pings in one write causes (plain ws does it, without Enclave or
 * @fastify/websocket; docs/plugins.md). Pongs need no answer: a pong flood is served.
 */
const BENIGN: Array<[string, (r: Random) => { frame: Buffer; echo?: string; ends?: boolean }]> = [
  ['ping', (r) => ({ frame: wsFrame(9, text(int(r, 125))) })],
  ['unsolicited pong', (r) => ({ frame: wsFrame(10, text(int(r, 125))) })],
  ['ping flood', () => ({ frame: Buffer.concat(Array.from({ length: 200 }, () => wsFrame(9, text(4)))), ends: true })],
  ['pong flood', () => ({ frame: Buffer.concat(Array.from({ length: 200 }, () => wsFrame(10, text(4)))) })],
  ['non-minimal 16-bit length', (r) => { const n = int(r, 100); return { frame: wsFrame(1, text(n), { form: 16 }), echo: `echo ${n}` } }],
  ['non-minimal 64-bit length', (r) => { const n = int(r, 100); return { frame: wsFrame(2, text(n), { form: 64 }), echo: `echo ${n}` } }],
]

const HEADS = [
  (k: string) => `GET /fz/ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${k}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
]
const BAD_HEADS = [
  'GET /fz/ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\r\n',
  'GET /fz/ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: short\r\nSec-WebSocket-Version: 13\r\n\r\n',
  'GET /fz/ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 99\r\n\r\n',
  'GET /fz/ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: h2c\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
  'POST /fz/ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nContent-Length: 3\r\n\r\nabc',
  'GET /fz/ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Extensions: permessage-deflate; server_max_window_bits=99\r\n\r\n',
  'GET /fz/ws?x=%zz HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: keep-alive, Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
  'GET /nope HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
]

export function wsFuzzSession(seed: number): WsFuzzSession {
  const r = mulberry32(seed)
  const validHead = chance(r, 0.85)
  const head = Buffer.from(validHead ? HEADS[0](Buffer.from(`key-${seed}`.padEnd(16, 'x').slice(0, 16)).toString('base64')) : pick(r, BAD_HEADS), 'latin1')
  const frames: Buffer[] = []
  const expected: string[] = []
  const mutations: string[] = []
  let broken = false
  let fragmented = false
  const count = 1 + int(r, 10)
  for (let i = 0; i < count; i++) {
    const roll = r()
    if (roll < 0.4) {
      const n = pick(r, [0, 1, 5, 125, 126, 1000, 4000])
      frames.push(wsFrame(chance(r, 0.7) ? 1 : 2, text(n)))
      if (!broken) expected.push(`echo ${n}`)
    } else if (roll < 0.55) {
      // A message in 2-4 fragments, a control frame between two of them.
      const parts = 2 + int(r, 3)
      let total = 0
      for (let p = 0; p < parts; p++) {
        const n = int(r, 300)
        total += n
        frames.push(wsFrame(p === 0 ? 1 : 0, text(n), { fin: p === parts - 1 }))
        if (p < parts - 1 && chance(r, 0.5)) frames.push(wsFrame(pick(r, [9, 10]), text(3)))
      }
      if (!broken) expected.push(`echo ${total}`)
      fragmented = true
    } else if (roll < 0.7) {
      const [name, build] = pick(r, BENIGN)
      const { frame, echo, ends } = build(r)
      frames.push(frame)
      if (echo !== undefined && !broken) expected.push(echo)
      if (ends === true) broken = true
      mutations.push(name)
    } else if (roll < 0.8) {
      // A new data message while one is fragmented: a protocol error.
      frames.push(wsFrame(1, text(3), { fin: false }), wsFrame(1, text(3)))
      mutations.push('data frame inside a fragmented message')
      broken = true
    } else {
      const [name, build] = pick(r, HOSTILE)
      frames.push(build(r))
      mutations.push(name)
      broken = true
    }
  }
  if (chance(r, 0.3)) { frames.push(wsFrame(8, closePayload(1000, Buffer.from('bye')))); mutations.push('close 1000') }
  return { seed, head, validHead, frames, expected: validHead ? expected : [], mutations, fragmented }
}

export interface WsWire { status: number; messages: string[]; closeCode: number | null; closed: boolean; timedOut: boolean; rest: string }

/** Sends the head, then (after a 101) the frames; reads the server's frames until it closes, or 400 ms of quiet, or 4 s. */
export function wsExchange(port: number, session: WsFuzzSession): Promise<WsWire> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port })
    socket.setNoDelay(true)
    const wire: WsWire = { status: 0, messages: [], closeCode: null, closed: false, timedOut: false, rest: '' }
    let buffer = Buffer.alloc(0)
    let upgraded = false
    let quiet: NodeJS.Timeout | undefined
    const finish = (timedOut: boolean): void => {
      clearTimeout(guard)
      clearTimeout(quiet)
      wire.timedOut = timedOut
      socket.destroy()
      resolve(wire)
    }
    const guard = setTimeout(() => finish(true), 4_000)
    const rearm = (): void => { clearTimeout(quiet); quiet = setTimeout(() => finish(false), 400) }
    socket.on('error', () => undefined)
    socket.on('close', () => { wire.closed = true; finish(false) })
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk])
      if (!upgraded) {
        const end = buffer.indexOf('\r\n\r\n')
        if (end < 0) return
        wire.status = Number(/^HTTP\/1\.1 (\d{3})/.exec(buffer.toString('latin1'))?.[1] ?? -1)
        if (wire.status !== 101) { wire.rest = buffer.toString('latin1'); rearm(); return }
        upgraded = true
        buffer = buffer.subarray(end + 4)
        for (const f of session.frames) socket.write(f)
      }
      while (buffer.length >= 2) {
        let length = buffer[1] & 0x7f
        let at = 2
        if (length === 126) { if (buffer.length < 4) break; length = buffer.readUInt16BE(2); at = 4 }
        else if (length === 127) { if (buffer.length < 10) break; length = Number(buffer.readBigUInt64BE(2)); at = 10 }
        if (buffer.length < at + length) break
        const opcode = buffer[0] & 0x0f
        const payload = buffer.subarray(at, at + length)
        if (opcode === 1) wire.messages.push(payload.toString('utf8'))
        if (opcode === 8) wire.closeCode = payload.length >= 2 ? payload.readUInt16BE(0) : 1005
        buffer = buffer.subarray(at + length)
      }
      rearm()
    })
    socket.write(session.head)
  })
}

/** What is wrong: a valid upgrade not accepted, an echo missing, changed or out of order, an answer that never came. */
export function judgeWs(session: WsFuzzSession, wire: WsWire): string[] {
  const violations: string[] = []
  if (session.validHead && wire.status !== 101) violations.push(`a valid upgrade got ${wire.status}`)
  if (!session.validHead && wire.status === 0 && !wire.closed) violations.push('a bad upgrade got no answer and the connection stayed open')
  const echoes = wire.messages.slice(0, session.expected.length)
  if (JSON.stringify(echoes) !== JSON.stringify(session.expected)) violations.push(`echoes ${JSON.stringify(wire.messages).slice(0, 200)}, expected first ${JSON.stringify(session.expected)}`)
  if (/\bat [\w.<>]+ \(|node_modules|\.[jt]s:\d+/.test(wire.rest)) violations.push(`internals in the refusal: ${wire.rest.slice(0, 200)}`)
  return violations
}
