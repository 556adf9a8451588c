/**
 * Normalized part copies in which no object has a key the boot warnings read (`uniqueItems`,
 * `pattern`, `patternProperties`, `$ref`), as the copy itself noted (schema-walk.ts): the warnings'
 * walk of such a part cannot find a place to warn about nor a shared schema to follow, so it is
 * skipped. It cost 15-70 µs per route, cold, on a lazy route's first request, and ~16 ms per 1,000
 * routes of an eager boot. A copy is written once by normalization and read-only after (inspect()
 * documents it so), so the note stays true. Anything else (a user's object, a rewritten copy) is
 * not in the set and is walked as before.
 */
const warningFree = new WeakSet<object>()

export function noteWarningFree(copy: object): void {
  warningFree.add(copy)
}

export function isWarningFree(part: object): boolean {
  return warningFree.has(part)
}
