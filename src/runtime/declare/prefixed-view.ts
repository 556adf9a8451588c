import { ScopeImpl } from './scope'
import { declareRoute, shortcut, trimPrefix } from './route-declaration'
import type { Handler, PluginOptions, RouteOptions, RouteShorthandOptions } from '../types'

/** The real scope behind each view, so a view of a view still declares on the real scope. */
const realScopes = new WeakMap<object, ScopeImpl>()

const shortcuts: Record<string, string | string[]> = {
  get: 'GET', head: 'HEAD', post: 'POST', put: 'PUT', patch: 'PATCH', delete: 'DELETE', options: 'OPTIONS',
  all: ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'OPTIONS'],
}

/**
 * What a lifted plugin registered with a `prefix` runs with: `register(lift(plugin), { prefix })`.
 * Every declaration lands in `owner` itself, as lift() promises (hooks, decorators, schemas,
 * compilers, handlers, parsers), except that the routes it declares and the plugins it
 * registers are under `routePrefix` (already joined with the owner's, trailing slash as written). This is the lifted-module
 * rule too, so one rule serves both forms, and prefixes are joined in the runtime alone.
 *
 * A Proxy rather than a second ScopeImpl: the stores, settable handlers and private methods
 * must stay on the one real scope. Methods run on the real scope; a method that returns the
 * scope returns the view, so chained calls keep the prefix. Declare-time only: nothing here is
 * on the request path (a route's `this` is the real scope).
 */
export function prefixedView(owner: ScopeImpl, routePrefix: string): ScopeImpl {
  const scope = realScopes.get(owner) ?? owner
  const prefix = trimPrefix(routePrefix)
  const overrides: Record<string | symbol, Function> = {
    route(options: RouteOptions) { declareRoute(scope, options, routePrefix); return view },
    register(plugin: unknown, options?: PluginOptions) {
      scope.assertDeclarable('register()')
      scope.context.plugins.enqueue(view, plugin, (options ?? {}) as Record<string, unknown>)
      return view
    },
  }
  for (const [name, method] of Object.entries(shortcuts)) {
    overrides[name] = (path: string, a: Handler | RouteShorthandOptions, b?: Handler) => { shortcut(scope, method, path, a, b, routePrefix); return view }
  }
  const view: ScopeImpl = new Proxy(scope, {
    get(target, key) {
      if (key === 'prefix') return prefix
      if (key === 'routePrefix') return routePrefix
      if (Object.prototype.hasOwnProperty.call(overrides, key)) return overrides[key as string]
      const value: unknown = Reflect.get(target, key, target)
      // Instance decorators are own properties: handed out as they are, like on the scope itself.
      // Only methods are bound: a getter's function value (serializerCompiler) keeps its identity.
      if (typeof value !== 'function' || typeof Object.getOwnPropertyDescriptor(ScopeImpl.prototype, key)?.value !== 'function') return value
      return (...args: unknown[]) => {
        const result: unknown = (value as Function).apply(target, args)
        return result === target ? view : result
      }
    },
  })
  realScopes.set(view, scope)
  return view
}
