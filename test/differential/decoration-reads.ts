// How the generated apps echo decorations: shared by the encapsulation and plugin-api families.
type Any = any // eslint-disable-line @typescript-eslint/no-explicit-any

/** A decoration's value as an echo route reports it: a function is called (a getter-like method), absent is null. */
export function read(target: Any, name: string): unknown {
  const v = target?.[name]
  return typeof v === 'function' ? v.call(target) : v ?? null
}

/** Whether `target` (a request or reply) has a decorated setter for `name` somewhere up its prototypes. */
export function setterOf(target: Any, name: string): boolean {
  for (let at = Object.getPrototypeOf(target); at !== null; at = Object.getPrototypeOf(at)) {
    const found = Object.getOwnPropertyDescriptor(at, name)
    if (found !== undefined) return found.set !== undefined
  }
  return false
}
