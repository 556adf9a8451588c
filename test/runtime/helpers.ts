import { connect } from 'node:net'

export { server, build, bootError, thrown, recordingLogger, deferred, type LogEntry } from '../support/servers'

export interface RawResponse { status: number; headers: Record<string, string>; body: string }

/**
 * Writes `text` as is on a fresh TCP connection and reads until the server closes it: for
 * framing supertest cannot produce (chunked bodies, lying content-length). The request should
 * carry `Connection: close`.
 */
export function rawRequest(address: string, text: string | Buffer): Promise<RawResponse> {
  const { hostname, port } = new URL(address)
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) })
    const received: Buffer[] = []
    let settled = false
    const finish = (): void => {
      if (settled) return
      settled = true
      const response = parseRawResponse(Buffer.concat(received).toString('latin1'))
      if (response === null) reject(new Error('no complete HTTP response was received'))
      else resolve(response)
    }
    socket.on('data', (chunk: Buffer) => received.push(chunk))
    socket.on('end', finish)
    socket.on('close', finish)
    // A reset after the server answered (it closes while we still write) is not a failure.
    socket.on('error', () => undefined)
    socket.write(text)
  })
}

function parseRawResponse(text: string): RawResponse | null {
  const end = text.indexOf('\r\n\r\n')
  if (end === -1) return null
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  let body = text.slice(end + 4)
  if (headers['transfer-encoding'] === 'chunked') body = dechunk(body)
  return { status: Number(statusLine.split(' ')[1]), headers, body }
}

function dechunk(text: string): string {
  let out = ''
  let rest = text
  for (let guard = 0; guard < 10_000 && rest.length > 0; guard++) {
    const lineEnd = rest.indexOf('\r\n')
    const size = parseInt(rest.slice(0, lineEnd), 16)
    if (!(size > 0)) break
    out += rest.slice(lineEnd + 2, lineEnd + 2 + size)
    rest = rest.slice(lineEnd + 2 + size + 2)
  }
  return out
}

/** Serialises `chunks` as a chunked HTTP/1.1 body (with the terminating zero chunk). */
export function chunked(chunks: string[]): string {
  return chunks.map((c) => `${Buffer.byteLength(c).toString(16)}\r\n${c}\r\n`).join('') + '0\r\n\r\n'
}
