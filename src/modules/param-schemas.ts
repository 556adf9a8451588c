import { isDeepStrictEqual } from 'node:util'
import { getParams, type ParamMeta } from '../decorators/internal'
import { isCompleteSchema, pathParamNames } from '../runtime/internal'
import { moduleError } from './module-error'

const partOf = { query: 'querystring', params: 'params', headers: 'headers', body: 'body' } as const
type SchemaPart = typeof partOf[keyof typeof partOf]
const decoratorOf: Record<SchemaPart, string> = { querystring: 'Query', params: 'Params', headers: 'Headers', body: 'Body' }

/**
 * The route's schema with the parameters' own schemas (`@Query('page', { type: 'integer' })`) as
 * properties of their part's object schema, built once at boot: validation, coercion, defaults, the
 * 400 messages (`querystring/page should be integer`) and openapi() are then the route schema's.
 * A part the route options also declare is merged when it is a plain object schema and every
 * property declared twice is declared the same; else boot fails naming both declarations.
 * A method without parameter schemas keeps its options' schema object as it is.
 */
export function withParamSchemas(schema: unknown, declaringClass: Function, key: string | symbol, where: string, onePathOfSeveral?: string, methods: readonly string[] = [], jsonShorthand = true): unknown {
  let declared = getParams(declaringClass, key).filter((p): p is ParamMeta & { schema: NonNullable<ParamMeta['schema']>; key: string } => p.schema !== undefined && p.key !== null)
  if (declared.length === 0) return schema
  // `@Get() @Post()` on one method: the body property is the POST route's; the GET route, whose
  // body is never parsed, reads it as undefined (NestJS's @Body() on a GET). A method with no route
  // taking a body was refused before this (body-on-get.ts, ENC_ERR_MODULE_BODY_NOT_PARSED).
  if (methods.length > 0 && methods.every(bodiless) && declared.some((p) => p.source === 'body')) {
    declared = declared.filter((p) => p.source !== 'body')
    if (declared.length === 0) return schema
  }
  const merged: Record<string, unknown> = { ...(schema as Record<string, unknown> | undefined) }
  for (const part of [...new Set(declared.map((p) => partOf[p.source as keyof typeof partOf]))]) {
    // `query` is the runtime's alias of `querystring`: a route that wrote it keeps it (adding a `querystring` beside it is refused at declaration).
    const key = part === 'querystring' && merged.querystring === undefined && merged.query !== undefined ? 'query' : part
    merged[key] = mergePart(merged[key], part, declared.filter((p) => partOf[p.source as keyof typeof partOf] === part), where, part === 'params' ? onePathOfSeveral : undefined, jsonShorthand)
  }
  return merged
}

function bodiless(method: string): boolean { return method === 'GET' || method === 'HEAD' }

type Declared = ParamMeta & { schema: NonNullable<ParamMeta['schema']>; key: string }

/**
 * `onePathOfSeveral`: the route's own path when its method declares several routes (`@Get('/')
 * @Get('/:id')`, NestJS's optional id). Each route gets the parameter's schema, required only where
 * that path names it: a matched path parameter is always there, so `required` only ever refused the
 * route without it. A name from a module prefix (`/:tenant`) is unseen here, and stays optional:
 * present on every request all the same.
 */
function mergePart(given: unknown, part: SchemaPart, params: readonly Declared[], where: string, onePathOfSeveral?: string, jsonShorthand = true): object {
  const inPath = onePathOfSeveral === undefined ? undefined : new Set(pathParamNames(onePathOfSeveral))
  // A shorthand part (`querystring: { limit: {...} }`, properties at the top level) is read as its
  // object schema first, as the runtime reads it: merged as written, its properties would become unknown keywords.
  // With createServer({ jsonShorthand: false }) the runtime reads every part as a complete schema, and so does this.
  const written = jsonShorthand && isPlainObject(given) && !isCompleteSchema(given) ? { type: 'object', properties: given } : given
  if (written !== undefined && !mergeable(written)) {
    throw moduleError('ENC_ERR_MODULE_PARAM_SCHEMA_CONFLICT', { case: 'not-mergeable', where, part, params: params.map((p) => `@${decoratorOf[part]}('${p.key}', ...)`) })
  }
  const base = (written ?? { type: 'object' }) as { properties?: Record<string, unknown>; required?: readonly string[] }
  const properties: Record<string, unknown> = { ...base.properties }
  const required = new Set(base.required ?? [])
  const fromParams = new Map<string, unknown>()
  for (const p of params) {
    const shown = `@${decoratorOf[part]}('${p.key}', ${JSON.stringify(p.schema.schema)})`
    // Header names are compared lower-case (the runtime lowercases a headers schema's property
    // names at compile): the route's 'X-Tenant' and @Headers('X-Tenant', ...) are one property,
    // kept under the route's spelling so that its required list still names it once.
    const name = part === 'headers' ? Object.keys(properties).find((k) => k.toLowerCase() === p.key) ?? p.key : p.key
    const earlier = fromParams.get(name)
    if (earlier !== undefined && !isDeepStrictEqual(earlier, p.schema.schema)) {
      throw moduleError('ENC_ERR_MODULE_PARAM_SCHEMA_CONFLICT', { case: 'two-params', where, part, key: name, first: JSON.stringify(earlier), second: shown })
    }
    if (earlier === undefined && Object.hasOwn(properties, name) && !isDeepStrictEqual(properties[name], p.schema.schema)) {
      throw moduleError('ENC_ERR_MODULE_PARAM_SCHEMA_CONFLICT', { case: 'route-schema', where, part, key: name, first: JSON.stringify(properties[name]), second: shown })
    }
    fromParams.set(name, p.schema.schema)
    properties[name] = p.schema.schema
    if (p.schema.required && (inPath === undefined || inPath.has(p.key)) && ![...required].some((r) => part === 'headers' ? r.toLowerCase() === p.key : r === name)) required.add(name)
  }
  return { ...base, type: 'object', properties, ...(required.size === 0 ? {} : { required: [...required] }) }
}

/** A plain object schema written inline: a $ref, a class, a TypeBox value or a combinator is not merged into. */
function mergeable(given: unknown): boolean {
  if (!isPlainObject(given)) return false
  const s = given
  if (s.type !== undefined && s.type !== 'object') return false
  return !['$ref', '$id', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'patternProperties'].some((k) => Object.hasOwn(s, k))
}

/** An object literal: not a class, a TypeBox value (symbol keys) or an array. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  return Object.getPrototypeOf(value) === Object.prototype && Object.getOwnPropertySymbols(value).length === 0
}
