/**
 * Under ignoreTrailingSlash Fastify 3's router (find-my-way 4) registers each path under its
 * other spelling too (`/a` for `/a/`, `/a/` for `/a`; not `/` or a `*` path), so two routes that
 * share a spelling collide there (`/a/` and `/a//`, `/a` and `/a//`): find-my-way 9 trims one
 * slash and would let them pass (differential seed 27 case 234). Per method and constraints
 * (`table`), each spelling taken and the route that took it; without the option, nothing.
 */
export class RouteSpellings<T> {
  readonly #tables = new Map<string, Map<string, T>>()
  readonly #on: boolean

  constructor(ignoreTrailingSlash: boolean) {
    this.#on = ignoreTrailingSlash
  }

  /** The route holding one of the path's spellings, if any (`other`: it holds only the path's other spelling). */
  owner(table: string, url: string): { owner: T; other: boolean } | undefined {
    if (!this.#on) return undefined
    const taken = this.#tables.get(table)
    if (taken === undefined) return undefined
    const owner = taken.get(url)
    if (owner !== undefined) return { owner, other: false }
    const other = otherSpelling(url)
    const otherOwner = other === null ? undefined : taken.get(other)
    return otherOwner === undefined ? undefined : { owner: otherOwner, other: true }
  }

  take(table: string, url: string, route: T): void {
    if (!this.#on) return
    let taken = this.#tables.get(table)
    if (taken === undefined) this.#tables.set(table, taken = new Map())
    taken.set(url, route)
    const other = otherSpelling(url)
    if (other !== null) taken.set(other, route)
  }
}

function otherSpelling(url: string): string | null {
  const last = url.charCodeAt(url.length - 1)
  if (url === '/' || last === 42) return null // a `*` path
  return last === 47 ? url.slice(0, -1) : `${url}/`
}
