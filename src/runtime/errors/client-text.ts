/**
 * The longest client-sent text (a property name, the data path its keys make) an error message or
 * its log line repeats whole. Longer text is cut to its first 100 characters and its length: a
 * 300 KB JSON key otherwise came back in a 300 KB 400 and six times in its log line (1.8 MB).
 */
export const CLIENT_TEXT_LIMIT = 120

/**
 * The most validation errors a 400 message (and a logged `err.validation`) lists. Past it the rest
 * are counted, not written: with `allErrors: true`, 60 KB of `[{},{},...]` against items with ten
 * required properties is 200,000 errors, a 10 MB 400 and a 32 MB log line (Fastify 3 and 5: 10 MB
 * and 63 MB), a 700x amplification any client can ask for.
 */
export const VALIDATION_ERRORS_LISTED = 100

export function clipClientText(text: string): string {
  return text.length <= CLIENT_TEXT_LIMIT ? text : clipAt(text, 100)
}

/** `text` cut to its first `keep` characters and its length (log-text.ts clips log lines with it too). */
export function clipAt(text: string, keep: number): string {
  // A cut between the two halves of a surrogate pair (an emoji) would leave a lone surrogate,
  // which JSON.stringify writes as a \udXXX escape that no client can decode into a character.
  const code = text.charCodeAt(keep - 1)
  const end = code >= 0xd800 && code <= 0xdbff ? keep - 1 : keep
  return `${text.slice(0, end)}... (${text.length} characters)`
}
