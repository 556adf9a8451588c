import type { ContentTypeParserFn } from '../types'

/**
 * How a parser is called. `collect`: the body is read (within the limit) and the parser returns
 * the value or a promise of it, `(request, body)`. `callback`: the same body, Fastify 3's
 * `(request, body, done)`. `stream`: Fastify 3's parsers without parseAs that read the raw stream
 * themselves, `(request, payload, done)` or async `(request)` reading `request.raw`.
 */
export type ParserMode = 'collect' | 'callback' | 'stream'

/**
 * One content-type parser as `addContentTypeParser` records it (declare/), merged per scope at
 * boot (boot/) and run on the request path (serve/body/).
 */
export interface BodyParser {
  readonly fn: ContentTypeParserFn
  readonly parseAs: 'string' | 'buffer'
  readonly bodyLimit: number | null
  readonly mode: ParserMode
  /** Set for a parser declared with a RegExp: it matches media types after the exact ones. */
  readonly pattern: RegExp | null
}

/** Fastify 3's rules, read from the parser's parameters once, when it is declared. */
export function parserMode(fn: Function, parseAsGiven: boolean): ParserMode {
  if (!parseAsGiven && (fn.length === 1 || fn.length >= 3)) return 'stream'
  return fn.length >= 3 ? 'callback' : 'collect'
}
