import type Ajv8 from 'ajv8'
import { applyValidatorPlugins, cacheBySchema } from './default-compilers'
import type { CompilersFactory, SharedSchema, ValidateFunction, ValidatorCompiler, ValidatorOptions, ValidatorPlugin } from './types'

export interface Ajv8FactoryOptions {
  /** ajv 8 options, merged over the baseline and over the server's `validator.customOptions`. */
  customOptions?: Record<string, unknown>
  /** ajv 8 plugins (ajv-formats, ajv-errors 3 ...), each `plugin` or `[plugin, options]`. */
  plugins?: ValidatorPlugin[]
}

/**
 * ajv 6 options that ajv 8 dropped or renamed: ajv 8 always reports JSON-pointer `instancePath`s and
 * supports `nullable` as a keyword, so these are left out rather than passed on.
 */
const AJV6_ONLY_OPTIONS = new Set(['jsonPointers', 'nullable', 'errorDataPath', 'extendRefs', 'missingRefs',
  'schemaId', 'unknownFormats', 'format', 'serialize', 'sourceCode'])

/**
 * The same baseline as the default validator, for ajv 8. `strict: false` because Enclave schemas may
 * carry keywords ajv 8 does not know (`example`, documentation keys ...), which strict mode refuses.
 * `addUsedSchema: false` for the same reason as the default validator: route schemas stay private.
 */
export const ajv8BaselineOptions = Object.freeze({
  removeAdditional: true,
  useDefaults: true,
  coerceTypes: true,
  allErrors: false,
  strict: false,
  addUsedSchema: false,
})

/**
 * A `schemaController.compilersFactory` whose validators use ajv 8 (spec §9) with the visible shared
 * schemas added. The server's `validator.customOptions` apply too, without the ajv 6-only keys; the
 * server's `validator.plugins` do not (they target ajv 6): give ajv 8 plugins here. Error messages keep
 * the shape `body/x <message>` but ajv 8 words them with "must" where ajv 6 says "should". Serializers
 * stay the default (fast-json-stringify).
 *
 * @example
 * createServer({ schemaController: { compilersFactory: ajv8CompilersFactory({ plugins: [ajvFormats] }) } })
 */
export function ajv8CompilersFactory(options: Ajv8FactoryOptions = {}): CompilersFactory {
  return {
    buildValidator(externalSchemas: Record<string, SharedSchema>, serverOptions: ValidatorOptions): ValidatorCompiler {
      const serverCustom: Record<string, unknown> = {}
      for (const [key, value] of Object.entries(serverOptions.customOptions ?? {})) {
        if (!AJV6_ONLY_OPTIONS.has(key)) serverCustom[key] = value
      }
      const merged: Record<string, unknown> = { ...ajv8BaselineOptions, ...serverCustom, ...options.customOptions }
      const unknownFormats: string[] = []
      const ajv = new (loadAjv8())({ ...merged, logger: formatRefusingLogger(merged.logger, unknownFormats) })
      applyValidatorPlugins(ajv, options.plugins)
      for (const id of Object.keys(externalSchemas)) ajv.addSchema(externalSchemas[id])
      return cacheBySchema(({ schema }) => {
        unknownFormats.length = 0
        const validate = ajv.compile(schema) as ValidateFunction
        if (unknownFormats.length === 0) return validate
        // ajv keeps what it compiled: drop it, so a later compile of the same schema is refused too
        ajv.removeSchema(schema)
        throw new Error(unknownFormatMessage(unknownFormats[0]))
      })
    },
  }
}

/**
 * ajv 8 knows no formats of its own and, under `strict: false`, skips an unknown one with a console
 * line: `format: 'email'` would then accept anything. The default validator (ajv 6) knows the common
 * formats and refuses an unknown one at boot; this keeps that promise under ajv 8 by turning the skip
 * into a compile error. A format meant to be skipped is declared as such (`formats: { name: true }`).
 * Other messages go where ajv would have sent them (the user's `logger`, or the console).
 */
function formatRefusingLogger(userLogger: unknown, unknownFormats: string[]): Ajv8Logger {
  const target: Partial<Ajv8Logger> | undefined = userLogger === false ? undefined
    : typeof userLogger === 'object' && userLogger !== null ? userLogger as Partial<Ajv8Logger> : console
  return {
    log: (...args: unknown[]) => target?.log?.(...args),
    warn: (...args: unknown[]) => {
      if (typeof args[0] === 'string' && args[0].startsWith('unknown format')) unknownFormats.push(args[0])
      else target?.warn?.(...args)
    },
    error: (...args: unknown[]) => target?.error?.(...args),
  }
}

interface Ajv8Logger {
  log(...args: unknown[]): unknown
  warn(...args: unknown[]): unknown
  error(...args: unknown[]): unknown
}

function unknownFormatMessage(ajvMessage: string): string {
  return `${ajvMessage.replace(' ignored in schema', ' is used in schema')}: ajv 8 has no formats of its own. `
    + 'Add them with ajv8CompilersFactory({ plugins: [ajvFormats] }) (npm package ajv-formats), define this one '
    + 'with customOptions: { formats: { name: /regex/ or (value) => boolean } }, or skip it on purpose with '
    + 'customOptions: { formats: { name: true } }'
}

/**
 * ajv 8 is loaded on first use, not with Enclave: its ~70 modules cost about 40 ms of CPU at
 * process start (issue 16, cold start), and most servers never choose it.
 */
function loadAjv8(): typeof Ajv8 {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('ajv8') as { default: typeof Ajv8 }).default
}
