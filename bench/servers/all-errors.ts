/**
 * The `all-400` endpoint: POST /strict/items, the /items route declared in a scope whose ajv has
 * `allErrors: true` (what users turn on to show every mistake in a form at once), sent a body
 * with four mistakes. Every contender declares that scope the way its users would: a child
 * plugin or module with its own validator compiler, so the other endpoints keep the defaults.
 */
export const STRICT_PATH = '/strict/items'

/** Four mistakes: name too long, price below the minimum, too many tags, a tag that is an object. */
export const invalidItemMany = {
  name: 'w'.repeat(60),
  price: -1,
  tags: ['a', 'b', 'c', 'd', 'e', { not: 'a string' }],
}

/** Each mistake's field, all of which an allErrors answer names. */
export const allErrorsFields = ['name', 'price', 'tags']
