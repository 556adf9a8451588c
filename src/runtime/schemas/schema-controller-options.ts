import { didYouMean } from './did-you-mean'
import { describeValue, schemaError } from './schema-codes'
import type { SchemaControllerOptions } from './types'

const controllerKeys = ['bucket', 'compilersFactory']
const factoryKeys = ['buildValidator', 'buildSerializer']

/**
 * Checks the server option `schemaController` and `setSchemaController()`'s argument against
 * Fastify 3.27.4's shape, at declaration: a bucket that is not a function, or a misspelt builder,
 * would otherwise surface as a TypeError at boot, or not at all. `where` names the call.
 *
 * @example
 * checkSchemaControllerOptions({ bucket: {} }, 'createServer({ schemaController })')   // throws ENC_ERR_SCH_CONTROLLER_INVALID
 */
export function checkSchemaControllerOptions(value: unknown, where: string): SchemaControllerOptions {
  const invalid = (problem: string): Error => schemaError('ENC_ERR_SCH_CONTROLLER_INVALID', { case: 'option', where, problem })
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(`the options must be an object, got ${describeValue(value)}`)
  const options = value as Record<string, unknown>
  for (const key of Object.keys(options)) {
    if (!controllerKeys.includes(key)) throw invalid(`unknown key '${key}'${didYouMean(key, controllerKeys)}`)
  }
  if (options.bucket !== undefined && typeof options.bucket !== 'function') {
    throw invalid(`schemaController.bucket must be a function, got ${describeValue(options.bucket)}`)
  }
  const factory = options.compilersFactory
  if (factory !== undefined) {
    if (typeof factory !== 'object' || factory === null || Array.isArray(factory)) {
      throw invalid(`schemaController.compilersFactory must be an object, got ${describeValue(factory)}`)
    }
    for (const key of Object.keys(factory)) {
      if (!factoryKeys.includes(key)) throw invalid(`unknown key compilersFactory.${key}${didYouMean(key, factoryKeys)}`)
      const builder = (factory as Record<string, unknown>)[key]
      if (builder !== undefined && typeof builder !== 'function') throw invalid(`compilersFactory.${key} must be a function, got ${describeValue(builder)}`)
    }
  }
  return options as SchemaControllerOptions
}
