import { markJsonOnly } from './schema-walk'
import { riskyPatternsAt } from './pattern-check'
import { uniqueItemsUnbounded } from './unique-items-check'
import { keywordAccepter, KEYWORD_SCHEMA_MAPS, KEYWORD_SCHEMA_VALUES, type KnownKeywords } from './keyword-check'
import type { JsonSchema } from './types'

/**
 * The duties an eager boot runs over every route schema part, done in the walk that copies it
 * (session 20): the unknown-keyword verdict (keyword-check.ts) and the boot warnings' events
 * (boot/schema-warnings.ts). Each duty used to walk the part again after the copy; one walk costs
 * about a third of the three (1,000 `distinct` routes, fresh processes: 48 → 31 ms). The verdicts
 * are read by the duties themselves, which still throw and warn where and when they did: a walk
 * here throws nothing and warns about nothing.
 *
 * Only a tree of plain objects, arrays and JSON values is read this way. A part with a node reached
 * twice (a shared subschema, a cycle), a class instance, a RegExp, a function, a non-finite
 * number or an own `__proto__` key (which the copy's assignment turns into the copy's prototype,
 * so the duties, reading the copy, do not see it) gets no notes, and each duty then walks it on its own as before: the duties' walks keep a
 * node's first place (its pointer) by their own descent rules, which a shared node would make differ.
 */
export interface PartDuties {
  /** The validator's keywords and `validator.customKeywords`: the check of keyword-check.ts. */
  readonly known: KnownKeywords
  readonly extra: ReadonlySet<string>
  /** The boot warnings' walk, with its `boundsStop` (false under allErrors); null: a response part, not walked for warnings. */
  readonly warnBoundsStop: boolean | null
}

/** What the boot warnings' walk would have met in the normalized part, in its order. */
export type PartWarnEvent = { readonly kind: 'unique' | 'pattern'; readonly pointer: string } | { readonly kind: 'ref'; readonly ref: string }

/** The notes one walk left on a normalized part, for the duties that read it later in the same boot. */
export interface PartNotes {
  readonly known: KnownKeywords
  readonly extra: ReadonlySet<string>
  /** The first unknown keyword the check would throw for, with its pointer as the check writes it; null: none. */
  readonly unknown: { readonly key: string; readonly pointer: string } | null
  /** The warnings walk's events; null when the part was not walked for warnings (a response). */
  readonly warnEvents: readonly PartWarnEvent[] | null
  readonly warnBoundsStop: boolean | null
}

/**
 * Notes by normalized part. A WeakMap: a normalized part lives as long as its route, and nothing
 * else must keep it. Read only by the boot that made them (eager boot compiles right after it
 * normalizes, with no user code in between).
 */
const notesByPart = new WeakMap<object, PartNotes>()

export function partNotes(schema: unknown): PartNotes | undefined {
  return typeof schema === 'object' && schema !== null ? notesByPart.get(schema) : undefined
}

/** What copySchemaNoting returns, from the one walk (schema-walk.ts). */
export interface OneWalkCopy {
  readonly copy: JsonSchema
  readonly mayBeAsync: boolean
  readonly sawFunction: boolean
  /** Notes for the normalized part, or null when the part is not a tree of JSON values. */
  readonly notes: PartNotes | null
}

/** Keys whose value is instance data, never a schema (visitSchemas' DATA_KEYWORDS). */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples'])
/** Keywords whose value maps names to subschemas for the warnings walk (visitSchemas' NAME_MAPS). */
const NAME_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependencies', 'dependentSchemas'])

const hasOwn = Object.prototype.hasOwnProperty

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value)
  return prototype === Object.prototype || prototype === null
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function escapePointer(token: string): string {
  return token.indexOf('~') === -1 && token.indexOf('/') === -1 ? token : token.replace(/~/g, '~0').replace(/\//g, '~1')
}

/**
 * Copies `part` (as copySchemaNoting does: the same copy) and, when it is a tree of JSON values,
 * notes the keyword verdict and the warnings walk's events for the normalized part. `wrapped`:
 * the part is JSON shorthand, normalized as `{ type: 'object', properties: part }`, so its own keys
 * are property names and the duties see it under `/properties`.
 */
export function copyWithDuties(part: JsonSchema, wrapped: boolean, duties: PartDuties): OneWalkCopy {
  const accepts = keywordAccepter(duties.known, duties.extra)
  const warn = duties.warnBoundsStop !== null
  const boundsStop = duties.warnBoundsStop === true
  const events: PartWarnEvent[] = []
  // The path from the normalized part's root, as unescaped tokens: pointers are built only when used.
  const path: string[] = []
  const copies = new Map<object, unknown>()
  // regular: a tree of plain objects, arrays and JSON values (the notes hold); jsonOnly: what
  // copySchemaNoting notes (a shared node is still JSON).
  let regular = true
  let jsonOnly = true
  let mayBeAsync = false
  let sawFunction = false
  let unknown: { key: string; pointer: string } | null = null

  // A value in no duty's position: copied as copySchemaNoting copies it.
  const data = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null) {
      if (typeof value === 'function') { sawFunction = true; regular = jsonOnly = false } else if (typeof value === 'number' && !Number.isFinite(value)) regular = jsonOnly = false
      return value
    }
    if (!Array.isArray(value) && !isPlainObject(value)) { regular = jsonOnly = false; return value }
    const done = copies.get(value)
    if (done !== undefined) { regular = false; return done }
    if (Array.isArray(value)) {
      const array = new Array<unknown>(value.length)
      copies.set(value, array)
      for (let index = 0; index < array.length; index++) array[index] = data(value[index])
      return array
    }
    const record: Record<string, unknown> = {}
    copies.set(value, record)
    const source = value as Record<string, unknown>
    for (const key in source) {
      if (!hasOwn.call(source, key)) continue
      if (key === '$async' && source.$async !== false) mayBeAsync = true
      if (key === '__proto__') regular = false
      record[key] = data(source[key])
    }
    return record
  }

  // A value in a schema position of at least one duty: arrays hold schema positions, objects are nodes.
  const position = (value: unknown, check: boolean, warnHere: boolean): unknown => {
    if (typeof value !== 'object' || value === null) return data(value)
    if (!Array.isArray(value)) return node(value as Record<string, unknown>, check, warnHere)
    const done = copies.get(value)
    if (done !== undefined) { regular = false; return done }
    const array = new Array<unknown>(value.length)
    copies.set(value, array)
    for (let index = 0; index < array.length; index++) {
      path.push(String(index))
      array[index] = position(value[index], check, warnHere)
      path.pop()
    }
    return array
  }

  // A map of names to schema positions (`properties`): the map itself is no duty's node.
  const names = (map: Record<string, unknown>, check: boolean, warnHere: boolean): Record<string, unknown> => {
    if (!isPlainObject(map)) { regular = jsonOnly = false; return map }
    const done = copies.get(map)
    if (done !== undefined) { regular = false; return done as Record<string, unknown> }
    const record: Record<string, unknown> = {}
    copies.set(map, record)
    for (const name in map) {
      if (!hasOwn.call(map, name)) continue
      if (name === '$async' && map.$async !== false) mayBeAsync = true
      if (name === '__proto__') regular = false
      path.push(name)
      record[name] = position(map[name], check, warnHere)
      path.pop()
    }
    return record
  }

  const node = (source: Record<string, unknown>, check: boolean, warnHere: boolean): unknown => {
    if (!isPlainObject(source)) { regular = jsonOnly = false; return source }
    const done = copies.get(source)
    if (done !== undefined) { regular = false; return done }
    const record: Record<string, unknown> = {}
    copies.set(source, record)
    if (warnHere) {
      if (uniqueItemsUnbounded(source, boundsStop)) events.push({ kind: 'unique', pointer: warnPointer() })
      const risky = riskyPatternsAt(source, boundsStop)
      for (let i = 0; i < risky.length; i++) events.push({ kind: 'pattern', pointer: warnPointer() + risky[i] })
      if (typeof source.$ref === 'string') events.push({ kind: 'ref', ref: source.$ref })
    }
    for (const key in source) {
      if (!hasOwn.call(source, key)) continue
      if (key === '$async' && source.$async !== false) mayBeAsync = true
      if (key === '__proto__') regular = false
      // The check's pointer: the node's path, its tokens unescaped, '/' at the root.
      if (check && unknown === null && !accepts(key)) unknown = { key, pointer: path.map((token) => `/${token}`).join('') || '/' }
      const value = source[key]
      if (typeof value !== 'object' || value === null) { record[key] = data(value); continue }
      // The keyword check descends into the keywords that hold subschemas; the warnings walk into
      // every object but instance data (keyword-check.ts and schema-walk.ts's visitSchemas).
      const checkBelow = check && (KEYWORD_SCHEMA_MAPS.has(key) ? isObject(value) : KEYWORD_SCHEMA_VALUES.has(key))
      const warnBelow = warnHere && !DATA_KEYWORDS.has(key)
      path.push(key)
      if (!checkBelow && !warnBelow) record[key] = data(value)
      else if (NAME_MAPS.has(key) && isObject(value)) record[key] = names(value, checkBelow, warnBelow)
      else record[key] = position(value, checkBelow, warnBelow)
      path.pop()
    }
    return record
  }

  const warnPointer = (): string => {
    let pointer = ''
    for (let i = 0; i < path.length; i++) pointer += `/${escapePointer(path[i])}`
    return pointer
  }

  let copy: unknown
  if (wrapped) {
    // The wrapper `{ type: 'object', properties }` holds only known keywords and warns of nothing.
    path.push('properties')
    copy = names(part as Record<string, unknown>, true, warn)
    path.pop()
  } else {
    copy = position(part, true, warn)
  }
  if (jsonOnly && typeof copy === 'object' && copy !== null) markJsonOnly(copy)
  const notes: PartNotes | null = regular
    ? { known: duties.known, extra: duties.extra, unknown, warnEvents: warn ? events : null, warnBoundsStop: duties.warnBoundsStop }
    : null
  return { copy: copy as JsonSchema, mayBeAsync, sawFunction, notes }
}

/** Leaves `notes` for the duties that read the normalized part `schema` later in this boot. */
export function noteNormalizedPart(schema: object, notes: PartNotes): void {
  notesByPart.set(schema, notes)
}
