import { runtimeError } from '../errors/runtime-codes'

/**
 * A thrown value the error path can read. An object whose getters throw (or a Proxy whose traps
 * do) would throw again inside the error path, often in a promise callback: an unhandled
 * rejection, which ends a Node process, and a request left unanswered. Such a value is replaced
 * by ENC_ERR_REPLY_UNREADABLE_THROWN (a generic 500, logged). Read once per failure, never on
 * the success path.
 */
export function readableThrown(thrown: unknown): unknown {
  if (thrown === null || (typeof thrown !== 'object' && typeof thrown !== 'function')) return thrown
  let reading = 'its prototype'
  try {
    void (thrown instanceof Error)
    Object.getPrototypeOf(thrown)
    Array.isArray(thrown)
    const source = thrown as Record<string, unknown>
    // What the error path and the loggers read: status, code, message, headers, and what pino's
    // error serializer reads (name, cause and every own enumerable key). Not `stack`: on an Error,
    // V8 formats it on first read (microseconds), and a 4xx never needs it.
    // Named reads, one site per name: a loop over the names made one keyed read see them all
    // (megamorphic, a stub-cache lookup per name) on every failure.
    reading = 'statusCode'; void source.statusCode
    reading = 'status'; void source.status
    reading = 'code'; void source.code
    reading = 'message'; void source.message
    reading = 'expose'; void source.expose
    reading = 'headers'; void source.headers
    reading = 'name'; void source.name
    reading = 'cause'; void source.cause
    // The error's headers are put on the reply (error-reply.ts, before any error handler runs),
    // each value turned into text (reply.ts headerText): their names, values and the text of an
    // object value are read too, or a Proxy, getter or toString() there hangs the request.
    const headers = source.headers
    if (headers !== null && typeof headers === 'object') {
      reading = 'headers'
      const list = headers as Record<string, unknown>
      for (const name of Object.keys(list)) {
        const value = list[name]
        if (Array.isArray(value)) { for (const item of value as unknown[]) asText(item) } else asText(value)
      }
    }
    reading = 'its keys'
    for (const key in source) { reading = key; void source[key] }
    return thrown
  } catch {
    return runtimeError('ENC_ERR_REPLY_UNREADABLE_THROWN', { reading })
  }
}

/** An object header value's text, as the reply will take it (throws where that would). */
function asText(value: unknown): void {
  if (value !== null && (typeof value === 'object' || typeof value === 'function')) String(value)
}
