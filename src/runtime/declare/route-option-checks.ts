import { runtimeError } from '../errors/runtime-codes'
import { closestName, didYouMean } from '../schemas'
import type { RouteOptions } from '../types'
import type { ConstraintStrategy } from '../shared/custom-constraints'
import { isAsyncFunction } from './option-checks'

// The options of route() and of register() (createServer()'s are option-checks.ts): refused at
// declaration with the route or plugin named, since a wrong one would be carried without a word.

/** The route options a route() call may carry (hooks included); onRoute hooks may add more later. */
export const knownRouteOptions: readonly string[] = [
  'method', 'url', 'path', 'handler', 'schema', 'attachValidation', 'validatorCompiler', 'serializerCompiler',
  'schemaErrorFormatter', 'bodyLimit', 'errorHandler', 'config', 'onRequest', 'preParsing', 'preValidation', 'preHandler',
  'preSerialization', 'onSend', 'onResponse', 'onRequestAbort', 'onError', 'onTimeout', 'logLevel',
  'logSerializers', 'exposeHeadRoute', 'prefixTrailingSlash', 'prefix', 'constraints', 'version', 'handlerTimeout',
  'bodyTimeout',
]

/**
 * The route options whose loss opens or unbounds the route: its hooks (guards run there), its
 * schema and validation, its limits and error handling. Typos of these are never taken for a
 * plugin's option.
 */
const protectiveRouteOptions: readonly string[] = [
  'schema', 'attachValidation', 'validatorCompiler', 'schemaErrorFormatter', 'bodyLimit', 'errorHandler',
  'onRequest', 'preParsing', 'preValidation', 'preHandler', 'preSerialization', 'onSend', 'onResponse',
  'onRequestAbort', 'onError', 'onTimeout', 'constraints', 'handlerTimeout', 'bodyTimeout',
]

const logLevels: readonly string[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']

const prefixTrailingSlashValues = ['both', 'slash', 'no-slash']

const builtInConstraints = ['version', 'host']

/**
 * find-my-way's built-in constraints (a version is a string, a host a string or a RegExp) and the
 * server's custom strategies (createServer({ constraints, versioning })), whose own validate()
 * judges a value, as find-my-way does when the route is stored.
 */
function constraintsProblem(options: RouteOptions, custom: Readonly<Record<string, ConstraintStrategy>> | null): string | null {
  const { constraints, version } = options
  const names = custom === null ? builtInConstraints : [...new Set([...builtInConstraints, ...Object.keys(custom)])]
  const check = (key: string, value: unknown, label: string): string | null => {
    const strategy = custom !== null && Object.hasOwn(custom, key) ? custom[key] : undefined
    if (strategy !== undefined) {
      try {
        strategy.validate?.(value)
      } catch (cause) {
        return `${label} was refused by the '${key}' strategy's validate(): ${cause instanceof Error ? cause.message : String(cause)}`
      }
      return null
    }
    if (key === 'version' && typeof value !== 'string') return `${label} must be a string (a semver range), got ${typeof value}`
    if (key === 'host' && typeof value !== 'string' && !(value instanceof RegExp)) return `${label} must be a string or a RegExp, got ${typeof value}`
    return null
  }
  if (version !== undefined) {
    const problem = check('version', version, 'the version option')
    if (problem !== null) return problem
  }
  if (constraints === undefined) return null
  if (constraints === null || typeof constraints !== 'object' || Array.isArray(constraints)) return `the constraints option must be an object: { ${names.join(', ')} }`
  for (const [key, value] of Object.entries(constraints)) {
    if (!names.includes(key)) {
      return `unknown constraint '${key}'${didYouMean(key, names)}; ${custom === null ? 'Enclave offers find-my-way\'s version and host constraints' : `the server knows ${names.join(', ')}`} (a custom one is a strategy in createServer({ constraints }))`
    }
    const problem = check(key, value, `constraints.${key}`)
    if (problem !== null) return problem
  }
  return null
}

/**
 * Refuses what route() would otherwise carry silently: a bad value of a known option, a
 * non-function error handler. Returns the options it does not know (`helmet: false`, or a typo):
 * a plugin's onRoute hook may read those (declareRoute then refuses the ones none read).
 */
export function checkRouteOptions(options: RouteOptions, where: string, strategies: Readonly<Record<string, ConstraintStrategy>> | null = null): string[] {
  const record = options as unknown as Record<string, unknown>
  const pluginKeys: string[] = []
  for (const key of Object.keys(options)) {
    // An option present as undefined carries nothing: @fastify/static and @fastify/cors pass on
    // their own `constraints`/`logLevel` options that way when the user gave none.
    if (record[key] === undefined || knownRouteOptions.includes(key)) continue
    // A near miss of an option that protects the route (`preHandlr`, `bodyLimt`) is refused here,
    // whatever the onRoute hooks do: accepted by mistake, it would leave a guard or limit off
    // without a word. A near miss of any other option is judged after the hooks (a plugin's own
    // option may look like one of ours: @fastify/websocket's `wsHandler`; route-declaration.ts).
    // Two edits at most: a slip of the keyboard. `wsHandler` is three from `preHandler`.
    if (closestName(key, protectiveRouteOptions, 2) !== null) {
      throw runtimeError('ENC_ERR_ROUTE_INVALID', { where: `route ${where}`, problem: `unknown route option '${key}'${didYouMean(key, knownRouteOptions)}` })
    }
    pluginKeys.push(key)
  }
  const constraints = constraintsProblem(options, strategies)
  if (constraints !== null) throw runtimeError('ENC_ERR_ROUTE_INVALID', { where: `route ${where}`, problem: constraints })
  if (options.exposeHeadRoute !== undefined && typeof options.exposeHeadRoute !== 'boolean') {
    throw runtimeError('ENC_ERR_ROUTE_INVALID', { where: `route ${where}`, problem: `the exposeHeadRoute option must be true or false, got ${typeof options.exposeHeadRoute}` })
  }
  if (options.prefixTrailingSlash !== undefined && !prefixTrailingSlashValues.includes(options.prefixTrailingSlash)) {
    const given = String(options.prefixTrailingSlash)
    throw runtimeError('ENC_ERR_ROUTE_INVALID', { where: `route ${where}`, problem: `the prefixTrailingSlash option is '${given}'${didYouMean(given, prefixTrailingSlashValues)}; use 'both', 'slash' or 'no-slash'` })
  }
  // Fastify 5 (lib/route.js, FST_ERR_ROUTE_HANDLER_TIMEOUT_OPTION_NOT_INT): an integer > 0. A
  // route cannot turn the server's off with 0; leave the option out to take the server's.
  checkTimeoutOption('handlerTimeout', options.handlerTimeout, where)
  // Enclave's own, shaped as handlerTimeout: 0 would lift the bound on trickled bodies for the route.
  checkTimeoutOption('bodyTimeout', options.bodyTimeout, where)
  if (options.errorHandler !== undefined && typeof options.errorHandler !== 'function') {
    throw runtimeError('ENC_ERR_ROUTE_INVALID', { where: `route ${where}`, problem: `the errorHandler option must be a function, got ${typeof options.errorHandler}` })
  }
  if (options.logSerializers !== undefined && !isSerializerMap(options.logSerializers)) {
    throw runtimeError('ENC_ERR_ROUTE_INVALID', { where: `route ${where}`, problem: 'the logSerializers option must be an object of functions ({ field: (value) => shown })' })
  }
  if (options.logLevel !== undefined && !logLevels.includes(options.logLevel)) {
    throw runtimeError('ENC_ERR_ROUTE_INVALID', { where: `route ${where}`, problem: `the logLevel option must be one of ${logLevels.join(', ')}, got ${JSON.stringify(options.logLevel)}` })
  }
  if (options.schemaErrorFormatter !== undefined && (typeof options.schemaErrorFormatter !== 'function' || isAsyncFunction(options.schemaErrorFormatter))) {
    throw runtimeError('ENC_ERR_ROUTE_INVALID', { where: `route ${where}`, problem: 'the schemaErrorFormatter option must be a synchronous function that returns an Error' })
  }
  return pluginKeys
}

/** An unknown route option close to a known one (`preHandlr`, or a plugin's `wsHandler`). */
export function looksLikeKnownRouteOption(key: string): boolean {
  return closestName(key, knownRouteOptions) !== null
}

/**
 * After the onRoute hooks: an option Enclave does not know stays only if a hook read it (the way
 * @fastify/helmet reads `helmet` and @fastify/compress `compress`); one nobody read is a mistake,
 * named as a typo when it is close to a known option.
 */
export function refuseUnreadRouteOptions(keys: readonly string[], where: string): void {
  if (keys.length === 0) return
  // One that looks like a known option is most likely a typo of it: say which.
  const typo = keys.find(looksLikeKnownRouteOption)
  if (typo !== undefined) {
    throw runtimeError('ENC_ERR_ROUTE_INVALID', { where: `route ${where}`, problem: `unknown route option '${typo}'${didYouMean(typo, knownRouteOptions)}` })
  }
  const list = keys.map((key) => `'${key}'`).join(', ')
  throw runtimeError('ENC_ERR_ROUTE_INVALID', {
    where: `route ${where}`,
    problem: `unknown route option${keys.length > 1 ? 's' : ''} ${list}: neither Enclave nor an onRoute hook of a registered plugin reads ${keys.length > 1 ? 'them' : 'it'}. ` +
      `Register the plugin that reads it before this route and await it (\`await scope.register(plugin)\`: a plugin loads only when awaited or at boot, so its onRoute hook misses routes declared before that), or put your own data in config. Known options: ${knownRouteOptions.join(', ')}`,
  })
}

/** `logSerializers` (a route's or a registration's): pino serializers, an object of functions. */
export function isSerializerMap(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((fn) => typeof fn === 'function')
}

/**
 * register()'s own options for an encapsulated plugin (Fastify 3's pluginOverride reads prefix,
 * logLevel and logSerializers from them): a wrong type used to be dropped without a word, so a
 * plugin's routes logged at the wrong level or lost a serializer.
 */
export function checkRegisterOptions(options: { readonly [key: string]: unknown }, plugin: string, path: string): void {
  const { prefix, logLevel, logSerializers } = options
  // null is 'not set' for all three, as '' is for logLevel: Fastify 3 reads each only when truthy.
  const refuse = (problem: string): never => { throw runtimeError('ENC_ERR_PLUGIN_OPTIONS', { plugin, path, problem }) }
  if (prefix !== undefined && prefix !== null && typeof prefix !== 'string') refuse(`the prefix option must be a string, got ${typeof prefix}`)
  if (logLevel !== undefined && logLevel !== null && logLevel !== '' && !logLevels.includes(logLevel as string)) {
    const given = typeof logLevel === 'string' ? logLevel : String(typeof logLevel)
    refuse(`the logLevel option is ${JSON.stringify(given)}${typeof logLevel === 'string' ? didYouMean(logLevel, logLevels) : ''}`)
  }
  if (logSerializers !== undefined && logSerializers !== null && !isSerializerMap(logSerializers)) refuse('the logSerializers option must be an object of functions')
}

/** A route's own timeout option (handlerTimeout, bodyTimeout): an integer > 0 in ms, or left out. */
function checkTimeoutOption(name: string, value: unknown, where: string): void {
  if (value === undefined || (typeof value === 'number' && Number.isInteger(value) && value > 0)) return
  throw runtimeError('ENC_ERR_ROUTE_INVALID', { where: `route ${where}`, problem: `the ${name} option must be an integer > 0 (milliseconds; leave it out for the server's ${name}), got ${typeof value === 'number' ? value : JSON.stringify(value) ?? typeof value}` })
}
