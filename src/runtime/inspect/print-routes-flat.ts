import type { RouteInspection } from '../shared/introspection'
import { metaLines, type IncludeMeta } from './route-meta'

/**
 * printRoutes({ commonPrefix: false }) as Fastify 3.27.4 prints it (find-my-way 4.5's
 * prettyPrintRoutesArray, ported line for line so the text is the same): the router's paths
 * sorted (localeCompare), split before each slash, the first segment hung under `/`; a segment
 * without a route of its own and one child is joined to it (`hello/world`); a route's methods
 * are merged when their constraints are equal, constraints printed as JSON; a path segment with
 * children but no route says `(-)`. Each URL the router answers is listed, as find-my-way's
 * `routes` holds them (a prefixed `/` route's `/v1` and `/v1/`); implicit HEAD routes are not.
 */
export function printRoutesFlat(routes: readonly RouteInspection[], includeMeta: IncludeMeta | null): string {
  const entries: Array<{ path: string; route: RouteInspection }> = []
  for (const route of routes) {
    if (route.implicit) continue
    for (const path of route.routerUrls) entries.push({ path, route })
  }
  // Array.prototype.sort is stable: one path's methods stay in declaration order.
  entries.sort((a, b) => a.path.localeCompare(b.path))

  const merged: Merged[] = []
  for (const { path, route } of entries) {
    const handler: Handler = { method: route.method, constraints: route.constraints ?? undefined, meta: includeMeta === null ? null : metaLines(route, includeMeta) }
    const existing = merged.find((m) => m.path === path)
    if (existing !== undefined) existing.handlers.push(handler)
    else merged.push({ path, handlers: [handler] })
  }
  if (!merged.some((m) => m.path === '/')) {
    // As find-my-way: the root level after a root wildcard route, else first.
    const root: Merged = { path: '/', handlers: [{ method: null, constraints: undefined, meta: null }] }
    if (merged.some((m) => m.path === '*')) merged.splice(1, 0, root)
    else merged.unshift(root)
  }
  const tree = buildTree(merged)
  return tree.map((branch, i) => drawBranch(branch, null, i === tree.length - 1, false, true) + '\n').join('')
}

interface Handler { method: string | null; constraints: Readonly<Record<string, unknown>> | undefined; meta: string[] | null }
interface Merged { path: string; handlers: Handler[] }
interface Segment { path: string; children: Segment[]; handlers?: Handler[] }

function buildTree(merged: readonly Merged[]): Segment[] {
  const result: Segment[] = []
  const top: Level = { result, next: new Map() }
  for (const route of merged) {
    let split = route.path.split(/(?=\/)/)
    if (split[0] !== '/' && split[0] !== '*') split = ['/', split[0].slice(1), ...split.slice(1)]
    let level = top
    split.forEach((path, i) => {
      let next = level.next.get(path)
      if (next === undefined) {
        next = { result: [], next: new Map() }
        level.next.set(path, next)
        const segment: Segment = { path, children: next.result }
        if (i === split.length - 1) segment.handlers = route.handlers
        level.result.push(segment)
      }
      level = next
    })
  }
  return result
}

interface Level { result: Segment[]; next: Map<string, Level> }

function drawBranch(segment: Segment, prefix: string | null, endBranch: boolean, noPrefix: boolean, rootBranch: boolean): string {
  let branch = ''
  if (!noPrefix && !rootBranch) branch += '\n'
  if (!noPrefix) branch += `${prefix ?? ''}${endBranch ? '└── ' : '├── '}`
  branch += segment.path
  const under = `${noPrefix ? '' : prefix ?? ''}${endBranch ? '    ' : '│   '}`
  if (segment.handlers !== undefined) {
    const flat: Handler[] = []
    for (const handler of segment.handlers) {
      const same = flat.find((h) => JSON.stringify(h.constraints) === JSON.stringify(handler.constraints))
      if (same !== undefined) same.method = [same.method, handler.method].join(', ')
      else flat.push({ ...handler })
    }
    flat.forEach((handler, i) => {
      if (i > 0) branch += `${under}${segment.path}`
      branch += ` (${handler.method ?? '-'})`
      if (handler.constraints !== undefined && JSON.stringify(handler.constraints) !== '{}') branch += ` ${JSON.stringify(handler.constraints)}`
      for (const line of handler.meta ?? []) branch += `\n${under}• ${line}`
      if (flat.length > 1 && i !== flat.length - 1) branch += '\n'
    })
  } else if (segment.children.length > 1) {
    branch += ' (-)'
  }
  const childPrefix = noPrefix ? prefix : `${prefix ?? ''}${endBranch ? '    ' : '│   '}`
  segment.children.forEach((child, i) => {
    branch += drawBranch(child, childPrefix, i === segment.children.length - 1, segment.handlers === undefined && segment.children.length === 1, false)
  })
  return branch
}
