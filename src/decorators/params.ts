import type { Reply as RuntimeReply } from '../runtime/types'
import type { RouteGeneric } from '../runtime/route-generic'
import { declarationError, memberName } from './declaration-error'
import { addParam, getParams } from './metadata'
import type { ParamMeta, ParamSource } from './types'

/** The checks every parameter decorator makes, then its record; `custom` for a createParamDecorator() one. */
export function param(source: ParamSource, name: string, key?: string, custom?: ParamMeta['custom'], shown = key === undefined ? '' : `'${key}'`): ParameterDecorator {
  return (target, propertyKey, index) => {
    const where = `@${name}(${shown}) on parameter ${index} of ${memberName(target, propertyKey)}`
    if (propertyKey === undefined) {
      throw declarationError('ENC_ERR_DECL_TARGET', { where, case: 'constructor-param' })
    }
    if (typeof target === 'function') {
      throw declarationError('ENC_ERR_DECL_STATIC_MEMBER', { where, member: 'param' })
    }
    if (custom === undefined && key !== undefined && (typeof key !== 'string' || key === '')) {
      throw declarationError('ENC_ERR_DECL_ROUTE_OPTIONS', { where, case: 'property-name' })
    }
    if (getParams(target.constructor, propertyKey).some((p) => p.index === index)) {
      throw declarationError('ENC_ERR_DECL_PARAM_DUPLICATE', { where })
    }
    addParam(target.constructor, propertyKey, { index, source, key: key === undefined ? null : source === 'headers' ? key.toLowerCase() : key, ...(custom === undefined ? {} : { custom }) })
  }
}

/**
 * Parameter decorators for route handlers. Resolved at boot into one argument builder per
 * route, so a request pays for an array fill, never for reflection. A handler without any
 * is called as `(request, reply)`.
 *
 * @example
 * // Without a params schema `id` is the URL's string; the schema coerces it and types it.
 * @Get('/:id', { schema: { params: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } } as const })
 * find(@Params('id') id: number, @Query() query: { fields?: string[] }) { return this.items.get(id, query.fields) }
 */
export const Body = (property?: string): ParameterDecorator => param('body', 'Body', property)
export const Query = (property?: string): ParameterDecorator => param('query', 'Query', property)
export const Params = (property?: string): ParameterDecorator => param('params', 'Params', property)
/** Header names are matched lower-case, as Node gives them (spec §2.1). */
export const Headers = (name?: string): ParameterDecorator => param('headers', 'Headers', name)
export const Req = (): ParameterDecorator => param('request', 'Req')
export function Reply(): ParameterDecorator {
  return param('reply', 'Reply')
}
/** The reply type, under the same name as the decorator, so `@Reply() reply: Reply` reads naturally; `Reply<G>` as the runtime's. */
export type Reply<G extends RouteGeneric = RouteGeneric> = RuntimeReply<G>
