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
 * Notes by normalized part, for the route being compiled: eager boot reads them right after it
 * normalizes (no user code in between), then forgets them (forgetPartNotes). A Map emptied per
 * route, not a WeakMap kept for the server's life: its entries would be ephemerons every GC of the
 * boot traces specially, 2,000 of them per 1,000 routes.
 */
const notesByPart = new Map<object, PartNotes>()

/** The route's compilation is over (or failed): its parts' notes are read by nothing more. */
export function forgetPartNotes(): void {
  if (notesByPart.size > 0) notesByPart.clear()
}

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

/** One walk's state: module-level functions over it, not closures made per part (1,000s per boot). */
interface Walk {
  readonly accepts: (key: string) => boolean
  readonly boundsStop: boolean
  readonly events: PartWarnEvent[]
  /** The path from the normalized part's root, as unescaped tokens: pointers are built only when used. */
  readonly path: string[]
  readonly copies: Map<object, unknown>
  // regular: a tree of plain objects, arrays and JSON values (the notes hold); jsonOnly: what
  // copySchemaNoting notes (a shared node is still JSON).
  regular: boolean
  jsonOnly: boolean
  mayBeAsync: boolean
  sawFunction: boolean
  unknown: { key: string; pointer: string } | null
}

/**
 * Copies `part` (as copySchemaNoting does: the same copy) and, when it is a tree of JSON values,
 * notes the keyword verdict and the warnings walk's events for the normalized part. `wrapped`:
 * the part is JSON shorthand, normalized as `{ type: 'object', properties: part }`, so its own keys
 * are property names and the duties see it under `/properties`.
 */
export function copyWithDuties(part: JsonSchema, wrapped: boolean, duties: PartDuties): OneWalkCopy {
  const warn = duties.warnBoundsStop !== null
  const walk: Walk = {
    accepts: acceptsFor(duties), boundsStop: duties.warnBoundsStop === true, events: [], path: [], copies: new Map(),
    regular: true, jsonOnly: true, mayBeAsync: false, sawFunction: false, unknown: null,
  }
  let copy: unknown
  if (wrapped) {
    // The wrapper `{ type: 'object', properties }` holds only known keywords and warns of nothing.
    walk.path.push('properties')
    copy = names(walk, part as Record<string, unknown>, true, warn)
    walk.path.pop()
  } else {
    copy = position(walk, part, true, warn)
  }
  if (walk.jsonOnly && typeof copy === 'object' && copy !== null) markJsonOnly(copy)
  const notes: PartNotes | null = walk.regular
    ? { known: duties.known, extra: duties.extra, unknown: walk.unknown, warnEvents: warn ? walk.events : null, warnBoundsStop: duties.warnBoundsStop }
    : null
  return { copy: copy as JsonSchema, mayBeAsync: walk.mayBeAsync, sawFunction: walk.sawFunction, notes }
}

// One accepter per duties object (one per validator and setting), not one per part.
const accepters = new WeakMap<PartDuties, (key: string) => boolean>()

function acceptsFor(duties: PartDuties): (key: string) => boolean {
  let accepts = accepters.get(duties)
  if (accepts === undefined) accepters.set(duties, accepts = keywordAccepter(duties.known, duties.extra))
  return accepts
}

/** A value in no duty's position: copied as copySchemaNoting copies it. */
function data(walk: Walk, value: unknown): unknown {
  if (typeof value !== 'object' || value === null) {
    if (typeof value === 'function') { walk.sawFunction = true; walk.regular = walk.jsonOnly = false } else if (typeof value === 'number' && !Number.isFinite(value)) walk.regular = walk.jsonOnly = false
    return value
  }
  if (!Array.isArray(value) && !isPlainObject(value)) { walk.regular = walk.jsonOnly = false; return value }
  const done = walk.copies.get(value)
  if (done !== undefined) { walk.regular = false; return done }
  if (Array.isArray(value)) {
    const array = new Array<unknown>(value.length)
    walk.copies.set(value, array)
    for (let index = 0; index < array.length; index++) array[index] = data(walk, value[index])
    return array
  }
  const record: Record<string, unknown> = {}
  walk.copies.set(value, record)
  const source = value as Record<string, unknown>
  for (const key in source) {
    if (!hasOwn.call(source, key)) continue
    if (key === '$async' && source.$async !== false) walk.mayBeAsync = true
    if (key === '__proto__') walk.regular = false
    record[key] = data(walk, source[key])
  }
  return record
}

/** A value in a schema position of at least one duty: arrays hold schema positions, objects are nodes. */
function position(walk: Walk, value: unknown, check: boolean, warn: boolean): unknown {
  if (typeof value !== 'object' || value === null) return data(walk, value)
  if (!Array.isArray(value)) return node(walk, value as Record<string, unknown>, check, warn)
  const done = walk.copies.get(value)
  if (done !== undefined) { walk.regular = false; return done }
  const array = new Array<unknown>(value.length)
  walk.copies.set(value, array)
  for (let index = 0; index < array.length; index++) {
    walk.path.push(String(index))
    array[index] = position(walk, value[index], check, warn)
    walk.path.pop()
  }
  return array
}

/** A map of names to schema positions (`properties`): the map itself is no duty's node. */
function names(walk: Walk, map: Record<string, unknown>, check: boolean, warn: boolean): Record<string, unknown> {
  if (!isPlainObject(map)) { walk.regular = walk.jsonOnly = false; return map }
  const done = walk.copies.get(map)
  if (done !== undefined) { walk.regular = false; return done as Record<string, unknown> }
  const record: Record<string, unknown> = {}
  walk.copies.set(map, record)
  for (const name in map) {
    if (!hasOwn.call(map, name)) continue
    if (name === '$async' && map.$async !== false) walk.mayBeAsync = true
    if (name === '__proto__') walk.regular = false
    walk.path.push(name)
    record[name] = position(walk, map[name], check, warn)
    walk.path.pop()
  }
  return record
}

function node(walk: Walk, source: Record<string, unknown>, check: boolean, warn: boolean): unknown {
  if (!isPlainObject(source)) { walk.regular = walk.jsonOnly = false; return source }
  const done = walk.copies.get(source)
  if (done !== undefined) { walk.regular = false; return done }
  const record: Record<string, unknown> = {}
  walk.copies.set(source, record)
  if (warn) warnAt(walk, source)
  for (const key in source) {
    if (!hasOwn.call(source, key)) continue
    if (key === '$async' && source.$async !== false) walk.mayBeAsync = true
    if (key === '__proto__') walk.regular = false
    // The check's pointer: the node's path, its tokens unescaped, '/' at the root.
    if (check && walk.unknown === null && !walk.accepts(key)) walk.unknown = { key, pointer: walk.path.map((token) => `/${token}`).join('') || '/' }
    const value = source[key]
    if (typeof value !== 'object' || value === null) { record[key] = data(walk, value); continue }
    // The keyword check descends into the keywords that hold subschemas; the warnings walk into
    // every object but instance data (keyword-check.ts and schema-walk.ts's visitSchemas).
    const checkBelow = check && (KEYWORD_SCHEMA_MAPS.has(key) ? isObject(value) : KEYWORD_SCHEMA_VALUES.has(key))
    const warnBelow = warn && !DATA_KEYWORDS.has(key)
    if (!checkBelow && !warnBelow) { record[key] = data(walk, value); continue }
    walk.path.push(key)
    record[key] = NAME_MAPS.has(key) && isObject(value) ? names(walk, value, checkBelow, warnBelow) : position(walk, value, checkBelow, warnBelow)
    walk.path.pop()
  }
  return record
}

/** The boot warnings' visit of one node (boot/schema-warnings.ts), as events. */
function warnAt(walk: Walk, source: Record<string, unknown>): void {
  if (uniqueItemsUnbounded(source, walk.boundsStop)) walk.events.push({ kind: 'unique', pointer: warnPointer(walk.path) })
  const risky = riskyPatternsAt(source, walk.boundsStop)
  for (let i = 0; i < risky.length; i++) walk.events.push({ kind: 'pattern', pointer: warnPointer(walk.path) + risky[i] })
  if (typeof source.$ref === 'string') walk.events.push({ kind: 'ref', ref: source.$ref })
}

function warnPointer(path: readonly string[]): string {
  let pointer = ''
  for (let i = 0; i < path.length; i++) pointer += `/${escapePointer(path[i])}`
  return pointer
}

/** Leaves `notes` for the duties that read the normalized part `schema` later in this boot. */
export function noteNormalizedPart(schema: object, notes: PartNotes): void {
  notesByPart.set(schema, notes)
}
