import type { PathParamNames } from '../runtime/path-params-type'
import { Params } from './params'
import type { ParamSchemaDecorator, ParamValue } from './schema-param'

/*
 * `@Params('idd')` cannot be a compile error: a legacy parameter decorator is typed before it
 * knows which method, let alone which route path, it decorates. A path bound to a value first can
 * be: `routePath('/:id')` reads its names from the literal, and its `params('id')` takes only
 * those. Give the route decorator the same value's `path`: the types do not tie `@Get(x.path)` to
 * `@x.params(...)`, so a route written with another path is caught at boot instead
 * (ENC_ERR_MODULE_PARAM_NOT_IN_PATH).
 */

/** A parameter name of `P`, or any string when `P` is no literal (the boot check, ENC_ERR_MODULE_PARAM_NOT_IN_PATH, still applies). */
export type ParamNameOf<P extends string> = string extends P ? string : PathParamNames<P>

/** A route path and the `@Params` decorators for the names it declares (docs/controllers.md). */
export interface RoutePath<P extends string> {
  /** The path, as the route decorator (or `@Route` prefix) takes it. */
  readonly path: P
  /**
   * `@Params(name)` or `@Params(name, schema)`, `name` checked against the path at compile time.
   * One signature, not two overloads, so a wrong name reads "not assignable to '"id" | "tag"'".
   */
  params<const S extends object = never>(name: ParamNameOf<P>, schema?: S): [S] extends [never] ? ParameterDecorator : ParamSchemaDecorator<ParamValue<S, {}>>
}

/**
 * Binds a route path to its parameter decorators:
 * `const item = routePath('/:id')`, then `@Get(item.path) find(@item.params('id') id: string)`;
 * `@item.params('idd')` does not compile. A controller prefix with parameters gets its own
 * (`@Route(org.path)`, `@org.params('org')`).
 */
export function routePath<const P extends string>(path: P): RoutePath<P> {
  function params(name: string, ...schema: [] | [object]): ParameterDecorator | ParamSchemaDecorator<unknown> {
    // The argument count, not the value, tells the forms apart, as @Params itself does.
    return schema.length === 0 ? Params(name) : Params(name, schema[0])
  }
  return Object.freeze({ path, params: params as unknown as RoutePath<P>['params'] })
}
