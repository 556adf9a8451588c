import { runtimeError } from '../errors/runtime-codes'

/** What getDecorator() needs of a request or reply: the scope serving its route. */
interface Served {
  readonly server: {
    readonly path: string
    hasRequestDecorator(name: string | symbol): boolean
    hasReplyDecorator(name: string | symbol): boolean
  }
}

type Target = 'request' | 'reply'

/**
 * Fastify 5's typed access to a decoration (lib/request.js, lib/reply.js): the value, a function
 * bound to its owner; a name the serving scope has not declared throws rather than reading
 * `undefined`, so a missing plugin shows at the call, not later.
 */
function assertDeclared(owner: Served, target: Target, name: string | symbol, call: string): void {
  const declared = target === 'request' ? owner.server.hasRequestDecorator(name) : owner.server.hasReplyDecorator(name)
  if (!declared) {
    throw runtimeError('ENC_ERR_DEC_UNDECLARED', { call: `${target}.${call}('${String(name)}')`, path: owner.server.path, declare: target === 'request' ? 'decorateRequest' : 'decorateReply' })
  }
}

export function readDecorator(owner: object, target: Target, name: string | symbol): unknown {
  assertDeclared(owner as Served, target, name, 'getDecorator')
  const value = (owner as Record<string | symbol, unknown>)[name]
  return typeof value === 'function' ? value.bind(owner) : value
}

export function requestGetDecorator(this: object, name: string | symbol): unknown { return readDecorator(this, 'request', name) }
export function replyGetDecorator(this: object, name: string | symbol): unknown { return readDecorator(this, 'reply', name) }

/** Fastify 5's request.setDecorator(): writes a declared request decoration (a typo throws instead of adding a property). */
export function requestSetDecorator(this: object, name: string | symbol, value: unknown): void {
  assertDeclared(this as Served, 'request', name, 'setDecorator')
  ;(this as Record<string | symbol, unknown>)[name] = value
}
