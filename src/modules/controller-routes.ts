import type { RouteOptions } from '../runtime'
import { getControllerMeta, getOwnRoutes, type Class, type RouteMeta } from '../decorators/internal'
import { buildHandler } from './argument-builder'
import { joinPaths } from './module-tree'

/**
 * The runtime route definitions of one controller instance. Route methods may be inherited:
 * a subclass serves its base class's routes (with its own overrides of the methods), and a
 * method it re-decorates replaces the base's routes for that method.
 */
export function controllerRoutes(controller: Class, instance: object, modulePath: string): RouteOptions[] {
  const prefix = getControllerMeta(controller)!.prefix
  const routes: RouteOptions[] = []
  for (const { declaringClass, route } of collectRoutes(controller)) {
    const where = `${route.methods.join(',')} route ${controller.name}.${String(route.propertyKey)} in ${modulePath}`
    const method = route.methods.length === 1 ? route.methods[0] : [...route.methods]
    routes.push({
      ...route.options,
      method,
      // The controller's @Route('/users') is part of the route's path; scope prefixes are the runtime's.
      url: joinPaths([prefix], route.path),
      handler: buildHandler(instance, declaringClass, route.propertyKey, where),
    })
  }
  return routes
}

function collectRoutes(controller: Class): Array<{ declaringClass: Function; route: RouteMeta }> {
  const found: Array<{ declaringClass: Function; route: RouteMeta }> = []
  const overridden = new Set<string | symbol>()
  for (let c: unknown = controller; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    const own = getOwnRoutes(c as Function).filter((r) => !overridden.has(r.propertyKey))
    for (const route of own) found.push({ declaringClass: c as Function, route })
    for (const route of own) overridden.add(route.propertyKey)
  }
  return found
}
