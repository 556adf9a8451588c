import type { BodyParser } from '../../shared/body-parser'
import { isJsonMediaType, typeAsSent } from '../../shared/media-type'

/** The parsers one scope sees, merged once at boot from its ancestors' and its own. */
export class ParserTable {
  readonly #byType: ReadonlyMap<string, BodyParser>
  readonly #patterns: readonly BodyParser[]
  readonly #catchAll: BodyParser | null

  constructor(byType: ReadonlyMap<string, BodyParser>) {
    this.#byType = byType
    // Latest declared first, as Fastify 3 tries them (its parserRegExpList is unshifted).
    this.#patterns = [...byType.values()].filter((parser) => parser.pattern !== null).reverse()
    this.#catchAll = byType.get('*') ?? null
  }

  /**
   * The parser for a request: its exact media type first (Fastify 3: string types win over
   * RegExp ones); then the RegExp types, tested against the Content-Type as sent (its case kept,
   * parameters left out), also when it is no valid media type; then `application/*+json` falls
   * back to the JSON parser; then `*`. `mediaType` is null when the header is absent or no
   * media type. The common case (JSON, text) is one map lookup.
   */
  find(mediaType: string | null, header: string | undefined): BodyParser | null {
    if (mediaType !== null) {
      const exact = this.#byType.get(mediaType)
      if (exact !== undefined && exact.pattern === null) return exact
    }
    if (this.#patterns.length > 0 && header !== undefined) {
      const sent = typeAsSent(header)
      for (const parser of this.#patterns) if ((parser.pattern as RegExp).test(sent)) return parser
    }
    if (mediaType !== null && isJsonMediaType(mediaType)) {
      const json = this.#byType.get('application/json')
      if (json !== undefined) return json
    }
    return this.#catchAll
  }

  has(mediaType: string): boolean {
    return this.#byType.has(mediaType)
  }
}
