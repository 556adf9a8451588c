/**
 * How a request target is read for routing, shared by the router and the not-found routing
 * (not-found-params.ts) so that the handler chosen for a 404 reads the same path the router did.
 */

/**
 * The absolute form with a path (`http://host/a`), spelled as Fastify 3's router accepts it
 * (lower-case scheme, a `/` after the authority). Any other (`*`, `*admin`, `HTTP://host/a`,
 * `http://host`) is a 404 as in Fastify 3: find-my-way 9 would read `*admin` as `/admin`, past a
 * proxy rule that denies `/admin`.
 */
const ABSOLUTE_FORM = /^https?:\/\/[^/]*(?=\/)/

/** Where an absolute-form target's path starts (after its scheme and authority); -1 for any other target. */
export function absolutePathStart(url: string): number {
  const absolute = ABSOLUTE_FORM.exec(url)
  return absolute === null ? -1 : absolute[0].length
}

/** Where the path ends: at the first `?` or `#` from `start`, as find-my-way reads it. */
export function pathEnd(url: string, start = 0): number {
  for (let i = start; i < url.length; i++) {
    const c = url.charCodeAt(i)
    if (c === 63 || c === 35) return i
  }
  return url.length
}
