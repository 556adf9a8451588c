import type { IncomingMessage } from 'node:http'
import type { Readable } from 'node:stream'

/** The request body's content coding, when it has one other than identity (RFC 9110 §8.4). */
export function contentCoding(header: string | undefined): string | null {
  if (header === undefined) return null
  const coding = header.trim().toLowerCase()
  return coding === '' || coding === 'identity' ? null : coding
}

/**
 * The coding of a body the parser is about to read as sent: the request's Content-Encoding when
 * no preParsing hook put a decoding stream in the place of `raw` (@fastify/compress's does), else null.
 */
export function undecodedCoding(request: { readonly raw: IncomingMessage; readonly payloadStream: Readable | null }): string | null {
  if ((request.payloadStream ?? request.raw) !== request.raw) return null
  return contentCoding(request.raw.headers['content-encoding'])
}
