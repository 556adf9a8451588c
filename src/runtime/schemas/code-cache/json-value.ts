/**
 * Whether a value survives JSON.stringify/JSON.parse unchanged: null, booleans, finite numbers,
 * strings, arrays and plain objects of those. What the schema cache stores as data (a schema, a
 * `default`) must be such a value, or the stored copy would not behave like the original.
 */
export function isPlainJson(value: unknown, depth = 0): boolean {
  if (depth > 256) return false
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true
  if (typeof value === 'number') return Number.isFinite(value)
  if (typeof value !== 'object') return false
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!(i in value) || !isPlainJson(value[i], depth + 1)) return false
    return true
  }
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) return false
  if ('toJSON' in value) return false
  for (const key of Object.keys(value)) {
    // `__proto__` as an own key would become the prototype when parsed back into an object literal.
    if (key === '__proto__' || !isPlainJson((value as Record<string, unknown>)[key], depth + 1)) return false
  }
  return true
}

/**
 * The text of an option value for a cache key: JSON, with a RegExp written as its source and flags
 * (ajv's `formats` may hold them). null when the value holds anything else that JSON cannot tell
 * apart (a function, a class instance, undefined in an array): such options are not cached.
 * With `regexps` false a RegExp is refused too, for options that are stored as JSON (a RegExp
 * would come back as `{}`).
 */
export function optionText(value: unknown, regexps = true): string | null {
  let refused = false
  const text = JSON.stringify(value, function (this: Record<string, unknown>, key, given: unknown) {
    // The value before any toJSON (a Date would otherwise pass as a string).
    const item = key === '' ? value : this[key]
    if (item instanceof RegExp) {
      if (!regexps) refused = true
      return { '\u0000regexp': item.source, flags: item.flags }
    }
    if (item === undefined || item === null || typeof item === 'string' || typeof item === 'boolean') return item
    if (typeof item === 'number') {
      if (!Number.isFinite(item)) refused = true
      return item
    }
    if (typeof item === 'object') {
      const proto = Object.getPrototypeOf(item)
      if (!Array.isArray(item) && proto !== Object.prototype && proto !== null) refused = true
      if ('toJSON' in item) refused = true
      return given
    }
    refused = true
    return null
  })
  return refused ? null : text ?? 'undefined'
}
