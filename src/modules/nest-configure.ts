import { getErrorHandlerKey, getHooks, getNotFoundHandler } from '../decorators/internal'
import { moduleError } from './module-error'

/**
 * A module class's undecorated `configure(consumer)` is NestJS's NestModule middleware
 * registration (`consumer.apply(RequestId).forRoutes('*')`). Nothing in Enclave calls it, so the
 * middleware would silently never run (a missing request id, an unchecked tenant): boot refuses it
 * and names the hook that does the same work. One parameter only, so a module's own `configure()`
 * helper of another shape is left alone; a `configure` carrying @Hook/@ErrorHandler/@NotFoundHandler
 * is Enclave's already.
 */
export function checkNestConfigure(type: Function, path: string): void {
  const configure = (type.prototype as { configure?: unknown } | undefined)?.configure
  if (typeof configure !== 'function' || configure.length !== 1) return
  const decorated = getHooks(type).some((hook) => hook.propertyKey === 'configure')
    || getErrorHandlerKey(type) === 'configure' || getNotFoundHandler(type)?.propertyKey === 'configure'
  if (decorated) return
  throw moduleError('ENC_ERR_MODULE_NEST_MIDDLEWARE', { path, name: type.name })
}
