import type { BodyParser } from '../../shared/body-parser'
import { isJsonMediaType } from '../../shared/media-type'

/** The parsers one scope sees, merged once at boot from its ancestors' and its own. */
export class ParserTable {
  readonly #byType: ReadonlyMap<string, BodyParser>
  readonly #patterns: readonly BodyParser[]
  readonly #catchAll: BodyParser | null

  constructor(byType: ReadonlyMap<string, BodyParser>) {
    this.#byType = byType
    this.#patterns = [...byType.values()].filter((parser) => parser.pattern !== null)
    this.#catchAll = byType.get('*') ?? null
  }

  /** Exact media type first; `application/*+json` falls back to the JSON parser; then RegExp types in order; then `*`. */
  find(mediaType: string): BodyParser | null {
    const exact = this.#byType.get(mediaType)
    if (exact !== undefined && exact.pattern === null) return exact
    if (isJsonMediaType(mediaType)) {
      const json = this.#byType.get('application/json')
      if (json !== undefined) return json
    }
    for (const parser of this.#patterns) if ((parser.pattern as RegExp).test(mediaType)) return parser
    return this.#catchAll
  }

  /** The `*` parser, for a body sent without any content type or with one that is no media type; null when none is declared. */
  get catchAll(): BodyParser | null {
    return this.#catchAll
  }

  has(mediaType: string): boolean {
    return this.#byType.has(mediaType)
  }
}
