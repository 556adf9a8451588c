import type { HookName } from '../runtime/types'
import { assertInstanceMethod, declarationError, decoratedWhere } from './declaration-error'
import { addHookMeta } from './metadata'

const hookNames = ['onRequest', 'preParsing', 'preValidation', 'preHandler', 'preSerialization', 'onSend', 'onResponse',
  'onRequestAbort', 'onTimeout', 'onError', 'onRoute', 'onRegister', 'onReady', 'preClose', 'onClose'] as const
// Keeps the list in step with the runtime's HookName, in both directions.
type Missing = Exclude<HookName, typeof hookNames[number]>
const complete: Missing extends never ? true : Missing = true
void complete

/**
 * Makes a module method a hook of the module's context: it applies to the module's routes and
 * its descendants' (spec §6.2). Called with `this` = the module instance; a `done` parameter
 * makes it a callback-style hook, as with `addHook`.
 *
 * @example
 * @Module({ controllers: [AdminController] })
 * class AdminModule {
 *   constructor(private readonly audit: AuditLog) {}
 *   @Hook('preHandler') async record(request: Request) { await this.audit.write(request.url) }
 * }
 */
export function Hook(name: HookName): MethodDecorator {
  return (target, propertyKey, descriptor) => {
    const where = decoratedWhere(`@Hook('${String(name)}')`, target, propertyKey)
    if (!(hookNames as readonly unknown[]).includes(name)) {
      throw declarationError('ENC_ERR_DECL_HOOK_NAME', { where, known: hookNames })
    }
    assertInstanceMethod(target, descriptor, where, 'hook')
    addHookMeta(target.constructor, { name, propertyKey })
  }
}
