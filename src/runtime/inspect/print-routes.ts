import type { PrintRoutesOptions, RouteInspection } from '../shared/introspection'
import { printRoutesFlat } from './print-routes-flat'
import { metaLines, metaToPrint } from './route-meta'

interface SegmentNode {
  readonly children: Map<string, SegmentNode>
  readonly methods: Set<string>
  readonly routes: RouteInspection[]
}

const newNode = (): SegmentNode => ({ children: new Map(), methods: new Set(), routes: [] })


/**
 * The routes as a tree of path segments, methods in brackets (Fastify's printRoutes, by
 * segment rather than by radix-tree edge so it reads the same whatever the router does).
 * Implicit HEAD routes are left out, as Fastify 3 does.
 *
 * @example
 * └── /
 *     ├── notes (GET, POST)
 *     │   └── :id (DELETE, GET)
 *     └── users (POST)
 */
export function printRoutes(routes: readonly RouteInspection[], options: PrintRoutesOptions = {}): string {
  if (options.commonPrefix === false) return printRoutesFlat(routes, metaToPrint(options.includeHooks === true, options.includeMeta))
  const root = newNode()
  for (const route of routes) {
    if (route.implicit) continue
    let node = root
    for (const segment of route.url.split('/').slice(1)) {
      if (segment === '' && node === root) continue
      let next = node.children.get(segment)
      if (next === undefined) node.children.set(segment, next = newNode())
      node = next
    }
    node.methods.add(route.method)
    node.routes.push(route)
  }
  // includeHooks alone keeps its lines in request order (routeHookLines); with includeMeta, Fastify 3's keys and order.
  const meta = options.includeMeta === undefined ? null : metaToPrint(options.includeHooks === true, options.includeMeta)
  const hooks: RouteLines | null = meta !== null ? (route) => metaLines(route, meta) : options.includeHooks === true ? routeHookLines : null
  const lines = [`└── /${methods(root)}`]
  if (hooks !== null) hookLines(root, '    ', lines, hooks)
  render(root, '    ', lines, hooks)
  return lines.join('\n') + '\n'
}

function methods(node: SegmentNode): string {
  return node.methods.size === 0 ? '' : ` (${[...node.methods].sort().join(', ')})`
}

type RouteLines = (route: RouteInspection) => string[]

function render(node: SegmentNode, indent: string, lines: string[], hooks: RouteLines | null): void {
  const entries = [...node.children.entries()].sort(([a], [b]) => a.localeCompare(b))
  entries.forEach(([segment, child], i) => {
    const last = i === entries.length - 1
    lines.push(`${indent}${last ? '└── ' : '├── '}${segment === '' ? '(trailing /)' : segment}${methods(child)}`)
    const inner = indent + (last ? '    ' : '│   ')
    if (hooks !== null) hookLines(child, inner, lines, hooks)
    render(child, inner, lines, hooks)
  })
}

/**
 * Fastify 3's hook lines, one per hook name with its functions in the order a request meets them.
 * A segment's methods share a line (`notes (GET, POST)`): when their hooks differ, each method's
 * lines are printed with the method first, so no route's hooks are hidden behind another's.
 */
function hookLines(node: SegmentNode, indent: string, lines: string[], linesOf: RouteLines): void {
  const perRoute = [...node.routes].sort((a, b) => a.method.localeCompare(b.method)).map((route) => ({ method: route.method, lines: linesOf(route) }))
  if (perRoute.length === 0) return
  const same = perRoute.every((r) => r.lines.join('\n') === perRoute[0].lines.join('\n'))
  for (const route of same ? perRoute.slice(0, 1) : perRoute) {
    for (const line of route.lines) lines.push(`${indent}• ${same ? '' : `${route.method} `}${line}`)
  }
}

function routeHookLines(route: RouteInspection): string[] {
  const byName = new Map<string, string[]>()
  for (const hook of route.hooks) {
    const fns = byName.get(hook.name) ?? []
    fns.push(`${hook.fn}()`)
    byName.set(hook.name, fns)
  }
  return [...byName].map(([name, fns]) => `(${name}) ${JSON.stringify(fns)}`)
}
