/** The flags of the JSON pre-scan (json-scan.ts, json-scan.wat); 0 when none applies. */

/** The text opens more than `maxDepth` nested arrays/objects (brackets in strings do not count). */
export const JSON_TOO_DEEP = 1
/**
 * A number literal may not fit a double: a digit run of 210 or more, or an exponent of three
 * digits or more. Conservative (`1e100` is finite): the caller checks the parsed values then.
 * 210 because with a two-digit exponent (at most 99) only 210+ integer digits reach 10^309.
 */
export const JSON_MAY_OVERFLOW = 2
/**
 * A key could decode to `__proto__` or `constructor`: the body has a backslash (an escaped
 * spelling), starts with a UTF-8 byte-order mark (which secure-json-parse strips), or holds a
 * string literal that is exactly one of the two words. Otherwise JSON.parse returns what
 * secure-json-parse would, without its two regular expressions over the text.
 */
export const JSON_NEEDS_POISON_CHECK = 4

/**
 * A UTF-8 byte-order mark opens the body: secure-json-parse strips it, so it is part of the
 * poison pre-check (JSON_NEEDS_POISON_CHECK).
 */
export function startsWithBom(bytes: Uint8Array): boolean {
  return bytes[0] === 0xEF && bytes[1] === 0xBB && bytes[2] === 0xBF
}
