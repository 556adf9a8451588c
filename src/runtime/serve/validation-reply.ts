import { pickSerializer, toValidationError } from '../schemas'
import { defaultValidationMessage } from '../schemas/validation-error'
import type { HttpPart } from '../schemas/types'
import type { ReplyImpl } from './reply'
import { isOpen } from './reply-state'
import { logErrorReply, sendBuiltInPayload } from './error-reply'
import { logsNowhere } from './logs-nowhere'

/**
 * A part that failed validation, with its Error not built yet. Building it (`new Error`, about
 * 0.5-0.9 µs even with no stack captured) was the largest cost of the 400 path that a hand-written
 * server does not pay, and on most routes nobody ever sees that object (CompiledRoute.unobservedValidation).
 */
export class UnbuiltValidationError {
  constructor(readonly errors: unknown[], readonly part: HttpPart) {}
}

/**
 * Answers a failed validation exactly as reply.send(error) would through handleError and
 * defaultErrorReply (the 400 `{ statusCode, error, message }`, the same info log line, the same
 * reply state afterwards), without building the Error. Anything on that path that would read the
 * Error itself (a reply already sent or a gone client, whose Error is logged; a response schema
 * for the 400, which serializes the Error) takes the regular path with the Error built.
 */
export function answerValidationFailure(reply: ReplyImpl, failure: UnbuiltValidationError): void {
  const route = reply.route
  const res = reply.raw
  if (!isOpen(reply) || reply.errorDepth !== 0 || res.headersSent || res.destroyed ||
    (route.serializers !== null && pickSerializer(route.serializers, 400) !== null)) {
    reply.send(toValidationError({ errors: failure.errors }, failure.part, route.schemaErrorFormatter, route.scope))
    return
  }
  const message = defaultValidationMessage(failure.errors, failure.part)
  // What handleError and dispatch leave on the reply before the built-in reply (error-reply.ts).
  reply.errorDepth = 1
  // The line logs the Error itself (`err`): built for it when there is a logger to write it
  // (none given to the server, but a hook may have set request.log: it gets the line).
  if (!logsNowhere(reply)) {
    logErrorReply(reply, 400, toValidationError({ errors: failure.errors }, failure.part, route.schemaErrorFormatter, route.scope), message)
  }
  sendBuiltInPayload(reply, { statusCode: 400, code: undefined, error: 'Bad Request', message })
}
