import type { ContentTypeParserFn } from '../types'

/**
 * One content-type parser as `addContentTypeParser` records it (declare/), merged per scope at
 * boot (boot/) and run on the request path (serve/body/).
 */
export interface BodyParser {
  readonly fn: ContentTypeParserFn
  readonly parseAs: 'string' | 'buffer'
  readonly bodyLimit: number | null
}
