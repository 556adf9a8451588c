import type { AsWritten } from './as-written'

/*
 * Types only: what a runtime route's handler return is checked against, given what it returns
 * (`R`, inferred from the handler): `Expected` (what the response schemas declare), or `R` itself
 * when it fits only as the serializer writes it (a `Date` under a `date-time` string, a `BigInt`
 * under an integer: as-written.ts), as a route method's return check reads it.
 *
 * Read from the handler's inferred return type, not by widening `Expected`: while the handler is
 * being typed `R` is not known yet, so its return expressions get `Expected` as their contextual
 * type (a literal stays a literal for an `enum` schema), and a return that fits neither way is
 * checked against `Expected` alone, with the same error as without this.
 */
export type WrittenResult<Expected, R> = [R] extends [Expected] ? Expected
  : [AsWrittenResult<R>] extends [Expected] ? R : Expected
// A Promise's value as written, kept in a Promise (what an async handler's answer is checked as).
type AsWrittenResult<R> = R extends PromiseLike<infer V> ? Promise<AsWritten<V>> : AsWritten<R>
