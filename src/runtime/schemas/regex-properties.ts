/**
 * Unicode property escapes (`\p{L}`, `\P{Nd}`, `\p{Script=Greek}`) for the backtracking check,
 * which its tokenizer (ret) does not know. Enumerating a property's code points costs tens of ms
 * (measured: \p{L} over the BMP, 75 ms), so a property stays a name: the check swaps each escape
 * for a placeholder character and asks here whether two character sets can overlap. A property
 * meets an explicit range by testing the range's code points when it is small (up to 512),
 * another property by its General_Category when both have one (\p{L} and \p{N} are disjoint), and
 * otherwise is taken to overlap, on the side of warning.
 */

interface Property { readonly name: string; readonly negated: boolean; readonly category: string | null; readonly test: RegExp | null }

/** First placeholder: private-use characters (a pattern holding one of them is not read this way). */
export const PLACEHOLDER_BASE = 0xe000
export const MAX_PROPERTIES = 256
const SMALL_RANGE = 512

const properties: Property[] = []
const ids = new Map<string, number>()

const LONG_CATEGORIES: Readonly<Record<string, string>> = {
  Letter: 'L', Cased_Letter: 'LC', Uppercase_Letter: 'Lu', Lowercase_Letter: 'Ll', Titlecase_Letter: 'Lt', Modifier_Letter: 'Lm', Other_Letter: 'Lo',
  Mark: 'M', Number: 'N', Decimal_Number: 'Nd', digit: 'Nd', Letter_Number: 'Nl', Other_Number: 'No', Punctuation: 'P', punct: 'P',
  Symbol: 'S', Separator: 'Z', Space_Separator: 'Zs', Other: 'C', Control: 'Cc', cntrl: 'Cc',
}

function categoryOf(name: string): string | null {
  const value = name.replace(/^(?:General_Category|gc)=/, '')
  if (/^(?:[LMNPSZC][a-z]?|LC)$/.test(value)) return value
  return LONG_CATEGORIES[value] ?? null
}

/**
 * `source` with every `\p{...}`/`\P{...}` replaced by a placeholder (`\uE000` on), or null when it
 * has none or too many distinct ones were seen. The pattern keeps its structure: a placeholder is one
 * character, in or out of a class.
 */
export function withPropertyPlaceholders(source: string): string | null {
  if (!/\\[pP]\{/.test(source) || /[\ue000-\ue0ff]|\\u[eE]0/.test(source)) return null
  let failed = false
  const out = source.replace(/(\\\\)|\\([pP])\{([^}]*)\}/g, (all: string, escaped: string | undefined, p: string, name: string) => {
    if (escaped !== undefined) return all
    const id = propertyId(name, p === 'P')
    if (id === null) { failed = true; return all }
    return `\\u${(PLACEHOLDER_BASE + id).toString(16).toUpperCase()}`  // ret reads upper-case hex only
  })
  return failed ? null : out
}

function propertyId(name: string, negated: boolean): number | null {
  const key = `${negated ? 'P' : 'p'}${name}`
  const known = ids.get(key)
  if (known !== undefined) return known
  if (properties.length >= MAX_PROPERTIES) return null
  let test: RegExp | null = null
  try { test = new RegExp(`^\\${negated ? 'P' : 'p'}{${name}}$`, 'u') } catch { /* an unknown name: the engine refuses the pattern, the check reads it as anything */ }
  properties.push({ name, negated, category: categoryOf(name), test })
  ids.set(key, properties.length - 1)
  return properties.length - 1
}

/** Whether the property `id` holds a code point of from..to (true when the range is too large to test). */
export function propertyMeetsRange(id: number, from: number, to: number): boolean {
  const property = properties[id]
  if (property.test === null || to - from >= SMALL_RANGE) return true
  for (let cp = from; cp <= to; cp++) if (property.test.test(String.fromCodePoint(cp))) return true
  return false
}

/** The code points of from..to in property `id`, or null when the range is too large to list them. */
export function propertyWithinRange(id: number, from: number, to: number): Array<[number, number]> | null {
  const property = properties[id]
  if (property.test === null || to - from >= SMALL_RANGE) return null
  const out: Array<[number, number]> = []
  for (let cp = from; cp <= to; cp++) {
    if (!property.test.test(String.fromCodePoint(cp))) continue
    const previous = out[out.length - 1]
    if (previous !== undefined && previous[1] === cp - 1) previous[1] = cp
    else out.push([cp, cp])
  }
  return out
}

/** Whether two properties can share a code point. */
export function propertiesMeet(a: number, b: number): boolean {
  const x = properties[a], y = properties[b]
  if (x.name === y.name) return x.negated === y.negated
  if (x.negated || y.negated || x.category === null || y.category === null) return true
  // General categories nest by their first letter (L holds Lu); LC is Lu, Ll and Lt.
  const cx = x.category === 'LC' ? 'L' : x.category, cy = y.category === 'LC' ? 'L' : y.category
  return cx.startsWith(cy) || cy.startsWith(cx)
}

/** The property `\P{X}` for `\p{X}` and back (a class `[^\p{X}]`), or null when no more can be registered. */
export function negatedProperty(id: number): number | null {
  const property = properties[id]
  return propertyId(property.name, !property.negated)
}
