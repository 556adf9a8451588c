import { inspect } from 'node:util'
import { isFrameworkError } from '../errors/framework-error'
import type { ReplyImpl } from './reply'
import { replyAt } from './reply-at'
import { logsNowhere } from './logs-nowhere'

let warned = false

/**
 * A 5xx whose message the client never sees (the caller's check), under the default silent logger: its cause was
 * logged nowhere, and whoever made the mistake (a handler that forgot `return`, a plain
 * `Error('not found')` meant as a 404) sees "Internal Server Error" and an empty console. The
 * first one in the process is a process warning (stderr) naming the route, the error, where it was
 * thrown and how to turn the logger on; later ones stay silent, as Fastify 3 is, so a production
 * process that chose no logger gets one line, not one per request.
 */
export function warnUnloggedFailure(reply: ReplyImpl, error: Error, status: number): void {
  if (warned || !logsNowhere(reply)) return
  warned = true
  const ours = isFrameworkError(error)
  const at = ours ? '' : thrownAt(error)
  const hint = ours ? '' : ` A thrown Error answers ${status} whatever its message: for a client error throw an HttpError (\`throw new HttpError(404, 'Note not found')\`, imported from 'enclave').`
  emit(`${replyAt(reply)} answered ${status} to the client, and the cause was logged nowhere because the logger is off (the default): ${describe(error)}${at}.${hint}`)
}

/**
 * The same warning, under the same once-per-process flag, for a request's failure that is logged
 * (at error level, or warn for a stream cut after its head, Fastify 3's line) but answers no 5xx of its own: the response had started (a stream that failed
 * mid-body: the client got a cut-off response), or was sent (an onResponse, onError or onTimeout
 * hook threw; a stage failed after the reply went out). `what` is the log line's message. Without
 * it, which failure warned depended on which path it took; with it, any failure the silent
 * logger drops is named once. An error handler of the app's own that answers 500 is not one:
 * the error was handed to it, to log as it sees fit (docs/errors.md).
 */
export function warnUnloggedLateFailure(reply: ReplyImpl, thrown: unknown, what: string): void {
  if (warned || !logsNowhere(reply)) return
  warned = true
  const at = thrown instanceof Error && !isFrameworkError(thrown) ? thrownAt(thrown) : ''
  emit(`${replyAt(reply)}: ${what}, and the error was logged nowhere because the logger is off (the default): ${describe(thrown)}${at}.`)
}

function emit(head: string): void {
  process.emitWarning(
    `${head} Turn the logger on to see every such error with its stack: createApp(AppModule, { logger: { level: 'error' } }) (the same option for createServer()). Once per process.`,
    { type: 'EnclaveWarning', code: 'ENC_WARN_UNLOGGED_SERVER_ERROR' },
  )
}

/**
 * What was thrown, in one line, whatever it is: a hook may throw `Object.create(null)` or an
 * object whose toString() throws, and String() on those throws in turn, from a place where that
 * would end the process.
 */
function describe(thrown: unknown): string {
  try {
    if (thrown instanceof Error) return `${thrown.name}: ${thrown.message}`
    return inspect(thrown, { depth: 1, breakLength: Infinity })
  } catch {
    return 'a value that cannot be shown'
  }
}

/** The first frame of the stack outside node_modules and Node's own code: the user's line. */
function thrownAt(error: Error): string {
  let stack: string[]
  try {
    stack = typeof error.stack === 'string' ? error.stack.split('\n').slice(1) : []
  } catch {
    return ''   // a stack getter that throws
  }
  const frame = stack.find((line) => /^\s+at /.test(line) && !/node_modules|node:internal|\(node:/.test(line))
  return frame === undefined ? '' : ` (${frame.trim()})`
}
