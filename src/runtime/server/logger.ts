import pino, { type DestinationStream, type LoggerOptions } from 'pino'
import { isBuiltLogger } from '../shared/built-logger'
import { runtimeError } from '../errors/runtime-codes'
import type { Logger } from '../types'
import { fastifyLogSerializers } from '../shared/log-serializers'
import { skipIdleRedaction } from './idle-redaction'

const noop = (): void => {}

export const silentLogger: Logger = { info: noop, warn: noop, error: noop, debug: noop, trace: noop, fatal: noop, child: () => silentLogger }

/** Whether a scope's logger is the default silent one (a boot warning then goes to process.emitWarning, once). */
export function isSilentLogger(log: unknown): boolean { return log === silentLogger }

/** Redacted unless the user's own `redact` says otherwise: credentials never reach a log line. */
export const defaultRedactPaths: readonly string[] = [
  'req.headers.authorization', 'req.headers.cookie', 'headers.authorization', 'headers.cookie',
]

/** What the serve path needs to know about the logger it was given. */
export interface ResolvedLogger {
  readonly log: Logger
  /** A pino logger: each request gets `log.child({ [idLabel]: id })`, and the access log is on by default. */
  readonly pino: boolean
  /**
   * Enclave made this pino logger, with fastifyLogSerializers under the user's own: the access log
   * may hand it the request and reply. A logger the user made gets plain objects instead.
   */
  readonly ownSerializers?: boolean
  /** Releases what the server opened for its logs (the `file` destination's descriptor); run once close() is done. */
  release(): Promise<void>
}

/** pino's own shape: what `child()` is called on for each request. */
export interface ChildLogger extends Logger {
  child(bindings: Record<string, unknown>): Logger
}

/**
 * `logger` option: `true` for pino at info level on stdout, pino options, or a pino instance
 * (used as it is: its redaction is its creator's); any other object with info/warn/error/debug
 * is used as it is (no child loggers, no access log unless asked). Off when absent or false.
 */
export function resolveLogger(option: unknown): ResolvedLogger {
  if (option === undefined || option === false || option === null) return { log: silentLogger, pino: false, release: nothingToRelease }
  if (option === true) return { log: createPino({}, undefined), pino: true, ownSerializers: true, release: nothingToRelease }
  const candidate = option as Partial<ChildLogger> & { levels?: unknown }
  if (isBuiltLogger(option)) {
    const isPino = typeof candidate.child === 'function' && typeof candidate.levels === 'object'
    // A logger or stream the user made is the user's to close.
    if (isPino) return { log: withFastifySerializers(option as Logger), pino: true, ownSerializers: true, release: nothingToRelease }
    return { log: withFastifySerializers(completeLogger(option as Logger)), pino: false, release: nothingToRelease }
  }
  // Fastify 3's pino 6 took prettyPrint; pino 10 throws a bare Error on it, with no code and no
  // word of which option of createServer() it came from.
  if (Object.hasOwn(option as object, 'prettyPrint')) {
    throw runtimeError('ENC_ERR_SERVER_INVALID_OPTION', { problem: "{ logger: { prettyPrint } }): Fastify 3's pino 6 option, which pino 10 no longer has. Pipe the JSON lines through pino-pretty (node app.js | pino-pretty), or give pino's transport: { target: 'pino-pretty' } with pino-pretty installed." })
  }
  const { stream, file, ...options } = option as EnclaveLoggerOptions
  const toFile = fileDestination(file, stream !== undefined)
  let log: Logger
  try {
    log = createPino(options, stream ?? toFile)
  } catch (error) {
    // pino refused its options (an unknown level): the file opened for it is closed, not leaked.
    if (toFile !== undefined) void closeDestination(toFile)
    throw error
  }
  return { log, pino: true, ownSerializers: true, release: toFile === undefined ? nothingToRelease : () => closeDestination(toFile) }
}

const nothingToRelease = (): Promise<void> => Promise.resolve()

/**
 * pino options, plus where the lines go (default stdout), as Fastify's logger option has it:
 * `stream`, or `file` (a path, appended to through pino.destination). One of the two.
 */
export type EnclaveLoggerOptions = LoggerOptions & { stream?: DestinationStream; file?: string }

function createPino(options: LoggerOptions, stream: DestinationStream | undefined): Logger {
  const redact = options.redact
  const paths = Array.isArray(redact) ? redact : redact !== undefined ? redact.paths : []
  const merged = { ...(Array.isArray(redact) || redact === undefined ? {} : redact), paths: [...new Set([...defaultRedactPaths, ...paths])] }
  const settings = { level: 'info', ...options, redact: merged, serializers: { ...fastifyLogSerializers, ...options.serializers } }
  const log = stream === undefined ? pino(settings) : pino(settings, stream)
  skipIdleRedaction(log, merged.paths)
  return log as unknown as Logger
}

/**
 * Fastify 3's `logger.file`: the lines are appended to that file (pino.destination, synchronous
 * writes, so a line is on disk when the call returns, as with stdout). Like Fastify, both `file`
 * and `stream` is refused rather than one silently winning.
 */
function fileDestination(file: unknown, hasStream: boolean): FileDestination | undefined {
  if (file === undefined) return undefined
  if (hasStream) throw runtimeError('ENC_ERR_SERVER_INVALID_OPTION', { problem: '{ logger: { file, stream } }): give one destination, `file` (a path) or `stream`, not both.' })
  if (typeof file !== 'string' || file === '') {
    throw runtimeError('ENC_ERR_SERVER_INVALID_OPTION', { problem: `{ logger: { file: ${typeof file === 'string' ? "''" : typeof file} } }): file must be the path of the log file.` })
  }
  try {
    return pino.destination({ dest: file, sync: true, append: true, mkdir: false })
  } catch (error) {
    // Opened synchronously, so a missing directory or a denied path is known here: a coded boot
    // error naming the path, rather than a bare ENOENT from deep inside pino.
    const reason = error instanceof Error ? error.message : String(error)
    throw runtimeError('ENC_ERR_SERVER_INVALID_OPTION', { problem: `{ logger: { file: ${JSON.stringify(file)} } }): the log file cannot be opened (${reason}). Create its directory or give a writable path.` })
  }
}

type FileDestination = ReturnType<typeof pino.destination>

/**
 * Writes what is buffered, then closes the descriptor (SonicBoom closes it asynchronously, after
 * an fsync: its 'close' event says it is done). A server created and closed many times (tests,
 * a supervisor restarting it in-process) would otherwise leak one descriptor each time.
 */
function closeDestination(destination: FileDestination): Promise<void> {
  return new Promise<void>((resolve) => {
    destination.once('close', () => resolve())
    // A failing fsync or close is not worth failing close() for: the lines were written synchronously.
    destination.once('error', () => resolve())
    try {
      destination.flushSync()
      destination.end()
    } catch {
      // Already destroyed (by the user, through the logger's stream): nothing left to close.
      resolve()
    }
    // A line logged after close() (app.log.info('closed'), a late request) is dropped: a closed
    // SonicBoom would throw from inside the caller's log call.
    destination.write = () => true
  })
}

/**
 * Fastify 3's createPinoLogger: a logger the user built is logged through
 * `instance.child({}, { serializers })`, Fastify's req/res/err serializers under the instance's own
 * (pino keeps those under serializersSym; `serializers` for a logger of another make), so that its
 * `req` serializer gets the request itself, as it does under Fastify. The instance is left as it
 * was. A child that ignores its second argument, or gives back no logger, costs only that: the
 * logger is then used as it is.
 */
function withFastifySerializers(logger: Logger): Logger {
  const own = logger as Logger & { [serializersSym]?: unknown; serializers?: unknown }
  const serializers = { ...fastifyLogSerializers, ...serializerMap(own.serializers), ...serializerMap(own[serializersSym]) }
  const child = (logger as ChildLogger & { child(bindings: object, options: object): unknown }).child({}, { serializers })
  return isLogger(child) ? child : logger
}

const serializersSym: unique symbol = pino.symbols.serializersSym as never
const serializerMap = (value: unknown): object => typeof value === 'object' && value !== null ? value : {}
const isLogger = (value: unknown): value is Logger =>
  typeof value === 'object' && value !== null && ['info', 'warn', 'error', 'debug'].every((m) => typeof (value as Record<string, unknown>)[m] === 'function')

/**
 * Plugins call pino's whole surface (@fastify/multipart logs with trace, others use fatal and
 * child): a hand-made logger with only info/warn/error/debug gets the rest, trace as debug and
 * fatal as error, on an object that inherits from it (so its own fields stay readable).
 */
function completeLogger(logger: Logger): Logger {
  if (typeof logger.trace === 'function' && typeof logger.fatal === 'function' && typeof logger.child === 'function') return logger
  const complete: Logger = Object.create(logger)
  if (typeof logger.trace !== 'function') complete.trace = (obj: unknown, msg?: string) => logger.debug(obj, msg)
  if (typeof logger.fatal !== 'function') complete.fatal = (obj: unknown, msg?: string) => logger.error(obj, msg)
  if (typeof logger.child !== 'function') complete.child = () => complete
  return complete
}
