import { runtimeError } from '../errors/runtime-codes'

/** What getDecorator() needs of a scope. */
interface DecoratedScope {
  readonly path: string
  hasDecorator(name: string | symbol): boolean
  hasRequestDecorator(name: string | symbol): boolean
  hasReplyDecorator(name: string | symbol): boolean
}

/** What it needs of a request or reply: the scope serving its route. */
interface Served {
  readonly server: DecoratedScope
}

export type Target = 'scope' | 'request' | 'reply'

/**
 * Fastify 5's typed access to a decoration (lib/request.js, lib/reply.js): the value, a function
 * bound to its owner; a name the serving scope has not declared throws rather than reading
 * `undefined`, so a missing plugin shows at the call, not later.
 */
export function assertDeclared(owner: object, target: Target, name: string | symbol, call: string): void {
  const scope = target === 'scope' ? owner as DecoratedScope : (owner as Served).server
  if (target === 'scope' ? scope.hasDecorator(name) : target === 'request' ? scope.hasRequestDecorator(name) : scope.hasReplyDecorator(name)) return
  throw runtimeError('ENC_ERR_DEC_UNDECLARED', {
    call: `${target === 'scope' ? '' : `${target}.`}${call}('${String(name)}')`,
    path: scope.path,
    declare: target === 'scope' ? 'decorate' : target === 'request' ? 'decorateRequest' : 'decorateReply',
  })
}

export function readDecorator(owner: object, target: Target, name: string | symbol): unknown {
  assertDeclared(owner, target, name, 'getDecorator')
  const value = (owner as Record<string | symbol, unknown>)[name]
  return typeof value === 'function' ? value.bind(owner) : value
}
