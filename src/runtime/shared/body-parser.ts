import type { ContentTypeParserFn } from '../types'

/**
 * One content-type parser as `addContentTypeParser` records it (declare/), merged per scope at
 * boot (boot/) and run on the request path (serve/body/).
 */
export interface BodyParser {
  readonly fn: ContentTypeParserFn
  readonly parseAs: 'string' | 'buffer'
  readonly bodyLimit: number | null
  /**
   * Fastify 3's callback forms, told apart once at declaration: `stream` reads the payload
   * itself, `(request, payload, done)` with no parseAs; `callback` is `(request, body, done)`
   * with parseAs. Undefined: `(request, body)` returning the value or a promise.
   */
  readonly style?: 'stream' | 'callback'
}
