/**
 * One pass over a JSON text before it is parsed, for the two checks JSON.parse cannot make:
 * nesting depth (so no depth reaches a stack overflow in validation or serialization) and number
 * literals that may be too large for a double. It replaces a character loop plus a regular
 * expression over the whole text: strings, most of a typical body, are skipped with
 * `indexOf('"')`, and numbers are looked at only outside strings (a 64 KB body: about 3x less
 * CPU than the two passes; bench `bulk`).
 */

/** The text opens more than `maxDepth` nested arrays/objects (brackets in strings do not count). */
export const JSON_TOO_DEEP = 1
/**
 * A number literal may not fit a double: a digit run of 210 or more, or an exponent of three
 * digits or more. Conservative (`1e100` is finite): the caller checks the parsed values then.
 * 210 because with a two-digit exponent (at most 99) only 210+ integer digits reach 10^309.
 */
export const JSON_MAY_OVERFLOW = 2

const LONG_DIGIT_RUN = 210

/** Where the string opened at `open` closes (the index of its quote), or -1 when it does not. */
function closingQuote(text: string, open: number): number {
  let end = text.indexOf('"', open + 1)
  while (end !== -1) {
    // A quote preceded by an odd number of backslashes is escaped: keep looking.
    let slashes = 0
    for (let k = end - 1; text.charCodeAt(k) === 92 /* \ */; k--) slashes++
    if ((slashes & 1) === 0) return end
    end = text.indexOf('"', end + 1)
  }
  return -1
}

/** JSON_TOO_DEEP and JSON_MAY_OVERFLOW flags for `text`; 0 when neither applies. Never throws. */
export function scanJson(text: string, maxDepth: number): number {
  let depth = 0
  let flags = 0
  let run = 0
  const n = text.length
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i)
    if (c >= 48 && c <= 57) { // 0-9
      if (++run >= LONG_DIGIT_RUN) flags |= JSON_MAY_OVERFLOW
      continue
    }
    if ((c === 101 || c === 69) && run > 0) { // e, E right after a digit: an exponent
      let j = i + 1
      if (text.charCodeAt(j) === 43 /* + */) j++
      let k = j
      while (k < n && text.charCodeAt(k) >= 48 && text.charCodeAt(k) <= 57) k++
      if (k - j >= 3) flags |= JSON_MAY_OVERFLOW
      run = 0
      i = Math.max(i, k - 1)
      continue
    }
    run = 0
    if (c === 34) { // "
      const end = closingQuote(text, i)
      if (end === -1) return flags // unterminated: JSON.parse reports it
      i = end
    } else if (c === 123 || c === 91) { // { [
      if (++depth > maxDepth) return flags | JSON_TOO_DEEP
    } else if (c === 125 || c === 93) { // } ]
      depth--
    }
  }
  return flags
}

/**
 * Whether secure-json-parse's look for `__proto__` and `constructor` keys is needed. Without a
 * backslash (no escaped spelling), a byte-order mark (which it strips) or either word in the
 * text, no key can decode to either, and plain JSON.parse returns the same result without its
 * two regular expressions over the text.
 */
export function needsPoisonCheck(text: string): boolean {
  return text.charCodeAt(0) === 0xFEFF || text.includes('\\') || text.includes('__proto__') || text.includes('constructor')
}
