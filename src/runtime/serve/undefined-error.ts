import type { FrameworkError } from '../errors/framework-error'
import { runtimeError } from '../errors/runtime-codes'

/**
 * What a stage that threw (or rejected with) `undefined` or `null` fails with, as Fastify 3 does
 * (FST_ERR_SEND_UNDEFINED_ERR): the error handlers get an Error to read, and the 500 says what
 * happened. The message is the framework's own, never user data, so it is exposed.
 */
export function undefinedError(): FrameworkError {
  const error = runtimeError('ENC_ERR_REPLY_UNDEFINED_ERROR')
  ;(error as FrameworkError & { expose?: boolean }).expose = true
  return error
}
