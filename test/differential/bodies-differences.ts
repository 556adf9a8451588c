// README differences the `bodies` family meets (bodies.ts) beyond the media-type and code rules
// every family shares (known-differences.ts): bytes that are not UTF-8, the length-mismatch
// message, a parser's own limit on an unknown URL.
import type { Answer, Case } from './case'
import type { KnownDifference } from './difference-types'
import { PARSER_BODY_LIMIT } from './bodies'

function errorAnswer(statusCode: number, error: string, message: string, code: string): Answer {
  const body = { statusCode, code, error, message }
  return { statusCode, headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(JSON.stringify(body))) }, body }
}

function codeOf(a: Answer): unknown {
  const b = a.body as { code?: unknown } | null
  return b !== null && typeof b === 'object' ? b.code : undefined
}

function bytesOf(c: Case): Buffer {
  const payload = c.request.payload ?? ''
  return typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload
}

/** The bytes as the UTF-8 text Enclave reads them as (each bad sequence one U+FFFD), written back as UTF-8. */
function decoded(bytes: Buffer): Buffer {
  return Buffer.from(bytes.toString('utf8'), 'utf8')
}

function declaredLength(c: Case): number {
  const header = c.request.headers?.['content-length']
  return header === undefined ? bytesOf(c).length : Number(header)
}

export const BODIES_DIFFERENCES: KnownDifference[] = [
  {
    id: 'body-not-utf8-replaced',
    readme: 'A body read as a string (the JSON parser, `parseAs: \'string\'`) that is not valid UTF-8 is\n  decoded with U+FFFD in place of each bad sequence',
    async rewrite(f, { c, replay }) {
      const bytes = bytesOf(c)
      if (codeOf(f) !== 'FST_ERR_CTP_INVALID_CONTENT_LENGTH' || decoded(bytes).equals(bytes) || declaredLength(c) !== bytes.length) return undefined
      // A preParsing hook's replacement stream is what was read, not these bytes (content-types.ts).
      if (c.family === 'content-types' && /preParsing replaces/.test(c.summary)) return undefined
      // Fastify 3 asked with the text Enclave decodes, as UTF-8 (its own length declared).
      const { 'content-length': _declared, ...headers } = c.request.headers ?? {}
      // Enclave bounds the bytes received, not their decoded text: the route's limit grows by what decoding added.
      const grown = decoded(bytes).length - bytes.length
      const limit = c.route.options?.bodyLimit as number | undefined
      const route = limit === undefined ? c.route : { ...c.route, options: { ...c.route.options, bodyLimit: limit + grown } }
      return await replay({ ...c.request, headers, payload: decoded(bytes) }, route)
    },
  },
  {
    id: 'length-mismatch-says-both',
    readme: 'and the 400 for a body whose length is not its Content-Length says both',
    rewrite(f, { c, enclave }) {
      if (codeOf(f) !== 'FST_ERR_CTP_INVALID_CONTENT_LENGTH' || codeOf(enclave) !== 'ENC_ERR_CTP_INVALID_CONTENT_LENGTH') return undefined
      const received = bytesOf(c).length
      const said = declaredLength(c)
      if (received === said) return undefined
      return errorAnswer(400, 'Bad Request', `Request body size did not match Content-Length: ${received} bytes received, Content-Length says ${said}`, 'ENC_ERR_CTP_INVALID_CONTENT_LENGTH')
    },
  },
  {
    id: 'parser-limit-unknown-url',
    readme: 'A content-type parser\'s own `bodyLimit` also bounds a body sent to an unknown URL',
    rewrite(f, { c, enclave }) {
      const type = c.request.headers?.['content-type']?.split(';')[0]?.trim().toLowerCase()
      // Only the limited text parser declares its own limit; the URL is not the route's.
      if (c.family !== 'bodies' || !/text limited/.test(c.summary) || type !== 'text/plain' || c.request.url.split('?')[0] === c.route.url) return undefined
      if (f.statusCode === 413 || enclave.statusCode !== 413 || declaredLength(c) <= PARSER_BODY_LIMIT) return undefined
      return errorAnswer(413, 'Payload Too Large', `Request body is too large: the limit is ${PARSER_BODY_LIMIT} bytes`, 'ENC_ERR_CTP_BODY_TOO_LARGE')
    },
  },
]
