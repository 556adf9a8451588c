import { runtimeError } from '../errors/runtime-codes'

/**
 * @fastify/multipart hands on its parser's errors (@fastify/busboy 3) as plain Errors, without
 * a status: a multipart body with no boundary, a boundary longer than the parser takes, or one
 * cut short answered 500 (Fastify 5.12.8 too, with the parser's message in the body). Those are
 * the client's bytes, not a server fault: a 500 for them pages whoever watches 5xx rates, and
 * a client cannot tell it sent garbage. They become 400 ENC_ERR_MULTIPART_MALFORMED (the
 * parser's error as `cause`). Recognised by message and by the parser in the stack, so that an
 * application error that happens to say the same is left alone; anything else the plugin
 * throws (its own coded 4xx/413, a TypeError) is unchanged.
 */
const clientCaused = new Set([
  'Multipart: Boundary not found',
  'Unexpected end of multipart data',
  'Part terminated early due to unexpected end of multipart data',
  'The needle cannot have a length bigger than 256.',
])

export function multipartParseError(thrown: unknown): unknown {
  if (!(thrown instanceof Error) || !clientCaused.has(thrown.message)) return thrown
  const own = thrown as Error & { statusCode?: unknown; status?: unknown }
  if (own.statusCode !== undefined || own.status !== undefined) return thrown
  if (!/[\\/]busboy[\\/]/.test(thrown.stack ?? '')) return thrown
  const problem = thrown.message.startsWith('The needle') ? 'its boundary is longer than 252 characters' : thrown.message
  return runtimeError('ENC_ERR_MULTIPART_MALFORMED', { problem }, { cause: thrown })
}
