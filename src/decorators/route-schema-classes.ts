import 'reflect-metadata'
import type { JsonSchema } from '../runtime/schemas/types'
import { paramNames } from '../runtime/shared/param-names'
import { declarationError } from './declaration-error'
import { getParams } from './metadata'
import type { ParamMeta } from './types'
import { inlineSchemaClasses, isSchemaClass, isSchemaClassRoot, routeSchemaOfClass } from './schema-class'

type SchemaClassValue = Function & { readonly schema: JsonSchema }
const requestParts = ['body', 'querystring', 'query', 'params', 'headers'] as const
const partOfSource = { body: 'body', query: 'querystring', params: 'params', headers: 'headers' } as const

/**
 * The route schema a route method really has, worked out at declaration:
 * - a schema class given in the options (any request part, any response status, or nested in one
 *   of their schemas) becomes the JSON Schema the runtime compiles (`{ $ref: '<$id>#' }` or the
 *   inlined schema, see routeSchemaOfClass);
 * - a whole-part parameter decorator on a parameter whose declared type is a schema class
 *   (`create(@Body() note: NewNote)`, read from `design:paramtypes`) gives that part its schema,
 *   so the shape is declared once. An explicit schema for the same part must be that class.
 */
export function resolveRouteSchema(target: object, propertyKey: string | symbol, where: string, schema: unknown): unknown {
  const params = getParams(target.constructor, propertyKey)
  // A method without parameter decorators (most) has no type metadata worth reading.
  const types = params.length === 0 ? undefined : Reflect.getMetadata('design:paramtypes', target, propertyKey) as unknown[] | undefined
  const fromParams = parameterClasses(params, types)
  if (fromParams.size === 0) checkUnreadParamTypes(target, propertyKey, where, schema, params, types)
  checkPlainClassParams(where, schema, params, types)
  // Classes in any part or response, at any depth (`{ type: 'array', items: Cat }`).
  const inlined = inlineSchemaClasses(schema)
  if (fromParams.size === 0) {
    checkUntypedNamedParams(where, (inlined ?? {}) as Record<string, unknown>, params, types, false)
    return inlined
  }
  const given = (schema ?? {}) as Record<string, unknown>
  const out: Record<string, unknown> = { ...(inlined ?? {}) as Record<string, unknown> }
  for (const [part, { cls, index }] of fromParams) {
    if (part === 'headers') checkHeaderNames(where, index, cls)
    checkPlainData(where, index, part, cls)
    const explicit = partSchemaOf(given, part)
    if (explicit === undefined) {
      out[part] = routeSchemaOfClass(cls)
      continue
    }
    if (!agrees(explicit, cls)) {
      throw declarationError('ENC_ERR_DECL_SCHEMA_CONFLICT',
        { where, index, className: cls.name, part, optionKey: part === 'querystring' && given.querystring === undefined ? 'query' : part })
    }
  }
  checkUntypedNamedParams(where, out, params, types, true)
  return out
}

const sourceNames = { query: 'Query', params: 'Params', headers: 'Headers' } as const
const partDecorators = { body: '@Body()', querystring: '@Query()', query: '@Query()', params: '@Params()', headers: '@Headers()' } as const

/**
 * A whole-part parameter gets the validated part itself, a plain object, never an instance of its
 * class: a method or accessor the class declares (a NestJS DTO habit, with ValidationPipe's
 * transform) would type-check and be undefined at run time: its prototype's members, then its
 * instance fields (instanceFields); its own schema statics and the SchemaClass base are not members.
 */
function checkPlainData(where: string, index: number, part: string, cls: SchemaClassValue): void {
  const members: string[] = []
  for (let proto: object | null = cls.prototype as object; proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    if (isSchemaClassRoot((proto as { constructor: unknown }).constructor)) break
    for (const key of Reflect.ownKeys(proto)) {
      if (key === 'constructor') continue
      const descriptor = Object.getOwnPropertyDescriptor(proto, key)!
      const name = memberName(key)
      members.push(descriptor.get !== undefined || descriptor.set !== undefined ? `get ${name}` : `${name}()`)
    }
  }
  const fields = instanceFields(cls)
  members.push(...fields.members)
  if (members.length === 0) return
  throw declarationError('ENC_ERR_DECL_PARAM_CLASS_MEMBERS', { where, index, decorator: partDecorators[part as keyof typeof partDecorators] ?? part, className: cls.name, members, valueFields: fields.valueFields })
}

const memberName = (key: string | symbol): string => typeof key === 'symbol' ? `[${key.description ?? 'symbol'}]` : key

/**
 * The instance fields a class declares with an initializer (`total = 0`, `total = () => ...`) are
 * no prototype members: they exist only on an instance, set by its constructor, so one is built
 * (with no data: SchemaClass's constructor then copies nothing, and what is left on it is the
 * fields). A function never survives as plain data; a value does only where the validated object
 * always has that property: the schema requires it or fills it in (a `default`). A constructor that
 * throws without data shows nothing, and is let be (its prototype members were still checked).
 */
function instanceFields(cls: SchemaClassValue): { members: string[]; valueFields: boolean } {
  const fields = { members: [] as string[], valueFields: false }
  let instance: object
  try {
    instance = Reflect.construct(cls, []) as object
  } catch {
    return fields
  }
  const { properties, required } = cls.schema as { properties?: unknown; required?: unknown }
  const always = (key: string): boolean => {
    if (Array.isArray(required) && required.includes(key)) return true
    const property: unknown = typeof properties === 'object' && properties !== null && Object.hasOwn(properties, key) ? (properties as Record<string, unknown>)[key] : undefined
    return typeof property === 'object' && property !== null && Object.hasOwn(property, 'default')
  }
  for (const key of Reflect.ownKeys(instance)) {
    const value = (instance as Record<string | symbol, unknown>)[key]
    if (typeof value === 'function') fields.members.push(`${memberName(key)} = () => …`)
    else if (value !== undefined && (typeof key === 'symbol' || !always(key))) {
      fields.members.push(`${memberName(key)} = ${describeInitial(value)}`)
      fields.valueFields = true
    }
  }
  return fields
}

function describeInitial(value: unknown): string {
  // JSON.stringify throws on a BigInt (`big = 0n`): it is written as the source spells it.
  const text = typeof value === 'object' && value !== null ? (Array.isArray(value) ? '[…]' : '{…}') : typeof value === 'bigint' ? `${value}n` : JSON.stringify(value) ?? String(value)
  return text.length > 20 ? `${text.slice(0, 19)}…` : text
}

/**
 * A class that types a whole `@Headers()` parameter is also that parameter's TypeScript type, which
 * cannot be lowercased as the headers are: a capitalised name would type a key that never holds a
 * value (validation lowercases it and passes). The top level is where header names are.
 */
function checkHeaderNames(where: string, index: number, cls: SchemaClassValue): void {
  const { properties, required } = cls.schema as { properties?: unknown; required?: unknown }
  const names = [
    ...(properties !== null && typeof properties === 'object' ? Object.keys(properties) : []),
    ...(Array.isArray(required) ? required.filter((name): name is string => typeof name === 'string') : []),
  ]
  const name = names.find((n) => n !== n.toLowerCase())
  if (name !== undefined) throw declarationError('ENC_ERR_DECL_HEADER_NAME', { where, index, className: cls.name, name })
}

/**
 * A named query/params/headers parameter typed number or boolean (`design:paramtypes`) in a part
 * that has no schema at all is a string at run time (`page + 1` is '11'), so refuse it. The route
 * decorator's types refuse it too, except where they cannot see it: beside a whole-part class
 * parameter (`@Body() b: CreateBook` lets `@Query('n') n: number` compile, since a class property
 * may type a named parameter of its own part), and in a build that emits metadata without
 * type-checking (swc: `nest start -b swc`, vitest with unplugin-swc).
 */
function checkUntypedNamedParams(where: string, schema: Record<string, unknown>, params: readonly ParamMeta[], types: unknown[] | undefined, besideClass: boolean): void {
  if (types === undefined) return
  for (const param of params) {
    // `@Query('page', { type: 'integer' })` gives the property its own schema at boot.
    if (param.key === null || param.schema !== undefined || !(param.source in sourceNames)) continue
    const type = types[param.index]
    if (type !== Number && type !== Boolean) continue
    const part = partOfSource[param.source as keyof typeof sourceNames]
    const partSchema = partSchemaOf(schema, part)
    if (partSchema !== undefined && partSchema !== null) continue
    throw declarationError('ENC_ERR_DECL_PARAM_TYPE', { where, index: param.index, decorator: `@${sourceNames[param.source as keyof typeof sourceNames]}('${param.key}')`,
      type: type === Number ? 'number' : 'boolean', part, besideClass })
  }
}

/**
 * Without decorator metadata (esbuild, tsx, vitest on vite 7 or older) `create(@Body() note: NewNote)`
 * looks like `create(@Body() note)`: the class that would validate the body is not seen, and the
 * route would take any body. A whole-part parameter whose part has no schema in the options is
 * refused then; `schema: { body: {} }` says "any body" on purpose.
 */
function checkUnreadParamTypes(target: object, propertyKey: string | symbol, where: string, schema: unknown, params: readonly ParamMeta[], types: unknown[] | undefined): void {
  if (params.length === 0 || types !== undefined) return
  const given = (schema ?? {}) as Record<string, unknown>
  for (const param of [...params].sort((a, b) => a.index - b.index)) {
    if (param.key !== null || !(param.source in partOfSource)) continue
    const part = partOfSource[param.source as keyof typeof partOfSource]
    const explicit = partSchemaOf(given, part)
    if (explicit !== undefined && explicit !== null) continue
    // `@Query('page', { type: 'integer' })` beside it gives the part a schema at boot.
    if (params.some((other) => other.source === param.source && other.schema !== undefined)) continue
    throw declarationError('ENC_ERR_DECL_PARAM_TYPES_UNREAD', { where, index: param.index, decorator: partDecorators[part], part, param: methodParamName(target, propertyKey, param.index) })
  }
}

/**
 * A NestJS habit: `create(@Body() dto: CreateBookDto)` with a plain class (class-validator's
 * decorators on its fields, and a global ValidationPipe). Nothing here reads those decorators, so
 * without a schema for the part the body would be taken unvalidated, silently: refuse it, as a
 * missing schema class is refused when metadata is missing. The route decorator's types refuse it
 * too; this is for builds that emit metadata without type-checking (swc: `nest start -b swc`,
 * vitest with unplugin-swc). An interface is `Object` in the metadata and a built-in (`Buffer`,
 * `Array`) is a global: neither is taken for a DTO.
 */
function checkPlainClassParams(where: string, schema: unknown, params: readonly ParamMeta[], types: unknown[] | undefined): void {
  if (types === undefined) return
  const given = (schema ?? {}) as Record<string, unknown>
  for (const param of params) {
    if (param.key !== null || param.custom !== undefined || !(param.source in partOfSource)) continue
    const type = types[param.index]
    if (typeof type !== 'function' || isSchemaClass(type) || isBuiltIn(type)) continue
    const part = partOfSource[param.source as keyof typeof partOfSource]
    const explicit = partSchemaOf(given, part)
    if (explicit !== undefined && explicit !== null) continue
    if (params.some((other) => other.source === param.source && other.schema !== undefined)) continue
    throw declarationError('ENC_ERR_DECL_PARAM_PLAIN_CLASS', { where, index: param.index, decorator: partDecorators[part], part, className: type.name })
  }
}

/** A part's schema in the route options: the querystring may be given as `query`, as Fastify allows. */
function partSchemaOf(schema: Record<string, unknown>, part: string): unknown {
  return part === 'querystring' ? schema.querystring ?? schema.query : schema[part]
}

function isBuiltIn(type: Function): boolean {
  return type.name !== '' && (globalThis as Record<string, unknown>)[type.name] === type
}

/** A method's parameter name, for the message (`create(note, reply)`): null when it cannot be read. */
function methodParamName(target: object, propertyKey: string | symbol, index: number): string | null {
  const method = (target as Record<string | symbol, unknown>)[propertyKey]
  return typeof method === 'function' ? paramNames(method)[index] ?? null : null
}

/** A method without parameter decorators (most): nothing to find, and no type metadata to read. */
const noParameterClasses: ReadonlyMap<string, { cls: SchemaClassValue; index: number }> = new Map()

function parameterClasses(params: readonly ParamMeta[], types: unknown[] | undefined): ReadonlyMap<string, { cls: SchemaClassValue; index: number }> {
  if (params.length === 0) return noParameterClasses
  const found = new Map<string, { cls: SchemaClassValue; index: number }>()
  if (types === undefined) return found
  for (const param of params) {
    if (param.key !== null || !(param.source in partOfSource)) continue
    const type = types[param.index]
    if (isSchemaClass(type)) found.set(partOfSource[param.source as keyof typeof partOfSource], { cls: type, index: param.index })
  }
  return found
}

/** The explicit part schema is the class itself, its schema object, or a `$ref` to its `$id`. */
function agrees(explicit: unknown, cls: SchemaClassValue): boolean {
  if (explicit === cls || explicit === cls.schema) return true
  if (isSchemaClass(explicit)) return explicit.schema === cls.schema
  const ref = (explicit as { $ref?: unknown } | null)?.$ref
  const id = cls.schema.$id
  return typeof ref === 'string' && typeof id === 'string' && (ref === id || ref === `${id}#`)
}
