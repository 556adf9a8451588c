// README differences the `logs` family meets (logs.ts): rewrites of Fastify 3's captured lines
// (Answer.log, compared keys sorted, run-dependent values as their types) into Enclave's under
// each listed rule. The answer rules (known-differences.ts) rewrite the status and body; the
// lines of the same differences are rewritten here.
import type { Answer } from './case'
import type { KnownDifference } from './difference-types'
import { lineOf } from './logs'
import { pointer, pointerMessage } from './pointers'

type Line = Record<string, unknown> & { msg?: string; err?: Record<string, unknown> }

/** Each line through `edit` (undefined: unchanged); the answer with the new lines, or undefined when none changed. */
function editLines(f: Answer, edit: (line: Line, index: number) => Line | undefined): Answer | undefined {
  if (f.log === undefined) return undefined
  let changed = false
  const log = f.log.map((text, index) => {
    let line: Line
    try { line = JSON.parse(text) as Line } catch { return text }
    const next = edit(line, index)
    if (next === undefined) return text
    const written = lineOf(next)
    if (written !== text) changed = true
    return written
  })
  return changed ? { ...f, log } : undefined
}

function enclaveLine(enclave: Answer, index: number): Line | undefined {
  const text = enclave.log?.[index]
  if (text === undefined) return undefined
  try { return JSON.parse(text) as Line } catch { return undefined }
}

// What pino writes on every line, and the request id (its label, the child's field): not an error's.
const LINE_KEYS = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'traceId', 'tenant', 'req', 'res', 'responseTime', 'err'])

export const LOGS_DIFFERENCES: KnownDifference[] = [
  {
    id: 'log-swapped-child-everywhere',
    readme: 'in Fastify `reply.log` keeps the first logger, so its `request completed` does not',
    rewrite(f, { c }) {
      // logs.ts's onRequest hook puts `request.log.child({ tenant: 't1' })` in place: every line
      // after `incoming request` carries it here, the framework's error and access lines too.
      if (c.family !== 'logs' || !/onRequest swaps request\.log/.test(c.summary)) return undefined
      return editLines(f, (line) => (line.msg === 'incoming request' || line.tenant !== undefined || /^Server listening/.test(line.msg ?? '') ? undefined : { ...line, tenant: 't1' }))
    },
  },
  {
    id: 'log-error-argument-under-err',
    readme: 'An error given as a log call\'s first argument (`request.log.error(error, \'failed\')`) is written under\n  `err`',
    rewrite(f, { c, enclave }) {
      if (c.family !== 'logs') return undefined
      return editLines(f, (line, index) => {
        // pino 6 spread the error over the line: its type, stack and own properties; the message
        // is dropped when the call gives one (taken from Enclave's line, the one field not kept).
        if (line.err !== undefined || typeof line.type !== 'string' || typeof line.stack !== 'string') return undefined
        const theirs = enclaveLine(enclave, index)?.err
        const err: Record<string, unknown> = {}
        const rest: Line = {}
        for (const [key, value] of Object.entries(line)) (LINE_KEYS.has(key) ? rest : err)[key] = value
        if (/serializers: err type/.test(c.summary)) return { ...rest, err: { kind: err.type, msg: theirs?.msg } }
        return { ...rest, err: { ...err, message: theirs?.message } }
      })
    },
  },
  {
    id: 'log-validation-path-pointer',
    readme: 'Validation error paths are JSON pointers by default',
    rewrite(f, { c }) {
      if (c.family !== 'logs') return undefined
      return editLines(f, (line) => {
        const err = line.err
        // Under logs.ts's `serializers.err` the error is `{ kind, msg }`: its message alone.
        if (err !== undefined && typeof err.msg === 'string' && typeof err.kind === 'string') {
          return { ...line, msg: typeof line.msg === 'string' ? pointerMessage(line.msg) : line.msg, err: { ...err, msg: pointerMessage(err.msg) } }
        }
        if (err === undefined || !Array.isArray(err.validation)) return undefined
        const validation = (err.validation as Array<Record<string, unknown>>).map((e) => (typeof e.dataPath === 'string' ? { ...e, dataPath: pointer(e.dataPath) } : e))
        const message = typeof err.message === 'string' ? pointerMessage(err.message) : err.message
        return { ...line, msg: typeof line.msg === 'string' ? pointerMessage(line.msg) : line.msg, err: { ...err, message, validation } }
      })
    },
  },
  {
    id: 'log-invalid-json-framework-error',
    readme: 'A body that is not valid JSON reaches error handlers as a `FrameworkError`',
    rewrite(f, { c }) {
      if (c.family !== 'logs' || !/json/i.test(c.request.headers?.['content-type'] ?? '')) return undefined
      return editLines(f, (line) => {
        const err = line.err
        // Under logs.ts's `serializers.err` the error is `{ kind, msg }` (its class and message).
        if (err !== undefined && err.kind === 'SyntaxError' && typeof err.msg === 'string' && (line.res as { statusCode?: unknown } | undefined)?.statusCode === 400) {
          const message = `Body is not valid JSON: ${err.msg}`
          return { ...line, msg: message, err: { kind: 'FrameworkError', msg: message } }
        }
        if (err === undefined || err.type !== 'SyntaxError' || err.statusCode !== 400 || typeof err.message !== 'string') return undefined
        // FrameworkError's own `name` is an enumerable field, so pino writes it too.
        const message = `Body is not valid JSON: ${err.message}`
        return { ...line, msg: message, err: { code: 'ENC_ERR_CTP_INVALID_JSON', message, name: 'FrameworkError', stack: err.stack, statusCode: 400, type: 'FrameworkError' } }
      })
    },
  },
]
