import { schemaError } from './schema-codes'
import type { HttpPart, ValidateFunction, ValidatorCompiler, ValidatorCompilerInput } from './types'

/** An ajv instance (anything with `compile(schema)`), or a validator compiler function. */
export type PartValidatorSource = { compile(schema: object): ValidateFunction } | ValidatorCompiler

export type PartValidators = Partial<Record<HttpPart, PartValidatorSource>>

/**
 * A validator compiler that picks a validator per request part (spec §3.2), for example to coerce the
 * query string and headers but not the body. Raises ENC_ERR_SCH_PART_VALIDATOR_MISSING, at boot, when
 * `httpPart` is missing or has no validator.
 *
 * @example
 * server.setValidatorCompiler(partValidatorCompiler({
 *   body: new Ajv({ coerceTypes: false }),
 *   querystring: new Ajv({ coerceTypes: 'array' }),
 * }))
 */
export function partValidatorCompiler(validators: PartValidators): ValidatorCompiler {
  const available = (Object.keys(validators) as HttpPart[]).filter((part) => validators[part] !== undefined)
  return (input: ValidatorCompilerInput): ValidateFunction => {
    const part = input.httpPart
    const source = typeof part === 'string' && Object.prototype.hasOwnProperty.call(validators, part)
      ? validators[part as HttpPart]
      : undefined
    if (source === undefined) {
      throw schemaError('ENC_ERR_SCH_PART_VALIDATOR_MISSING', {
        asked: part === undefined || part === '' ? 'no httpPart' : `httpPart '${part}'`, method: input.method, url: input.url, available: available.join(', ') || 'no part',
      })
    }
    return typeof source === 'function' ? source(input) : source.compile(input.schema)
  }
}
