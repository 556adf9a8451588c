import { closestName } from '../runtime/internal'

/** A boot error of the module layer (what happened, in which module path, how to fix it), built from its table. */
export { moduleError } from './module-codes'

/** `class UserService`, `'config'`, `Symbol(db)` for messages. */
export function describeToken(token: unknown): string {
  if (typeof token === 'function') return token.name === '' ? 'an anonymous class' : token.name
  if (typeof token === 'string') return `'${token}'`
  return String(token)
}

/** `Mailer` for the class, the string and Symbol(Mailer) alike: what a look-alike token shares. */
export function plainName(token: unknown): string {
  const name = typeof token === 'function' ? token.name : typeof token === 'symbol' ? token.description ?? '' : String(token)
  return name.toLowerCase()
}

/**
 * A mistyped string or symbol token ('DB_ULR'): the candidates of the same kind whose name is the
 * closest to its name (none for a class token, or when no name is close).
 */
export function closestTokens(token: unknown, candidates: readonly unknown[]): unknown[] {
  if (typeof token !== 'string' && typeof token !== 'symbol') return []
  const sameKind = candidates.filter((t) => typeof t === typeof token)
  const close = closestName(plainName(token), sameKind.map(plainName))
  return close === null ? [] : sameKind.filter((t) => plainName(t) === close)
}
