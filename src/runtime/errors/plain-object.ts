// In errors/, the bottom of the runtime (every folder may import it): HttpError's own checks need it too.
/** An object literal (or a null-prototype object): not an array, a class instance, a Map or a Buffer. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}
