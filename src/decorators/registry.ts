import { getControllerMeta } from './metadata'

/**
 * Process-wide record of declarations, kept only to catch one mistake at boot: route methods
 * (@Get, @Route, ...) in a class that has no class-level @Route() and that no module lists.
 * Such a class can never serve its routes, whichever app boots, so reporting it is always
 * right. A complete controller (with @Route()) that no module lists is not reported: it may
 * belong to another app in the same process, or to a module a factory has not declared yet.
 */
const routeClasses = new Set<Function>()
const listedControllers = new Set<Function>()

export function recordRouteClass(target: Function): void {
  routeClasses.add(target)
}

export function recordListedControllers(controllers: readonly Function[]): void {
  for (const controller of controllers) {
    // A base class holding inherited route methods is "listed" through its subclass.
    for (let c: unknown = controller; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
      listedControllers.add(c as Function)
    }
  }
}

/** Classes with route methods, no class-level @Route() and no module listing them, in declaration order. */
export function unlistedRouteClasses(): Function[] {
  return [...routeClasses].filter((c) => getControllerMeta(c) === undefined && !listedControllers.has(c))
}
