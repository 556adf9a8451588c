import { didYouMean } from './did-you-mean'

/**
 * The one check every options object Enclave owns makes of its keys (server, app, module,
 * listen, route, cluster and client options, the options of its own plugins and of HttpError):
 * null when every own key is known, else `unknown option 'pth' (did you mean 'path'?)`, or
 * `unknown options 'a', 'b' (did you mean ...)` for several, ready for the caller's coded error
 * to name the call and list what it takes. A misspelt option is otherwise silently the default.
 */
export function unknownOptions(given: object, known: readonly string[]): string | null {
  const unknown = Object.keys(given).filter((key) => !known.includes(key))
  if (unknown.length === 0) return null
  const named = unknown.map((key) => `'${key}'${didYouMean(key, known)}`)
  return `unknown option${unknown.length > 1 ? 's' : ''} ${named.join(', ')}`
}
