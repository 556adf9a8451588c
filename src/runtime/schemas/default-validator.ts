import Ajv from 'ajv'
import { cacheBySchema } from './compile-cache'
import type { SharedSchema, ValidateFunction, ValidatorCompiler, ValidatorOptions, ValidatorPlugin } from './types'

/**
 * The baseline ajv 6 options (spec §2.7, DESIGN §5), before `validator.customOptions`. `jsonPointers`
 * makes error paths read `querystring/hello` rather than `querystring.hello`; `allErrors` stays off
 * (it is a known denial-of-service risk and is enabled at the user's risk).
 */
export const baselineValidatorOptions = Object.freeze({
  removeAdditional: true,
  useDefaults: true,
  coerceTypes: true,
  nullable: true,
  jsonPointers: true,
  allErrors: false,
})

/** Applies `validator.plugins` (each `plugin` or `[plugin, options]`) to one validator instance. */
export function applyValidatorPlugins(instance: unknown, plugins: readonly ValidatorPlugin[] | undefined): void {
  for (const entry of plugins ?? []) {
    if (Array.isArray(entry)) entry[0](instance, entry[1])
    else entry(instance)
  }
}

/**
 * The default validator compiler for one set of visible shared schemas: one ajv 6 instance with the
 * baseline options merged with `validator.customOptions`, the plugins applied and every shared schema
 * added, so that all six `$ref` forms of spec §2.3 resolve. Each distinct schema is compiled once.
 * Compile errors (invalid schema, ajv's MissingRefError) are thrown as they are; the route compiler
 * turns them into coded errors.
 */
export function buildDefaultValidator(externalSchemas: Record<string, SharedSchema>, options: ValidatorOptions): ValidatorCompiler {
  const ajv = new Ajv({ ...baselineValidatorOptions, ...options.customOptions })
  applyValidatorPlugins(ajv, options.plugins)
  for (const id of Object.keys(externalSchemas)) ajv.addSchema(externalSchemas[id] as object)
  return cacheBySchema(({ schema }) => ajv.compile(schema) as ValidateFunction)
}
