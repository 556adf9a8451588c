// Raw HTTP/2 frames over a TCP socket (h2c), for floods node:http2's client would refuse to send
// (RST_STREAM storms, endless CONTINUATION, more streams than the server allows).
import { connect, type Socket } from 'node:net'

export const FRAME = { DATA: 0, HEADERS: 1, RST_STREAM: 3, SETTINGS: 4, PING: 6, GOAWAY: 7, WINDOW_UPDATE: 8, CONTINUATION: 9 } as const
export const FLAG = { END_STREAM: 1, ACK: 1, END_HEADERS: 4 } as const

export function frame(type: number, flags: number, streamId: number, payload: Buffer = Buffer.alloc(0)): Buffer {
  const head = Buffer.alloc(9)
  head.writeUIntBE(payload.length, 0, 3)
  head[3] = type
  head[4] = flags
  head.writeUInt32BE(streamId, 5)
  return Buffer.concat([head, payload])
}

/** A string literal of any length (RFC 7541 §5.1: a 7-bit prefix, then 7 bits a byte; no Huffman). */
function hpackString(text: string): Buffer {
  const bytes = Buffer.from(text)
  const length: number[] = []
  if (bytes.length < 127) length.push(bytes.length)
  else {
    length.push(127)
    let rest = bytes.length - 127
    while (rest >= 128) { length.push((rest & 127) | 128); rest >>= 7 }
    length.push(rest)
  }
  return Buffer.concat([Buffer.from(length), bytes])
}

/**
 * An HPACK bomb request (RFC 7541): `GET <path>` naming the connection's first dynamic-table entry
 * (index 62) `times` times at one byte each (§6.1). With `enter`, the request first enters that
 * entry, `x-a: <4,000 a>` (literal with incremental indexing, new name, §6.2.1): the first request
 * of a session must.
 */
export function hpackBombRequest(id: number, path: string, times: number, enter: boolean): Buffer {
  const entry = enter ? [Buffer.concat([Buffer.from([0x40]), hpackString('x-a'), hpackString('a'.repeat(4_000))])] : []
  return frame(FRAME.HEADERS, FLAG.END_HEADERS | FLAG.END_STREAM, id, Buffer.concat([requestBlock(path), ...entry, Buffer.alloc(times, 0x80 | 62)]))
}

/** A literal header field without indexing, new name (RFC 7541 §6.2.2). */
export function hpackLiteral(name: string, value: string): Buffer {
  return Buffer.concat([Buffer.from([0]), hpackString(name), hpackString(value)])
}

/** A header block for `GET <path>` (or POST), :scheme http, :authority x: static-table entries, no Huffman. */
export function requestBlock(path: string, method: 'GET' | 'POST' = 'GET'): Buffer {
  // 0x82 :method GET, 0x83 :method POST, 0x86 :scheme http; 0x04 / 0x01: literal values for :path / :authority.
  return Buffer.concat([Buffer.from([method === 'GET' ? 0x82 : 0x83, 0x86, 0x04]), hpackString(path), Buffer.from([0x01]), hpackString('x')])
}

/** What the server sent back, frame by frame. */
export interface H2Seen { goaway: number | null; rstStreams: number; headers: number; closed: boolean }

/** An h2c connection: the preface and an empty SETTINGS are sent at once; incoming frames are counted. */
/** Calls `onFrame` for each whole frame the server sends on `socket`, in order (frames split across chunks are joined). */
export function onFrames(socket: Socket, onFrame: (type: number, flags: number, id: number, payload: Buffer) => void): void {
  let buffer = Buffer.alloc(0)
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk])
    while (buffer.length >= 9) {
      const length = buffer.readUIntBE(0, 3)
      if (buffer.length < 9 + length) break
      onFrame(buffer[3], buffer[4], buffer.readUInt32BE(5) & 0x7fffffff, buffer.subarray(9, 9 + length))
      buffer = buffer.subarray(9 + length)
    }
  })
}

export function rawH2(address: string): { socket: Socket; seen: H2Seen; closed: Promise<void> } {
  const { hostname, port } = new URL(address)
  const socket = connect({ host: hostname, port: Number(port) })
  const seen: H2Seen = { goaway: null, rstStreams: 0, headers: 0, closed: false }
  onFrames(socket, (type, _flags, _id, payload) => {
    if (type === FRAME.GOAWAY) seen.goaway = payload.readUInt32BE(4)
    if (type === FRAME.RST_STREAM) seen.rstStreams++
    if (type === FRAME.HEADERS) seen.headers++
  })
  socket.on('error', () => undefined)
  const closed = new Promise<void>((resolve) => socket.once('close', () => { seen.closed = true; resolve() }))
  socket.write(Buffer.concat([Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'), frame(FRAME.SETTINGS, 0, 0), frame(FRAME.SETTINGS, FLAG.ACK, 0)]))
  return { socket, seen, closed }
}
