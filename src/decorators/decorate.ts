import { declarationError } from './declaration-error'
import { addReplyDecorator, addRequestDecorator, getReplyDecorators, getRequestDecorators } from './metadata'
import type { DecoratorMeta } from './types'
import type { DeclaredReplyName, DeclaredRequestName, ReplyDecorationValue, RequestDecorationValue } from '../runtime/types'

type Kind = 'DecorateRequest' | 'DecorateReply'

/**
 * Adds a request property in the module's context (spec §2.6, §3.3.6): visible on the routes
 * of the module and its descendants, `undefined` elsewhere. Stackable. The value is a primitive,
 * a function, `{ getter, setter? }`, or `{ factory: (request) => value }` for a fresh object per
 * request (a plain object value is refused at boot: it would be shared by every request).
 * Declare the property's type once in `RequestDecorations` (declaration merging): the value is
 * then checked against it, and `request.<name>` reads with that type in every handler. An
 * undeclared name does not compile (it could not be read: Request has no catch-all).
 *
 * @example
 * @DecorateRequest('answer', 42)
 * @DecorateRequest('user', { factory: () => ({ roles: [] }) })
 * @Module({ controllers: [UserController] })
 * class AppModule {}
 */
export function DecorateRequest<K extends string>(name: DeclaredRequestName<K>, value: RequestDecorationValue<K>): ClassDecorator {
  return (target) => declare('DecorateRequest', target, { name, value }, getRequestDecorators, addRequestDecorator)
}

/** Like {@link DecorateRequest}, for the reply object: the name declared in `ReplyDecorations`, the value checked against it. */
export function DecorateReply<K extends string>(name: DeclaredReplyName<K>, value: ReplyDecorationValue<K>): ClassDecorator {
  return (target) => declare('DecorateReply', target, { name, value }, getReplyDecorators, addReplyDecorator)
}

function declare(kind: Kind, target: Function, meta: DecoratorMeta,
  get: (t: Function) => readonly DecoratorMeta[], add: (t: Function, d: DecoratorMeta) => void): void {
  if (typeof meta.name !== 'string' || meta.name === '') {
    throw declarationError('ENC_ERR_DECL_DECORATOR_NAME', { kind, className: target.name })
  }
  if (get(target).some((d) => d.name === meta.name)) {
    throw declarationError('ENC_ERR_DECL_DECORATOR_DUPLICATE', { kind, name: meta.name, className: target.name })
  }
  add(target, meta)
}
