import type { ContentTypeParserFn } from '../types'

/**
 * How a parser is called. `collect`: the body is read (within the limit) and the parser returns
 * the value or a promise of it, `(request, body)`. `callback`: the same body, Fastify 3's
 * `(request, body, done)`. `stream`: Fastify 3's parsers without parseAs that read the raw stream
 * themselves, `(request, payload, done)` (or `(request)` returning the value). `payload`: Fastify
 * 3's deprecated async `(payload)`, handed the payload stream itself and returning a promise.
 */
export type ParserMode = 'collect' | 'callback' | 'stream' | 'payload'

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
  /**
   * The built-in JSON parser's way in (a `collect` parser): the body as its chunks arrived,
   * `length` bytes in all, so that no concatenated copy is made (its scan copies them into
   * WebAssembly memory anyway). Declared parsers have none and get `fn` one Buffer or string.
   */
  readonly fromChunks?: (chunks: readonly Buffer[], length: number) => unknown
  /**
   * Set on the built-in JSON and text parsers: they read the bytes as sent, so a body with a
   * content coding (gzip ...) that no preParsing hook decoded is refused (415) instead of being
   * read as text. Declared parsers get every body and may decode it themselves.
   */
  readonly identityOnly?: true
}

/**
 * Fastify 3's rules, read from the parser's parameters once, when it is declared. One departure
 * (README differences): a two-parameter parser without parseAs is Enclave's `(request, body)`,
 * not Fastify 3's deprecated `(payload, done)`; the two cannot be told apart by their arity.
 */
export function parserMode(fn: Function, parseAsGiven: boolean, isAsync: boolean): ParserMode {
  if (parseAsGiven) return fn.length >= 3 ? 'callback' : 'collect'
  if (fn.length === 1 && isAsync) return 'payload'
  return fn.length === 1 || fn.length >= 3 ? 'stream' : 'collect'
}
