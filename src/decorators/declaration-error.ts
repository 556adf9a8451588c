import { declarationMessage, decoratorErrorCodes, type DecoratorErrorCode } from './decorator-codes'

/**
 * Thrown while a class is being declared (when its decorators run), so a mistake surfaces at
 * import time with a stack pointing at the class. Same shape as the runtime's FrameworkError
 * (`code`, `statusCode`), but this layer imports nothing of the runtime's code (DESIGN §1).
 */
export class DeclarationError extends Error {
  readonly code: DecoratorErrorCode
  readonly statusCode: number | undefined = undefined

  constructor(code: DecoratorErrorCode, message: string) {
    super(message)
    this.name = 'DeclarationError'
    this.code = code
  }
}

/** Builds a declaration error from its table entry: `declarationError('ENC_ERR_DECL_HOOK_NAME', { where, known })`. */
export function declarationError<C extends DecoratorErrorCode>(code: C, args: Parameters<typeof declarationMessage<C>>[1]): DeclarationError {
  return new DeclarationError(code, declarationMessage(code, args))
}

export function isDeclarationError(error: unknown): error is DeclarationError {
  return error instanceof DeclarationError && error.code in decoratorErrorCodes
}

/** `UserController.create` or `UserController` for error messages. */
export function memberName(target: object, propertyKey?: string | symbol): string {
  const owner = typeof target === 'function' ? target.name : target.constructor.name
  return propertyKey === undefined ? owner : `${owner}.${String(propertyKey)}`
}

/** The members a method decorator may sit on, as its errors name them. */
export type MethodMember = 'route' | 'error-handler' | 'not-found-handler' | 'hook'

/**
 * What every method decorator of this layer checks first: it sits on an instance method, not on a
 * static one and not on a property.
 */
export function assertInstanceMethod(target: object, descriptor: PropertyDescriptor | undefined, where: string, member: MethodMember): void {
  if (typeof target === 'function') throw declarationError('ENC_ERR_DECL_STATIC_MEMBER', { where, member })
  if (descriptor === undefined || typeof descriptor.value !== 'function') {
    throw declarationError('ENC_ERR_DECL_TARGET', { where, case: `${member}-on-property` })
  }
}

/**
 * Without `experimentalDecorators`, TypeScript 5 (and esbuild, swc, tsx) compile decorators to the
 * standard ones, called `(value, context)`: a method decorator then saw the method as a static
 * member named `[object Object]`, and a class decorator as a misused method decorator. The context
 * object is recognised (a string `kind`, a `name`, an `addInitializer` function), and the fix named.
 */
export function assertLegacyDecorator(decorator: string, second: unknown): void {
  if (second === null || typeof second !== 'object') return
  const context = second as { kind?: unknown; name?: unknown; addInitializer?: unknown }
  if (typeof context.kind !== 'string' || !('name' in context) || typeof context.addInitializer !== 'function') return
  throw declarationError('ENC_ERR_DECL_STANDARD_DECORATORS', { decorator, kind: context.kind, name: String(context.name) })
}

/**
 * The `@Decorator() on Class.member` a declaration error names, after checking the decorator was
 * called the legacy way: under TS 5's standard decorators the second argument is a context object
 * that would print as `Class.[object Object]` and send the user after the wrong fix.
 */
export function decoratedWhere(decorator: string, target: object, propertyKey: unknown): string {
  assertLegacyDecorator(decorator, propertyKey)
  return `${decorator} on ${memberName(target, propertyKey as string | symbol | undefined)}`
}
