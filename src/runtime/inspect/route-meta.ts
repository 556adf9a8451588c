import type { RouteInspection } from '../shared/introspection'

/**
 * Fastify 3.27.4's printRoutes `includeMeta`: what its find-my-way store held for a route
 * (defaultBuildPrettyMeta): the error handler, logLevel, logSerializers and each hook list, in that
 * order, a function by its name (`auth()`), each printed only when set. `includeHooks` is
 * `includeMeta` with the hook names. `true` prints every key; a list prints those keys in its order
 * (a key Fastify 3 does not store prints nothing, as there).
 */
export type IncludeMeta = true | readonly string[]

const LIFECYCLE_HOOKS = ['onTimeout', 'onRequest', 'preParsing', 'preValidation', 'preSerialization', 'preHandler', 'onSend', 'onResponse', 'onError']
const APPLICATION_HOOKS = ['onRoute', 'onRegister', 'onReady', 'onClose']
/** Fastify 3's supportedHooks, in its order: what includeHooks stands for. */
export const SUPPORTED_HOOKS: readonly string[] = [...LIFECYCLE_HOOKS, ...APPLICATION_HOOKS]

/** What Fastify 3 prints for includeHooks and includeMeta together: the hooks, then the listed keys (with `true`, only the hooks). */
export function metaToPrint(includeHooks: boolean, includeMeta: IncludeMeta | undefined): IncludeMeta | null {
  if (includeHooks) return [...SUPPORTED_HOOKS, ...(includeMeta === true || includeMeta === undefined ? [] : includeMeta)]
  return includeMeta ?? null
}
const ALL_KEYS: readonly string[] = ['errorHandler', 'logLevel', 'logSerializers', ...SUPPORTED_HOOKS]

/** The `(key) value` lines of one route (printed after `• `). */
export function metaLines(route: RouteInspection, include: IncludeMeta): string[] {
  const lines: string[] = []
  for (const key of include === true ? ALL_KEYS : include) {
    const value = metaValue(route, key)
    if (value !== undefined) lines.push(`(${key}) ${JSON.stringify(value)}`)
  }
  return lines
}

function metaValue(route: RouteInspection, key: string): unknown {
  switch (key) {
    // Fastify 3 names its own handler defaultErrorHandler.
    case 'errorHandler': return route.errorHandlers.length === 0 ? 'defaultErrorHandler()' : `${route.errorHandlers[0].fn}()`
    case 'logLevel': return route.logLevel === '' ? undefined : route.logLevel
    case 'logSerializers': return route.logSerializers === null ? undefined : route.logSerializers
    default: {
      const fns = route.hooks.filter((hook) => hook.name === key).map((hook) => `${hook.fn}()`)
      return fns.length === 0 ? undefined : fns
    }
  }
}
