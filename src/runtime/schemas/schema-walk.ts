/**
 * Traversal helpers over JSON Schema objects: find `$async`, collect `$ref`s, copy. Schema-aware, so a
 * property that happens to be *named* `$async` or `$ref` (a key of `properties`) or a `default` value
 * that contains one is not taken for the keyword.
 */

/** Keywords whose value maps names to subschemas: the map's own keys are names, not keywords. */
const NAME_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependencies', 'dependentSchemas'])
/** Keywords whose value is instance data, never a schema. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples'])

const hasOwn = Object.prototype.hasOwnProperty
const propertyIsEnumerable = Object.prototype.propertyIsEnumerable

/** `pointer()` builds the JSON pointer of `node` on demand: most visits never need it. */
type Visit = (node: Record<string, unknown>, pointer: () => string) => boolean | void

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1')
}

/**
 * Calls `visit` on every object in a schema position (the root included), depth first. `visit`
 * returning `true` stops the walk. Shared object references and cycles are visited once.
 */
export function visitSchemas(schema: unknown, visit: Visit): void {
  // A Set, not a WeakSet: it lives for one walk (a WeakSet's entries are ephemerons the GC treats specially).
  const seen = new Set<object>()
  // The path to the node being visited, as unescaped tokens: one array for the whole walk.
  const path: string[] = []
  const pointer = (): string => path.map((token) => `/${escapePointer(token)}`).join('')
  let stopped = false

  const walk = (node: unknown): void => {
    if (stopped || typeof node !== 'object' || node === null || seen.has(node)) return
    seen.add(node)
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index++) {
        path.push(String(index))
        walk(node[index])
        path.pop()
      }
      return
    }
    const record = node as Record<string, unknown>
    if (visit(record, pointer) === true) {
      stopped = true
      return
    }
    // for-in with an own-key test: Object.keys' order without a keys array per node. A value that is
    // not an object holds no subschema: most keys (type, maxLength...) end here, with no path step.
    for (const key in record) {
      if (!hasOwn.call(record, key)) continue
      const value = record[key]
      if (typeof value !== 'object' || value === null || DATA_KEYWORDS.has(key)) continue
      path.push(key)
      if (NAME_MAPS.has(key) && isObject(value)) {
        for (const name in value) {
          if (!hasOwn.call(value, name)) continue
          path.push(name)
          walk(value[name])
          path.pop()
        }
      } else {
        walk(value)
      }
      path.pop()
    }
  }

  walk(schema)
}

/**
 * The JSON pointer of the first subschema that declares `$async` (other than `$async: false`, which
 * asks for the synchronous behaviour we have anyway), or null.
 */
export function findAsync(schema: unknown): string | null {
  let found: string | null = null
  visitSchemas(schema, (node, pointer) => {
    if (Object.prototype.hasOwnProperty.call(node, '$async') && node.$async !== false) {
      const at = pointer()
      found = at === '' ? '/' : at
      return true
    }
    return false
  })
  return found
}

/** Every `$ref` string in the schema, in document order, without duplicates. */
export function collectRefs(schema: unknown): string[] {
  const refs = new Set<string>()
  visitSchemas(schema, (node) => {
    if (typeof node.$ref === 'string') refs.add(node.$ref)
  })
  return [...refs]
}

/**
 * A structural copy of plain objects and arrays; other values (RegExp, functions that some validator
 * keywords accept) are kept by reference. Used so that normalization never mutates the user's objects.
 */
export function copySchema<T>(value: T): T {
  return copySchemaNoting(value).copy
}

/** What copySchemaNoting saw on its way, so that callers need no second walk in the common case. */
export interface NotedCopy<T> {
  readonly copy: T
  /**
   * Some object in the copy, in any position, has an own `$async` key other than `$async: false`.
   * Only then can findAsync (which knows schema positions) find one.
   */
  readonly mayBeAsync: boolean
  /** Some value in the copy is a function (a schema class nested in the schema, or a keyword's function value). */
  readonly sawFunction: boolean
}


/**
 * TypeBox 1.x (`typebox`) marks each schema node with non-enumerable `~kind` (and `~optional`,
 * `~readonly` ...), which its own checkers read: `Value.Convert` and `Compile` in
 * @fastify/type-provider-typebox's TypeBoxValidatorCompiler coerce params and querystring by them,
 * and convert nothing on a copy without them. for-in skips them, so they are carried over as they
 * were, still non-enumerable: ajv, the keyword check and the cache key never see them.
 */
function isTypeBoxNode(source: object): boolean {
  return hasOwn.call(source, '~kind') && !propertyIsEnumerable.call(source, '~kind')
}

function copyTypeBoxMarks(source: object, record: Record<string, unknown>): void {
  for (const name of Object.getOwnPropertyNames(source)) {
    if (name.charCodeAt(0) !== 126 || propertyIsEnumerable.call(source, name)) continue   // 126: '~'
    Object.defineProperty(record, name, { value: (source as Record<string, unknown>)[name], enumerable: false, writable: true, configurable: true })
  }
}

// Copies holding only JSON values (no RegExp, function, class instance or non-finite number): their cache key is their plain JSON text.
const jsonOnlyCopies = new WeakSet<object>()

/** copySchema, noting on the way what normalization would otherwise walk the schema again for. */
export function copySchemaNoting<T>(value: T): NotedCopy<T> {
  const copies = new Map<object, unknown>()
  let mayBeAsync = false
  let jsonOnly = true
  let sawFunction = false
  const copy = (node: unknown): unknown => {
    if (typeof node !== 'object' || node === null) {
      if (typeof node === 'function') sawFunction = true
      if (typeof node === 'function' || (typeof node === 'number' && !Number.isFinite(node))) jsonOnly = false
      return node
    }
    const prototype = Object.getPrototypeOf(node)
    if (!Array.isArray(node) && prototype !== Object.prototype && prototype !== null) {
      jsonOnly = false
      return node
    }
    const done = copies.get(node)
    if (done !== undefined) return done   // a cycle or a shared subschema keeps its shape in the copy
    if (Array.isArray(node)) {
      // Sized up front: an array grown by push() keeps 17 slots for one item (136 bytes), and the
      // copies live as long as the server (about 8,000 such arrays per 1,000 routes: 1 MB of heap
      // that every scavenge during boot copied). A hole is copied as undefined, as push() did.
      const array = new Array<unknown>(node.length)
      copies.set(node, array)
      for (let index = 0; index < array.length; index++) array[index] = copy(node[index])
      return array
    }
    const record: Record<string, unknown> = {}
    copies.set(node, record)
    const source = node as Record<string, unknown>
    // for-in, not Object.keys(): the same own keys in the same order without a keys array per
    // object (1.3 MB over 1,000 routes). Inherited enumerable keys (a polluted prototype) are skipped.
    for (const key in source) {
      if (!hasOwn.call(source, key)) continue
      if (key === '$async' && source.$async !== false) mayBeAsync = true
      // A `__proto__` key (JSON.parse makes one) assigned would become the copy's prototype and
      // vanish from every later walk, the keyword check's included: define it as the own key it is.
      if (key === '__proto__') Object.defineProperty(record, key, { value: copy(source[key]), enumerable: true, writable: true, configurable: true })
      else record[key] = copy(source[key])
    }
    if (isTypeBoxNode(source)) copyTypeBoxMarks(source, record)
    return record
  }
  const result = copy(value) as T
  if (jsonOnly && typeof result === 'object' && result !== null) jsonOnlyCopies.add(result)
  return { copy: result, mayBeAsync, sawFunction }
}

/**
 * A stable text key for caching compiled functions: the schema's JSON text, with the non-JSON values
 * some keywords accept (RegExp, functions) written out so that they do not all collapse to `{}`, and
 * non-finite numbers so that `maximum: Infinity` is not `maximum: null` (which ajv refuses).
 * A copy made by copySchemaNoting that holds none of them is written by JSON.stringify alone (the
 * replacer, called once per value, costs about as much again).
 */
export function schemaCacheKey(schema: unknown): string {
  if (typeof schema === 'object' && schema !== null && jsonOnlyCopies.has(schema)) {
    lastText = JSON.stringify(schema)
    lastTextOf = schema
    return lastText
  }
  return JSON.stringify(schema, (_key, value: unknown) =>
    value instanceof RegExp || typeof value === 'function' || (typeof value === 'number' && !Number.isFinite(value)) ? `\u0000${String(value)}` : value)
}

// The last text schemaCacheKey wrote for a JSON-only copy (which normalization made and nothing
// mutates after): its JSON.stringify text. The body's finite guard reads the same schema's text
// right after its validator is compiled, so a route does not write it twice (1 KB a route).
let lastTextOf: object | null = null
let lastText = ''

/** JSON.stringify(schema), reusing the text schemaCacheKey has just written for the same copy. */
export function schemaJsonText(schema: unknown): string {
  return schema === lastTextOf && lastTextOf !== null ? lastText : JSON.stringify(schema)
}
