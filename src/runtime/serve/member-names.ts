/**
 * Every name an object answers to: its own fields and the members of its prototype chain, up to
 * (not including) Object.prototype. Used to derive the names a request/reply decorator may not
 * take from the classes themselves, so a field added to RequestImpl or ReplyImpl is reserved
 * without anyone keeping a list in sync.
 */
export function memberNames(instance: object, extra: readonly string[] = []): ReadonlySet<string> {
  const names = new Set<string>(extra)
  for (let o: object | null = instance; o !== null && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const name of Object.getOwnPropertyNames(o)) names.add(name)
  }
  return names
}
