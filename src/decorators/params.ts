import type { Reply as RuntimeReply } from '../runtime/types'
import type { RouteGeneric } from '../runtime/route-generic'
import { declarationError, memberName } from './declaration-error'
import { addParam, getParams } from './metadata'
import { describeValue } from './module-options'
import type { ParamSchemaDecorator, ParamSchemaOptions, ParamValue } from './schema-param'
import type { ParamMeta, ParamSource } from './types'

/** The checks every parameter decorator makes, then its record; `custom` for a createParamDecorator() one. */
export function param(source: ParamSource, name: string, key?: string, custom?: ParamMeta['custom'], shown = key === undefined ? '' : `'${key}'`, schema?: ParamSchemaArgs): ParameterDecorator {
  return (target, propertyKey, index) => {
    const where = `@${name}(${shown}${schema === undefined ? '' : ', schema'}) on parameter ${index} of ${memberName(target, propertyKey)}`
    if (propertyKey === undefined) {
      throw declarationError('ENC_ERR_DECL_TARGET', { where, case: 'constructor-param' })
    }
    if (typeof target === 'function') {
      throw declarationError('ENC_ERR_DECL_STATIC_MEMBER', { where, member: 'param' })
    }
    if (custom === undefined && (key !== undefined || schema !== undefined) && (typeof key !== 'string' || key === '')) {
      throw declarationError('ENC_ERR_DECL_ROUTE_OPTIONS', { where, case: 'property-name' })
    }
    if (getParams(target.constructor, propertyKey).some((p) => p.index === index)) {
      throw declarationError('ENC_ERR_DECL_PARAM_DUPLICATE', { where })
    }
    const checked = schema === undefined ? undefined : paramSchema(schema, source, where)
    addParam(target.constructor, propertyKey, {
      index, source, key: key === undefined ? null : source === 'headers' ? key.toLowerCase() : key,
      ...(custom === undefined ? {} : { custom }), ...(checked === undefined ? {} : { schema: checked }),
    })
  }
}

interface ParamSchemaArgs { readonly schema: unknown; readonly options: unknown }

/**
 * The rule for `required` (NestJS's pipes): a path parameter always is; a query or header property
 * with a schema is required unless the schema gives a `default` (DefaultValuePipe) or the options
 * say `{ optional: true }` (ParseIntPipe({ optional: true })), as a ParseIntPipe refuses a missing value.
 * A body property follows the query's rule: its schema makes the route's body a JSON object.
 */
function paramSchema({ schema, options }: ParamSchemaArgs, source: ParamSource, where: string): { schema: object; required: boolean } {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
    throw declarationError('ENC_ERR_DECL_ROUTE_OPTIONS', { where, case: 'param-schema', got: describeValue(schema) })
  }
  const optional = options !== undefined && options !== null && typeof options === 'object' && (options as ParamSchemaOptions).optional === true
  if (options !== undefined && (options === null || typeof options !== 'object' || Object.keys(options).some((k) => k !== 'optional'))) {
    throw declarationError('ENC_ERR_DECL_ROUTE_OPTIONS', { where, case: 'param-schema', got: `options ${describeValue(options)}` })
  }
  return { schema, required: source === 'params' || (!optional && !Object.hasOwn(schema, 'default')) }
}

/**
 * Parameter decorators for route handlers. Resolved at boot into one argument builder per
 * route, so a request pays for an array fill, never for reflection. A handler without any
 * is called as `(request, reply)`.
 *
 * `@Body`, `@Query`, `@Params` and `@Headers` take a property's schema as a second argument (NestJS's
 * ParseIntPipe/DefaultValuePipe habit): it becomes a property of the route's part schema at boot,
 * validated and coerced like one, and the parameter is typed `SchemaParam<T>` (checked against it).
 *
 * @example
 * // Without a params schema `id` is the URL's string; the schema coerces it and types it.
 * @Get('/:id', { schema: { params: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } } as const })
 * find(@Params('id') id: number, @Query() query: { fields?: string[] }) { return this.items.get(id, query.fields) }
 * // The same id, declared on the parameter:
 * @Get('/:id') find(@Params('id', { type: 'integer' }) id: SchemaParam<number>, @Query('page', { type: 'integer', default: 1 }) page: SchemaParam<number>) { ... }
 */
export function Body(property?: string): ParameterDecorator
export function Body<const S extends object, const O extends ParamSchemaOptions = {}>(property: string, schema: S, options?: O): ParamSchemaDecorator<ParamValue<S, O>>
export function Body(property?: string, schema?: unknown, options?: unknown): ParameterDecorator {
  return param('body', 'Body', property, undefined, undefined, schemaArgs(arguments.length, schema, options))
}
export function Query(property?: string): ParameterDecorator
export function Query<const S extends object, const O extends ParamSchemaOptions = {}>(property: string, schema: S, options?: O): ParamSchemaDecorator<ParamValue<S, O>>
export function Query(property?: string, schema?: unknown, options?: unknown): ParameterDecorator {
  return param('query', 'Query', property, undefined, undefined, schemaArgs(arguments.length, schema, options))
}
export function Params(property?: string): ParameterDecorator
export function Params<const S extends object>(property: string, schema: S): ParamSchemaDecorator<ParamValue<S, {}>>
export function Params(property?: string, schema?: unknown): ParameterDecorator {
  return param('params', 'Params', property, undefined, undefined, schemaArgs(arguments.length, schema, undefined))
}
/** Header names are matched lower-case, as Node gives them (spec §2.1). */
export function Headers(name?: string): ParameterDecorator
export function Headers<const S extends object, const O extends ParamSchemaOptions = {}>(name: string, schema: S, options?: O): ParamSchemaDecorator<ParamValue<S, O>>
export function Headers(name?: string, schema?: unknown, options?: unknown): ParameterDecorator {
  return param('headers', 'Headers', name, undefined, undefined, schemaArgs(arguments.length, schema, options))
}
export const Req = (): ParameterDecorator => param('request', 'Req')
export function Reply(): ParameterDecorator {
  return param('reply', 'Reply')
}
/** The reply type, under the same name as the decorator, so `@Reply() reply: Reply` reads naturally; `Reply<G>` as the runtime's. */
export type Reply<G extends RouteGeneric = RouteGeneric> = RuntimeReply<G>

// Told by the argument count, so `@Query('page', undefined)` (a schema that is undefined at run time) is refused, not ignored.
function schemaArgs(count: number, schema: unknown, options: unknown): ParamSchemaArgs | undefined {
  return count < 2 ? undefined : { schema, options }
}
