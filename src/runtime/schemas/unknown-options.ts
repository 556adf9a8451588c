import { didYouMean } from './did-you-mean'

/**
 * The unknown-key check of Enclave's options objects (app, module, listen, cluster and client
 * options, the options of its own plugins and of HttpError; server, route and printRoutes options
 * make the same check with messages of their own, in declare/): null when every own key is known,
 * else `unknown option 'pth' (did you mean 'path'?)`, or `unknown options 'a', 'b' (did you mean
 * ...)` for several, ready for the caller's coded error to name the call and list what it takes.
 * A misspelt option is otherwise silently the default. In schemas/ beside did-you-mean.ts because
 * errors/ (HttpError's options) may import only schemas/ and types.ts.
 */
export function unknownOptions(given: object, known: readonly string[]): string | null {
  const unknown = Object.keys(given).filter((key) => !known.includes(key))
  if (unknown.length === 0) return null
  const named = unknown.map((key) => `'${key}'${didYouMean(key, known)}`)
  return `unknown option${unknown.length > 1 ? 's' : ''} ${named.join(', ')}`
}
