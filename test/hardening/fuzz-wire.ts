/**
 * Reading what a server wrote on one connection, for the feature fuzz: the answers in order
 * (1xx skipped, 101 ends the HTTP part), each with its status, headers and body, framed by
 * Content-Length, chunked coding or the connection's close. Strict on purpose: anything that is
 * not an HTTP/1.1 status line where an answer should start is reported as unparsable.
 */

export interface Answer { status: number; headers: Record<string, string>; body: Buffer; closeDelimited: boolean }

export interface Parsed { list: Answer[]; unparsable?: string; upgraded: boolean; partial: boolean }

function chunkedBody(buffer: Buffer, from: number): { body: Buffer; next: number } | 'partial' | string {
  const parts: Buffer[] = []
  let next = from
  for (;;) {
    const lineEnd = buffer.indexOf('\r\n', next)
    if (lineEnd < 0) return 'partial'
    const line = buffer.subarray(next, lineEnd).toString('latin1')
    if (!/^[0-9a-fA-F]{1,8}$/.test(line)) return `bad chunk size line ${JSON.stringify(line.slice(0, 40))}`
    const size = parseInt(line, 16)
    if (buffer.length < lineEnd + 4 + size) return 'partial'
    if (buffer.toString('latin1', lineEnd + 2 + size, lineEnd + 4 + size) !== '\r\n') return 'chunk not followed by CRLF'
    parts.push(buffer.subarray(lineEnd + 2, lineEnd + 2 + size))
    next = lineEnd + 4 + size
    if (size === 0) return { body: Buffer.concat(parts), next }
  }
}

/** Splits `buffer` into answers; `methods` are the requests' methods in order (HEAD answers have no body; see 'HEAD?'). */
export function parseAnswers(buffer: Buffer, methods: readonly string[], closed: boolean): Parsed {
  const list: Answer[] = []
  let at = 0
  while (at < buffer.length) {
    const end = buffer.indexOf('\r\n\r\n', at)
    if (end < 0) return { list, upgraded: false, partial: true }
    const [statusLine, ...lines] = buffer.subarray(at, end).toString('latin1').split('\r\n')
    const status = /^HTTP\/1\.[01] (\d{3}) [^\r\n]*$/.exec(statusLine)
    if (status === null) return { list, unparsable: statusLine.slice(0, 100), upgraded: false, partial: false }
    const headers: Record<string, string> = {}
    for (const line of lines) {
      const colon = line.indexOf(':')
      if (colon <= 0) return { list, unparsable: `header line ${JSON.stringify(line.slice(0, 60))}`, upgraded: false, partial: false }
      const name = line.slice(0, colon).toLowerCase()
      const value = line.slice(colon + 1).trim()
      headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`
    }
    let next = end + 4
    const code = Number(status[1])
    if (code === 101) return { list: [...list, { status: code, headers, body: Buffer.alloc(0), closeDelimited: false }], upgraded: true, partial: false }
    if (code < 200) { at = next; continue }
    let body: Buffer = Buffer.alloc(0)
    let closeDelimited = false
    const method = methods[list.length] ?? 'GET'
    // 'HEAD?': a HEAD the server may not have parsed as one; its answer has a body only if bytes follow that are not a status line.
    const headless = method === 'HEAD?' && (buffer.length === next || buffer.toString('latin1', next, next + 5) === 'HTTP/')
    if (method === 'HEAD' || headless || code === 204 || code === 304) { /* no body */ } else if (headers['transfer-encoding'] !== undefined) {
      const read = chunkedBody(buffer, next)
      if (read === 'partial') return { list, upgraded: false, partial: true }
      if (typeof read === 'string') return { list, unparsable: read, upgraded: false, partial: false }
      body = read.body
      next = read.next
    } else if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length'])
      if (!Number.isSafeInteger(length) || length < 0) return { list, unparsable: `content-length ${headers['content-length']}`, upgraded: false, partial: false }
      if (buffer.length < next + length) return { list, upgraded: false, partial: true }
      body = buffer.subarray(next, next + length)
      next += length
    } else {
      if (!closed) return { list, upgraded: false, partial: true }
      closeDelimited = true
      body = buffer.subarray(next)
      next = buffer.length
    }
    list.push({ status: code, headers, body, closeDelimited })
    at = next
  }
  return { list, upgraded: false, partial: false }
}
