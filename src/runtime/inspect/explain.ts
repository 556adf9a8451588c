import { runtimeError } from '../errors/runtime-codes'
import type { Declared, RouteInspection } from '../shared/introspection'

/**
 * Finds the route `'POST /notes/:id'` names (method and declared path, as printRoutes shows
 * them). An unknown one is a coded error listing the nearest declared routes.
 */
export function findRoute(routes: readonly RouteInspection[], query: string): RouteInspection {
  const match = /^\s*([A-Za-z]+)\s+(\S+)\s*$/.exec(typeof query === 'string' ? query : '')
  if (match === null) {
    throw runtimeError('ENC_ERR_INSPECT_ROUTE_NOT_FOUND', { given: JSON.stringify(query) })
  }
  const method = match[1].toUpperCase()
  const found = routes.find((r) => r.method === method && r.url === match[2])
  if (found !== undefined) return found
  const wanted = `${method} ${match[2]}`
  const nearest = routes.map((r) => `${r.method} ${r.url}`).sort((a, b) => distance(a, wanted) - distance(b, wanted)).slice(0, 3)
  throw runtimeError('ENC_ERR_INSPECT_ROUTE_NOT_FOUND', { wanted, nearest })
}

/** Edit distance, for "did you mean". */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) row.push(Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)))
    previous = row
  }
  return previous[b.length]
}

const list = (items: readonly Declared[]): string => items.length === 0 ? 'none' : items.map((d) => `${d.name} [${d.origin}]`).join(', ')

/** The text form of one route's resolved pipeline, in the order a request meets it. */
export function explainRoute(route: RouteInspection): string {
  const lines = [`${route.method} ${route.url}`, `  scope: ${route.scope}`, `  declared by: ${route.origin} (handler ${route.handler})`]
  lines.push('  hooks, in order:')
  if (route.hooks.length === 0) lines.push('    none')
  route.hooks.forEach((h, i) => lines.push(`    ${i + 1}. ${h.name} ${h.fn}  [${h.onRoute ? `added by the onRoute hook of ${h.origin}` : h.routeOption ? 'route option' : h.origin}, scope ${h.scope}]`))
  lines.push('  validators:')
  const parts = Object.entries(route.validators)
  if (parts.length === 0) lines.push('    none')
  for (const [part, v] of parts) lines.push(`    ${part}: ${v.fn}  [${v.scope === 'default' ? 'default' : `${v.origin}, scope ${v.scope}`}]`)
  lines.push('  serializers:')
  const statuses = Object.entries(route.serializers)
  if (statuses.length === 0) lines.push('    none (JSON.stringify)')
  for (const [status, s] of statuses) lines.push(`    ${status}: ${s.fn}  [${s.scope === 'default' ? 'default' : `${s.origin}, scope ${s.scope}`}]`)
  lines.push('  error handlers, nearest first:')
  for (const e of route.errorHandlers) {
    const answers = e.responses === null ? '' : ` answers ${Object.keys(e.responses).join(', ')}`
    lines.push(`    ${e.fn}${answers}  [${e.origin}, scope ${e.scope}]`)
  }
  lines.push('    default handler')
  lines.push(`  schema error formatter: ${route.schemaErrorFormatter.fn}`)
  lines.push(`  security: ${route.security.length === 0 ? 'none' : route.security.map((s) => `${s.name} (${s.status}) [${s.origin}]`).join(', ')}`)
  lines.push(`  visible decorators: instance ${list(route.visibleDecorators.instance)}; request ${list(route.visibleDecorators.request)}; reply ${list(route.visibleDecorators.reply)}`)
  lines.push(`  visible schemas: ${list(route.visibleSchemas)}`)
  lines.push(`  providers: ${list(route.providers)}`)
  return lines.join('\n') + '\n'
}
