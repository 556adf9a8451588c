/**
 * fast-json-stringify 7 serializers as code, for the schema cache. Its `mode: 'standalone'` returns
 * the serializer as the text of a CommonJS module that requires two of its own files (the
 * serializer helpers and, for anyOf/oneOf/if, a validator restored from saved state). Evaluating
 * that text with a `require` that hands out exactly those two modules (the ones fast-json-stringify
 * exports for this purpose) gives the function `build()` would have returned; any other `require`
 * is refused, so a text that needs something else is not used.
 */
import type { SerializeFunction } from '../types'

/* eslint-disable @typescript-eslint/no-var-requires */
const standaloneDependencies = (require('fast-json-stringify/lib/standalone') as { dependencies: { Serializer: unknown; Validator: unknown } }).dependencies

const modules: Readonly<Record<string, unknown>> = {
  'fast-json-stringify/lib/serializer': standaloneDependencies.Serializer,
  'fast-json-stringify/lib/validator': standaloneDependencies.Validator,
}

function standaloneRequire(name: string): unknown {
  if (!Object.prototype.hasOwnProperty.call(modules, name)) throw new Error(`schema cache: stored serializer code requires '${name}'`)
  return modules[name]
}

/** The serializer a standalone module text defines. Throws when the text does not evaluate to one. */
export function evaluateStandaloneSerializer(code: unknown): SerializeFunction {
  if (typeof code !== 'string') throw new Error('schema cache: a stored serializer is not code')
  const module: { exports: unknown } = { exports: undefined }
  // eslint-disable-next-line no-new-func
  new Function('module', 'exports', 'require', code)(module, module.exports, standaloneRequire)
  if (typeof module.exports !== 'function') throw new Error('schema cache: stored serializer code does not export a function')
  return module.exports as SerializeFunction
}
