import type { FrameworkError } from '../errors/framework-error'
import { runtimeError } from '../errors/runtime-codes'
import { checkSchemaControllerOptions, didYouMean } from '../schemas'
import type { ServerOptions } from '../types'
import { isBuiltLogger } from '../shared/built-logger'
import { isPoisonAction, poisonActionNames, refusePoisoning, type JsonPoisonActions } from '../shared/json-poisoning'

/**
 * Every option createServer() reads (a test keeps it equal to the keys of ServerOptions in types.ts). Fastify 3 ignores unknown options; here a misspelt one
 * (`bodyLimt`) fails at once instead of silently leaving the default in place.
 */
export const knownServerOptions: readonly string[] = [
  'name', 'validator', 'ajv', 'schemaController', 'serializerOpts', 'schemaErrorFormatter', 'bodyLimit', 'logger', 'loggerInstance', 'disableRequestLogging',
  'requestIdLogLabel', 'schemaCompilation', 'schemaCache', 'maxParamLength', 'genReqId',
  'requestIdHeader', 'maxQueryKeys', 'maxJsonDepth', 'pluginTimeout', 'closeTimeout', 'headersTimeout', 'requestTimeout',
  'keepAliveTimeout', 'bodyTimeout', 'handlerTimeout', 'ignoreTrailingSlash', 'exposeHeadRoutes', 'trustProxy',
  'onProtoPoisoning', 'onConstructorPoisoning',
  'connectionTimeout', 'drainTimeout', 'maxQueuedBytes', 'maxPipelinedRequests', 'frameworkErrors', 'clientErrorHandler',
  'caseSensitive', 'querystringParser', 'rewriteUrl', 'maxRequestsPerSocket', 'forceCloseConnections', 'return503OnClosing',
  'https', 'http2', 'http2SessionTimeout', 'serverFactory', 'constraints', 'versioning', 'jsonShorthand',
]

/**
 * Fastify server options Enclave does not offer, with what to do instead. A migrating user who
 * passes one is not misspelling anything, so "unknown option" (and a did-you-mean to an
 * unrelated name) would send them looking for a typo.
 */
const fastifyOnlyServerOptions: Readonly<Record<string, string>> = {
  childLoggerFactory: 'request.log is a pino child bound to the request id; pass a pino instance as logger to choose its settings',
  // Fastify 5 apps set these; without an entry they read as typos and get an unrelated did-you-mean.
  useSemicolonDelimiter: 'a \';\' in the path is part of the path (Fastify 5\'s default, false: /a;b=1 is not /a), and a query starts at \'?\' only: remove the option',
  routerOptions: 'Fastify 5\'s group of router options: Enclave takes the ones it offers at the top level of createServer() (ignoreTrailingSlash, caseSensitive, maxParamLength, querystringParser); move them there',
}

/** A Fastify server option Enclave does not offer: createServer() says what to do instead. */
export function isFastifyOnlyServerOption(key: string): boolean {
  return Object.hasOwn(fastifyOnlyServerOptions, key)
}

/**
 * `jsonShorthand` as in Fastify 3.27.4: true (the default) reads a schema part with properties at
 * its top level as shorthand; false reads every part as a complete schema (route-schema.ts).
 */
function checkJsonShorthand(value: unknown): void {
  if (value === undefined || typeof value === 'boolean') return
  throw invalidOption(`createServer({ jsonShorthand }): must be a boolean (true, the default), got ${value === null ? 'null' : typeof value}.`)
}

/** Server options that must be functions, and those that must be booleans, when given. */
const functionServerOptions = ['querystringParser', 'rewriteUrl'] as const
const booleanServerOptions = ['caseSensitive', 'ignoreTrailingSlash', 'exposeHeadRoutes', 'return503OnClosing'] as const

const validatorKeys = ['customOptions', 'plugins', 'customKeywords']
const schemaCacheKeys = ['directory', 'mode']
const schemaCacheModes = ['read-write', 'read']

/**
 * createServer({ constraints, versioning }): find-my-way asserts a strategy's name, storage and
 * deriveConstraint only when it builds the router; here a bad one fails at createServer() with
 * the option named. Fastify 3's strategies are synchronous (find-my-way 4 calls deriveConstraint(req, ctx)).
 */
function checkConstraintOptions(options: ServerOptions): void {
  const { constraints, versioning } = options as { constraints?: unknown; versioning?: unknown }
  const describe = (value: unknown): string => value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value
  if (constraints !== undefined) {
    if (constraints === null || typeof constraints !== 'object' || Array.isArray(constraints)) {
      throw invalidOption(`createServer({ constraints }): must be an object of strategies by name ({ name: { name, storage, deriveConstraint, validate, mustMatchWhenDerived? } }), got ${describe(constraints)}.`)
    }
    for (const [key, strategy] of Object.entries(constraints)) {
      const at = `createServer({ constraints: { ${key} } })`
      if (strategy === null || typeof strategy !== 'object') throw invalidOption(`${at}: must be a strategy object { name, storage, deriveConstraint, validate, mustMatchWhenDerived? }, got ${describe(strategy)}.`)
      const { name, storage, deriveConstraint, validate, mustMatchWhenDerived } = strategy as Record<string, unknown>
      if (name !== key) throw invalidOption(`${at}: the strategy's name must be its key '${key}' (routes name it in constraints: { ${key}: value }), got ${typeof name === 'string' ? `'${name}'` : describe(name)}.`)
      if (typeof storage !== 'function') throw invalidOption(`${at}: storage must be a function returning a store { get(value), set(value, store) }, got ${describe(storage)}.`)
      if (typeof deriveConstraint !== 'function') throw invalidOption(`${at}: deriveConstraint must be a function (req, ctx) => the request's value, got ${describe(deriveConstraint)}.`)
      if (isAsyncFunction(deriveConstraint)) throw invalidOption(`${at}: deriveConstraint must be synchronous (Fastify 3's strategies are); it is async.`)
      // Required, as Fastify 3's options schema requires it (find-my-way would do without).
      if (typeof validate !== 'function') throw invalidOption(`${at}: validate must be a function (value) => void that throws on a bad route value (Fastify 3 requires it; () => {} accepts any), got ${describe(validate)}.`)
      if (mustMatchWhenDerived !== undefined && typeof mustMatchWhenDerived !== 'boolean') throw invalidOption(`${at}: mustMatchWhenDerived must be true or false, got ${describe(mustMatchWhenDerived)}.`)
    }
  }
  if (versioning === undefined) return
  if (versioning === null || typeof versioning !== 'object' || Array.isArray(versioning)) {
    throw invalidOption(`createServer({ versioning }): must be an object { storage, deriveVersion }, got ${describe(versioning)}.`)
  }
  const { storage, deriveVersion } = versioning as Record<string, unknown>
  if (typeof storage !== 'function') throw invalidOption(`createServer({ versioning }): storage must be a function returning a store { get(version), set(version, store) }, got ${describe(storage)}.`)
  if (typeof deriveVersion !== 'function') throw invalidOption(`createServer({ versioning }): deriveVersion must be a function (req, ctx) => the request's version, got ${describe(deriveVersion)}.`)
  if (isAsyncFunction(deriveVersion)) throw invalidOption('createServer({ versioning }): deriveVersion must be synchronous (Fastify 3\'s is); it is async.')
  if (constraints !== undefined && Object.hasOwn(constraints, 'version')) {
    throw invalidOption('createServer({ versioning, constraints: { version } }): both give the version strategy (Fastify 3 lets versioning win silently): keep one, preferably constraints.version (versioning is deprecated).')
  }
}

/**
 * Fastify 5's `loggerInstance` (a pino instance, or a logger of your own) becomes `logger`, which
 * takes an instance too (Fastify 3's spelling). Both given is refused, as Fastify 5 refuses it.
 */
function foldLoggerInstance(options: ServerOptions): ServerOptions {
  const instance: unknown = options.loggerInstance
  if (instance === undefined) return options
  if (options.logger !== undefined) {
    throw invalidOption('createServer(): both logger and loggerInstance are given. loggerInstance is Fastify 5\'s name for a logger you built (logger: pinoInstance is Enclave\'s and Fastify 3\'s): keep one.')
  }
  if (!isBuiltLogger(instance)) {
    throw invalidOption(`createServer({ loggerInstance }): must be a logger you built (pino(...), or an object with info, warn, error and debug), got ${instance === null ? 'null' : typeof instance}; pino options (level, redact, stream) go in logger.`)
  }
  const { loggerInstance: _given, ...rest } = options
  return { ...rest, logger: instance as ServerOptions['logger'] }
}

/** `message` continues `createServer(`: the option as written, then what is wrong and the fix. */
function invalidOption(message: string): FrameworkError {
  return runtimeError('ENC_ERR_SERVER_INVALID_OPTION', { problem: message.replace(/^createServer\(/, '') })
}

export function isAsyncFunction(fn: unknown): boolean {
  return typeof fn === 'function' && fn.constructor.name === 'AsyncFunction'
}

/**
 * Refuses unknown server options with a "did you mean", and folds Fastify's name for the
 * validator option (`ajv: { customOptions, plugins }`) into `validator` when its shape matches.
 * Returns the options to use.
 */
export function checkServerOptions(options: ServerOptions): ServerOptions {
  if (options === null || typeof options !== 'object') throw invalidOption(`createServer() takes an options object, got ${options === null ? 'null' : typeof options}.`)
  for (const key of Object.keys(options)) {
    if (!knownServerOptions.includes(key)) {
      const instead = Object.hasOwn(fastifyOnlyServerOptions, key) ? fastifyOnlyServerOptions[key] : undefined
      if (instead !== undefined) throw invalidOption(`createServer({ ${key} }): a Fastify option Enclave does not offer: ${instead}.`)
      throw invalidOption(`createServer({ ${key} }): unknown option${didYouMean(key, knownServerOptions)}. Known options: ${knownServerOptions.join(', ')}.`)
    }
  }
  checkJsonShorthand((options as { jsonShorthand?: unknown }).jsonShorthand)
  const record = options as ServerOptions & { ajv?: unknown }
  let resolved: ServerOptions = foldLoggerInstance(options)
  if (record.ajv !== undefined) {
    if (record.validator !== undefined) {
      throw invalidOption('createServer(): both ajv and validator are given. ajv is Fastify\'s name for the validator option: keep one.')
    }
    resolved = { ...options, validator: record.ajv as ServerOptions['validator'] }
    delete (resolved as { ajv?: unknown }).ajv
  }
  const validator = resolved.validator as unknown
  if (validator !== undefined) {
    const name = record.ajv !== undefined ? 'ajv' : 'validator'
    if (validator === null || typeof validator !== 'object') throw invalidOption(`createServer({ ${name} }): must be an object with customOptions and plugins.`)
    for (const key of Object.keys(validator)) {
      if (!validatorKeys.includes(key)) {
        throw invalidOption(`createServer({ ${name}: { ${key} } }): unknown key${didYouMean(key, validatorKeys)}. Use ${validatorKeys.join(', ')}.`)
      }
    }
    // Spread into ajv's options, a number or string would vanish without a word (Fastify 3 refuses it too).
    const customOptions = (validator as { customOptions?: unknown }).customOptions
    if (customOptions !== undefined && (customOptions === null || typeof customOptions !== 'object' || Array.isArray(customOptions))) {
      throw invalidOption(`createServer({ ${name}: { customOptions } }): must be an object of ajv options, e.g. { allErrors: true }, got ${customOptions === null ? 'null' : Array.isArray(customOptions) ? 'an array' : typeof customOptions}.`)
    }
  }
  const serializerOpts = resolved.serializerOpts as unknown
  if (serializerOpts !== undefined && (serializerOpts === null || typeof serializerOpts !== 'object' || Array.isArray(serializerOpts))) {
    throw invalidOption('createServer({ serializerOpts }): must be an object of fast-json-stringify options, e.g. { rounding: \'ceil\' }.')
  }
  checkSchemaCacheOption(resolved.schemaCache)
  checkConstraintOptions(resolved)
  checkTransportOptions(resolved)
  if (resolved.schemaController !== undefined) checkSchemaControllerOptions(resolved.schemaController, 'createServer({ schemaController })')
  for (const name of ['frameworkErrors', 'clientErrorHandler'] as const) {
    const given: unknown = resolved[name]
    if (given !== undefined && typeof given !== 'function') throw invalidOption(`createServer({ ${name} }): must be a function, got ${given === null ? 'null' : typeof given}.`)
  }
  for (const name of functionServerOptions) {
    const value: unknown = resolved[name]
    if (value !== undefined && typeof value !== 'function') throw invalidOption(`createServer({ ${name} }): must be a function, got ${typeof value}.`)
  }
  for (const name of booleanServerOptions) {
    const value: unknown = resolved[name]
    if (value !== undefined && typeof value !== 'boolean') throw invalidOption(`createServer({ ${name} }): must be true or false, got ${typeof value}.`)
  }
  // 'idle' is Fastify 5's default: close() closes idle keep-alive connections, as Enclave always does.
  const forceClose: unknown = resolved.forceCloseConnections
  if (forceClose !== undefined && typeof forceClose !== 'boolean' && forceClose !== 'idle') {
    throw invalidOption(`createServer({ forceCloseConnections }): must be true, false or 'idle', got ${typeof forceClose}.`)
  }
  if (resolved.forceCloseConnections === true && resolved.closeTimeout !== undefined) {
    throw invalidOption('createServer(): both forceCloseConnections and closeTimeout are given. forceCloseConnections: true cuts busy connections at once (closeTimeout 0): keep one.')
  }
  if (isAsyncFunction(resolved.schemaErrorFormatter)) {
    throw invalidOption('createServer({ schemaErrorFormatter }): the formatter must be synchronous and return an Error; it is async.')
  }
  return resolved
}

/** The options a serverFactory's server carries itself: Enclave does not set them on a server it did not make. */
const serverOwnedOptions = ['headersTimeout', 'requestTimeout', 'keepAliveTimeout', 'connectionTimeout', 'maxRequestsPerSocket'] as const

/** `https`, `http2`, `http2SessionTimeout`, `serverFactory` (server/node-server.ts builds the server from them). */
function checkTransportOptions(options: ServerOptions): void {
  const { https, http2, http2SessionTimeout, serverFactory } = options as Record<string, unknown>
  if (https !== undefined && (https === null || typeof https !== 'object' || Array.isArray(https))) {
    throw invalidOption(`createServer({ https }): must be an object of TLS options ({ key, cert } or { pfx, passphrase }, as node:https takes), got ${https === null ? 'null' : Array.isArray(https) ? 'an array' : typeof https}.`)
  }
  if (http2 !== undefined && typeof http2 !== 'boolean') throw invalidOption(`createServer({ http2 }): must be true or false, got ${typeof http2}.`)
  if (http2SessionTimeout !== undefined) {
    if (typeof http2SessionTimeout !== 'number' || !Number.isSafeInteger(http2SessionTimeout) || http2SessionTimeout < 0) {
      throw invalidOption(`createServer({ http2SessionTimeout }): must be a whole number of milliseconds, 0 or more (0: sessions are not closed when idle), got ${typeof http2SessionTimeout === 'number' ? String(http2SessionTimeout) : typeof http2SessionTimeout}.`)
    }
    if (http2 !== true) throw invalidOption('createServer({ http2SessionTimeout }): applies to HTTP/2 sessions only; add http2: true or remove it.')
  }
  if (serverFactory === undefined) return
  if (typeof serverFactory !== 'function') throw invalidOption(`createServer({ serverFactory }): must be a function (handler, options) => server, got ${serverFactory === null ? 'null' : typeof serverFactory}.`)
  if (https !== undefined || http2 !== undefined) {
    throw invalidOption(`createServer({ serverFactory, ${https !== undefined ? 'https' : 'http2'} }): the factory makes the server, so ${https !== undefined ? 'its TLS options' : 'its protocol'} go there (https.createServer(tlsOptions, handler), http2.createSecureServer(...)): keep one.`)
  }
  for (const name of serverOwnedOptions) {
    if (options[name] !== undefined) {
      throw invalidOption(`createServer({ serverFactory, ${name} }): the factory's server is yours, and Enclave does not change its settings (as Fastify 3 does not): set ${name === 'connectionTimeout' ? 'server.setTimeout(ms)' : `server.${name}`} on the server the factory returns.`)
    }
  }
}

/** `schemaCache: { directory, mode? }`: a misspelt key or mode fails at once, with a "did you mean". */
function checkSchemaCacheOption(given: unknown): void {
  if (given === undefined) return
  if (given === null || typeof given !== 'object' || Array.isArray(given)) {
    throw invalidOption(`createServer({ schemaCache }): must be an object { directory, mode? }, got ${given === null ? 'null' : Array.isArray(given) ? 'an array' : typeof given}.`)
  }
  for (const key of Object.keys(given)) {
    if (!schemaCacheKeys.includes(key)) {
      throw invalidOption(`createServer({ schemaCache: { ${key} } }): unknown key${didYouMean(key, schemaCacheKeys)}. Use ${schemaCacheKeys.join(', ')}.`)
    }
  }
  const { directory, mode } = given as { directory?: unknown; mode?: unknown }
  if (typeof directory !== 'string' || directory === '') {
    throw invalidOption('createServer({ schemaCache }): directory must be a non-empty path (a directory as trusted as node_modules: it holds code).')
  }
  if (mode !== undefined && !schemaCacheModes.includes(mode as string)) {
    const shown = typeof mode === 'string' ? `'${mode}'` : String(mode)
    throw invalidOption(`createServer({ schemaCache: { mode: ${shown} } }): use 'read-write' or 'read'${didYouMean(String(mode), schemaCacheModes)}.`)
  }
}

/**
 * The built-in JSON parser's answer to `__proto__` / `constructor.prototype` keys, from
 * `onProtoPoisoning` / `onConstructorPoisoning` ('error' when absent). A misspelt action is
 * refused: secure-json-parse would take it as 'ignore', silently turning the protection off.
 */
export function poisonActionsOf(options: ServerOptions): JsonPoisonActions {
  const { onProtoPoisoning, onConstructorPoisoning } = options
  if (onProtoPoisoning === undefined && onConstructorPoisoning === undefined) return refusePoisoning
  for (const [name, given] of [['onProtoPoisoning', onProtoPoisoning], ['onConstructorPoisoning', onConstructorPoisoning]] as const) {
    if (given !== undefined && !isPoisonAction(given)) {
      const shown = typeof given === 'string' ? `'${given}'` : String(given)
      throw invalidOption(`createServer({ ${name}: ${shown} }): use ${poisonActionNames.map((a) => `'${a}'`).join(', ')}${didYouMean(String(given), poisonActionNames)}.`)
    }
  }
  return { protoAction: onProtoPoisoning ?? 'error', constructorAction: onConstructorPoisoning ?? 'error' }
}
