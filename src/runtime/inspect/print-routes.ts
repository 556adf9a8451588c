import type { RouteInspection } from '../shared/introspection'

interface SegmentNode {
  readonly children: Map<string, SegmentNode>
  readonly methods: Set<string>
}

const newNode = (): SegmentNode => ({ children: new Map(), methods: new Set() })

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
export function printRoutes(routes: readonly RouteInspection[]): string {
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
  }
  const lines = [`└── /${methods(root)}`]
  render(root, '    ', lines)
  return lines.join('\n') + '\n'
}

function methods(node: SegmentNode): string {
  return node.methods.size === 0 ? '' : ` (${[...node.methods].sort().join(', ')})`
}

function render(node: SegmentNode, indent: string, lines: string[]): void {
  const entries = [...node.children.entries()].sort(([a], [b]) => a.localeCompare(b))
  entries.forEach(([segment, child], i) => {
    const last = i === entries.length - 1
    lines.push(`${indent}${last ? '└── ' : '├── '}${segment === '' ? '(trailing /)' : segment}${methods(child)}`)
    render(child, indent + (last ? '    ' : '│   '), lines)
  })
}
