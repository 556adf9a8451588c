import { contractError } from '../contract/contract-codes'
import { fillPathParams } from '../runtime/shared/path-params'

/*
 * A contract route's url with its parameters substituted and its query appended, read by the path
 * rules the server routes by (find-my-way's: shared/path-params.ts, one walker for both).
 */

export function substitutePath(route: string, url: string, params: Readonly<Record<string, unknown>> | undefined): string {
  let out = fillPathParams(url, (key, optional) => {
    const value = params?.[key]
    if (value === undefined || value === null) {
      if (optional || key === '*') return ''
      throw contractError('ENC_ERR_CLIENT_OPTIONS', { problem: `${route}: the path parameter params.${key} of ${url} is missing` })
    }
    const text = String(value)
    // The wildcard may span segments: each is encoded, the slashes between them kept.
    return key === '*' ? text.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(text)
  })
  // An optional last parameter left out drops its segment's slash too (`/notes/:id?` is `/notes`), as find-my-way registers it.
  if (out.length > 1 && out.endsWith('/') && !url.endsWith('/')) out = out.slice(0, -1)
  return out
}

export function queryString(query: Readonly<Record<string, unknown>> | undefined): string {
  if (query === undefined || query === null) return ''
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue
    if (Array.isArray(value)) for (const item of value) search.append(name, String(item))
    else search.append(name, String(value))
  }
  const text = search.toString()
  return text === '' ? '' : `?${text}`
}
