import { schemaError } from './schema-codes'
import type { PartValidator, ValidateFunction } from './types'

export interface PartValidatorContext {
  method: string
  url: string
  part: string
}

/**
 * Adapts a compiled validation function to the one shape the runtime handles (spec §4.2, "Validation
 * function contract"). What the function may return, and what it becomes:
 *
 * | returned                               | result                                      |
 * |----------------------------------------|---------------------------------------------|
 * | `true`, `undefined`, anything else     | `undefined`: valid, keep the (coerced) data |
 * | `false`                                | `{ errors: fn.errors }` (ajv style)         |
 * | `{ error: Error }` or an Error         | `{ error }`: used as the validation error   |
 * | `{ error: <errors> }` (truthy)         | `{ errors }`, an array                      |
 * | `{ value }` without a truthy `error`   | `{ value }`: replace the part with `value`  |
 * | a Promise                              | throws ENC_ERR_SCH_ASYNC_RESULT (spec §1.6) |
 *
 * `true` is tested first and returns `undefined`, so the default engine's success path allocates nothing.
 */
export function toPartValidator(fn: ValidateFunction, context: PartValidatorContext): PartValidator {
  return (data) => {
    const result = fn(data)
    if (result === true || result === undefined) return undefined
    if (result === false) return { errors: asErrorList(fn.errors) }
    if (typeof result !== 'object' || result === null) return undefined
    if (result instanceof Error) return { error: result }
    if (typeof (result as PromiseLike<unknown>).then === 'function') {
      throw schemaError('ENC_ERR_SCH_ASYNC_RESULT', { part: context.part, method: context.method, url: context.url })
    }
    const outcome = result as { error?: unknown; value?: unknown }
    if (outcome.error) return outcome.error instanceof Error ? { error: outcome.error } : { errors: asErrorList(outcome.error) }
    if ('value' in outcome) return { value: outcome.value }
    return undefined
  }
}

function asErrorList(errors: unknown): unknown[] {
  if (Array.isArray(errors)) return errors
  return errors === undefined || errors === null ? [] : [errors]
}
