import { FrameworkError } from '../runtime'
import type { ModuleErrorCode } from './module-codes'

/** A boot error of the module layer: what happened, in which module (path), how to fix it. */
export function moduleError(code: ModuleErrorCode, message: string, cause?: unknown): FrameworkError {
  return new FrameworkError(code, message, cause === undefined ? {} : { cause })
}

/** `class UserService`, `'config'`, `Symbol(db)` for messages. */
export function describeToken(token: unknown): string {
  if (typeof token === 'function') return token.name === '' ? 'an anonymous class' : token.name
  if (typeof token === 'string') return `'${token}'`
  return String(token)
}
