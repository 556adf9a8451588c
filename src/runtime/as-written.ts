/**
 * Types only: a handler's answer as the response serializer writes it, for the return checks
 * (decorators/handler-fit.ts, written-result.ts). fast-json-stringify writes a `Date` under any `type: 'string'` schema as text
 * (`toISOString()`, or its date or time part under `format: 'date'`/`'time'`) and a `BigInt`
 * under `integer`/`number` as its digits. So a row as a database driver gives it (a `timestamptz`
 * column as a `Date`, an int8 as a `BigInt` with pg's type parser set) fits a schema that says
 * `{ type: 'string', format: 'date-time' }` / `{ type: 'integer' }` without a cast. Read only
 * when the return type does not fit as it is, so a fitting method pays nothing for it.
 */
export type AsWritten<T> = T extends Date ? string
  : T extends bigint ? number
  : T extends (...args: never[]) => unknown ? T
  : T extends object ? { [K in keyof T]: AsWritten<T[K]> }
  : T

