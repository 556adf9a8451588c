/**
 * How the keys of a route's `response` object read, and which keys V8 stores as array indices.
 * Written out rather than as regular expressions (/^[1-5]\d\d$/, /^[1-5]xx$/i, /^(0|[1-9]\d*)$/):
 * V8 runs a regular expression in its interpreter once and compiles it to machine code on the
 * second run, 15-35 µs each. Under `schemaCompilation: 'lazy'` the app's second route to be
 * requested is that run, so two of them cost its first request ~50 µs (issue 16).
 */

const isDigit = (code: number): boolean => code >= 48 && code <= 57

/** '100' to '599': a status code (three digits, the first 1-5). */
export function isStatusKey(key: string): boolean {
  if (key.length !== 3) return false
  const first = key.charCodeAt(0)
  return first >= 49 && first <= 53 && isDigit(key.charCodeAt(1)) && isDigit(key.charCodeAt(2))
}

/** '1xx' to '5xx', either case of each x: a range of status codes. */
export function isRangeKey(key: string): boolean {
  if (key.length !== 3) return false
  const first = key.charCodeAt(0)
  const x = (code: number): boolean => code === 120 || code === 88
  return first >= 49 && first <= 53 && x(key.charCodeAt(1)) && x(key.charCodeAt(2))
}

/** A canonical non-negative integer ('0', '200', not '007' or '-1'): a key V8 keeps in an object's element store. */
export function isIntegerKey(key: string): boolean {
  if (key.length === 0) return false
  const first = key.charCodeAt(0)
  if (first === 48) return key.length === 1
  if (first < 49 || first > 57) return false
  for (let index = 1; index < key.length; index++) if (!isDigit(key.charCodeAt(index))) return false
  return true
}
