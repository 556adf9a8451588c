/**
 * Process-wide record of declarations, kept only to catch one mistake at boot: a class with
 * route methods that no module lists (the routes would silently not exist). A class counts as
 * listed when any `@Module()` declared so far lists it or one of its subclasses, in any app:
 * the check cannot know which app a class was meant for, so it only reports true orphans.
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

/** Classes with route methods that no declared module lists, in declaration order. */
export function unlistedRouteClasses(): Function[] {
  return [...routeClasses].filter((c) => !listedControllers.has(c))
}
