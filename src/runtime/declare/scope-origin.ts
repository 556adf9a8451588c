import type { ScopeImpl } from './scope'
import { isMadeUpPluginName, readPluginMeta } from '../shared/plugin-meta'
import { liftMetaOf } from '../shared/lift-marks'

/**
 * The module or plugin declaring right now: the label `annotate({ module })` gave the running
 * plugin, else the plugin's name. A lifted plugin declares into this scope under its own name.
 */
export function currentOrigin(scope: ScopeImpl): string {
  const node = scope.context.plugins.current
  if (node.label !== null) return node.label
  if (node.plugin === null) return scope.path.split(' > ')[0]
  // `lift(fn, { name })` names an arrow function that has no name of its own.
  return `plugin ${liftMetaOf(node.plugin)?.name ?? (node.plugin.name === '' ? 'anonymous' : node.plugin.name)}`
}

/**
 * currentOrigin() and which register() call it was, for a clash between two registrations of one
 * plugin (or two anonymous ones): `plugin workspace (2nd register() in root)`.
 */
export function currentRegistration(scope: ScopeImpl): string {
  const origin = currentOrigin(scope)
  const node = scope.context.plugins.current
  if (node.label !== null || node.plugin === null || node.ordinal === undefined || node.owner === null) return origin
  return `${origin} (${ordinal(node.ordinal)} register() in ${node.owner.path})`
}

/**
 * The running plugin's registered name, null when it has none or a module label names what it
 * declares. fastify-plugin's made-up name for an unnamed plugin (`fn-auto-3`, a counter) says
 * less than the function name the origin already carries, so it is not used.
 */
export function registeredPluginName(scope: ScopeImpl): string | null {
  const node = scope.context.plugins.current
  if (node.label !== null || node.plugin === null) return null
  const name = readPluginMeta(node.plugin).registeredName
  return name === null || isMadeUpPluginName(name) ? null : name
}

function ordinal(n: number): string {
  const tens = n % 100
  const suffix = tens >= 11 && tens <= 13 ? 'th' : n % 10 === 1 ? 'st' : n % 10 === 2 ? 'nd' : n % 10 === 3 ? 'rd' : 'th'
  return `${n}${suffix}`
}
