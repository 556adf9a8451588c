import { requestHookNames, type BoundHook } from '../shared/bound-hook'
import { securityOf } from '../shared/security'
import { refusalOf } from '../shared/refusals'
import { defaultStatusOf } from '../shared/default-status'
import { allScopes } from './all-scopes'
import { constraintsOf, urlsOf } from './compile'
import type { ScopeImpl } from '../declare/scope'
import type { DecoratorTarget } from '../declare/decorations'
import type { BootContext } from './boot-context'
import type { RouteRecord } from './route-record'
import type {
  Declared, ErrorHandlerInspection, FunctionInspection, HookInspection, Inspection, RouteInspection, ScopeInspection,
  RefusalInspection, SchemaInspection, SecurityInspection,
} from '../shared/introspection'

const DOC_KEYS = ['summary', 'description', 'operationId', 'tags', 'deprecated', 'hide', 'consumes', 'produces'] as const
const PARTS = ['params', 'body', 'querystring', 'headers'] as const

/**
 * The introspection model of a booted server, read from what boot resolved: the scopes' own
 * stores and origins, and the route records compile kept (the same hook lists, error handler
 * chains and normalized schemas the compiled routes were built from).
 */
export function buildInspection(boot: BootContext): Inspection {
  const scopes = allScopes(boot.rootScope)
  const schemas: SchemaInspection[] = scopes.flatMap((scope) => Object.entries(scope.schemas.own()).map(([id, schema]) =>
    ({ id, scope: scope.path, origin: originOf(scope, `schema:${id}`), schema })))
  const routes = boot.routeRecords.flatMap((record) => [
    ...record.def.methods.map((method) => routeInspection(boot, record, method, false)),
    ...record.implicitHead.map((method) => routeInspection(boot, record, method, true)),
  ])
  return { root: scopeInspection(boot.rootScope), routes, schemas }
}

export function fnName(fn: Function | null | undefined): string {
  const name = fn?.name ?? ''
  const bare = name.startsWith('bound ') ? name.slice(6) : name
  return bare === '' ? 'anonymous' : bare
}

function originOf(scope: ScopeImpl, key: unknown): string {
  return scope.origins.get(key) ?? scope.path.split(' > ')[0]
}

function ownDecorators(scope: ScopeImpl, target: DecoratorTarget): Declared[] {
  return [...scope.decorations[target].values()].map((d) => ({ name: String(d.name), scope: scope.path, origin: originOf(scope, d) }))
}

function declaredFunction(scope: ScopeImpl, fn: Function | null, slot: string): FunctionInspection | null {
  return fn === null ? null : { fn: fnName(fn), scope: scope.path, origin: originOf(scope, slot) }
}

function scopeInspection(scope: ScopeImpl): ScopeInspection {
  const handler = declaredFunction(scope, scope.ownErrorHandler, 'setErrorHandler')
  return {
    path: scope.path,
    prefix: scope.prefix,
    modules: scope.modules,
    decorators: { instance: ownDecorators(scope, 'instance'), request: ownDecorators(scope, 'request'), reply: ownDecorators(scope, 'reply') },
    hooks: scope.hooks.all().map(([name, hook]) => ({ name, fn: fnName(hook.fn), scope: scope.path, origin: originOf(scope, hook), routeOption: false, onRoute: false })),
    schemas: Object.keys(scope.schemas.own()).map((id) => ({ name: id, scope: scope.path, origin: originOf(scope, `schema:${id}`) })),
    errorHandler: handler === null ? null : { ...handler, responses: scope.errorResponses, contentType: scope.errorContentType },
    notFoundHandler: declaredFunction(scope, scope.notFoundHandler, 'setNotFoundHandler'),
    validatorCompiler: declaredFunction(scope, scope.ownValidatorCompiler, 'setValidatorCompiler'),
    serializerCompiler: declaredFunction(scope, scope.ownSerializerCompiler, 'setSerializerCompiler'),
    schemaErrorFormatter: declaredFunction(scope, scope.schemaErrorFormatter, 'setSchemaErrorFormatter'),
    children: scope.children.map(scopeInspection),
  }
}

function chain(scope: ScopeImpl): ScopeImpl[] {
  const out: ScopeImpl[] = []
  for (let s: ScopeImpl | null = scope; s !== null; s = s.parent) out.unshift(s)
  return out
}

/** The compiler a route used: its own option, else the nearest scope's setter, else the server default. */
function compilerSource(record: RouteRecord, option: Function | undefined, slot: 'validatorCompiler' | 'serializerCompiler'): FunctionInspection {
  if (option !== undefined) return { fn: fnName(option), scope: 'route option', origin: record.def.origin }
  const resolved = record.resolution[slot]
  for (const scope of chain(record.def.scope).reverse()) {
    if (resolved !== null && (slot === 'validatorCompiler' ? scope.ownValidatorCompiler : scope.ownSerializerCompiler) === resolved) {
      return { fn: fnName(resolved), scope: scope.path, origin: originOf(scope, slot === 'validatorCompiler' ? 'setValidatorCompiler' : 'setSerializerCompiler') }
    }
  }
  const fn = slot === 'validatorCompiler' ? 'default validator (ajv 6, visible shared schemas)' : 'default serializer (fast-json-stringify, visible shared schemas)'
  return { fn, scope: 'default', origin: 'server options' }
}

function hookInspection(record: RouteRecord, name: string, hook: BoundHook): HookInspection {
  const scope = hook.scope as unknown as ScopeImpl
  const origin = scope.origins.get(hook)
  if (origin !== undefined) return { name, fn: fnName(hook.fn), scope: scope.path, origin, routeOption: false, onRoute: false }
  // Hooks given in the route options are bound at compile time, so no scope recorded them; one a
  // plugin's onRoute hook put there belongs to that plugin.
  const added = record.def.onRouteHooks.get(hook.fn)
  return added === undefined
    ? { name, fn: fnName(hook.fn), scope: record.def.scope.path, origin: record.def.origin, routeOption: true, onRoute: false }
    : { name, fn: fnName(hook.fn), scope: added.scope, origin: added.origin, routeOption: true, onRoute: true }
}

function routeInspection(boot: BootContext, record: RouteRecord, method: string, implicit: boolean): RouteInspection {
  const { def, schema } = record
  const options = def.options
  const hooks = requestHookNames.flatMap((name) => (record.hooks[name] ?? []).map((hook) => hookInspection(record, name, hook)))
  const validators: Partial<Record<typeof PARTS[number], FunctionInspection>> = {}
  // The body part too whatever the method (compiled-route.ts: a body schema is never bypassed).
  for (const part of PARTS) {
    if (schema[part] !== null) validators[part] = compilerSource(record, options.validatorCompiler, 'validatorCompiler')
  }
  const serializers: Record<string, FunctionInspection> = {}
  for (const key of Object.keys(schema.response ?? {})) serializers[key] = compilerSource(record, options.serializerCompiler, 'serializerCompiler')
  const errorHandlers: ErrorHandlerInspection[] = record.errorHandlers.map((entry) => {
    const scope = entry.scope as unknown as ScopeImpl
    if (entry.fn === options.errorHandler) return { fn: fnName(entry.fn), scope: 'route option', origin: def.origin, responses: null, contentType: null }
    return { fn: fnName(entry.fn), scope: scope.path, origin: originOf(scope, 'setErrorHandler'), responses: scope.errorResponses, contentType: scope.errorContentType }
  })
  const security: SecurityInspection[] = []
  for (const name of requestHookNames) {
    for (const hook of record.hooks[name] ?? []) {
      const description = securityOf(hook.fn)
      if (description === undefined || security.some((s) => s.name === description.name)) continue
      const seen = hookInspection(record, name, hook)
      security.push({ name: description.name, scheme: description.scheme, status: description.status ?? 401, scope: seen.scope, origin: seen.origin })
    }
  }
  const refusals: RefusalInspection[] = []
  for (const name of requestHookNames) {
    for (const hook of record.hooks[name] ?? []) {
      const description = refusalOf(hook.fn)
      if (description === undefined) continue
      const seen = hookInspection(record, name, hook)
      refusals.push({ status: description.status, code: description.code, fn: seen.fn, scope: seen.scope, origin: seen.origin })
    }
  }
  const scopes = chain(def.scope)
  const formatterOwner = [...scopes].reverse().find((s) => s.schemaErrorFormatter !== null)
  const raw = (options.schema ?? {}) as Record<string, unknown>
  const docs: Record<string, unknown> = {}
  for (const key of DOC_KEYS) if (raw[key] !== undefined) docs[key] = raw[key]
  return {
    method,
    url: def.url,
    scope: def.scope.path,
    origin: def.origin,
    handler: fnName(options.handler),
    defaultStatus: typeof options.handler === 'function' ? defaultStatusOf(options.handler) ?? null : null,
    implicit,
    routerUrls: routerUrls(boot, record),
    constraints: constraintsOf(def),
    logLevel: typeof options.logLevel === 'string' ? options.logLevel : '',
    logSerializers: options.logSerializers ?? null,
    schema,
    docs,
    config: options.config ?? {},
    hooks,
    validators,
    serializers,
    errorHandlers,
    schemaErrorFormatter: options.schemaErrorFormatter !== undefined
      ? { fn: fnName(options.schemaErrorFormatter), scope: 'route option', origin: def.origin }
      : formatterOwner !== undefined ? declaredFunction(formatterOwner, formatterOwner.schemaErrorFormatter, 'setSchemaErrorFormatter')!
        : { fn: boot.schemaErrorFormatter === undefined ? 'default formatter' : fnName(boot.schemaErrorFormatter), scope: 'default', origin: 'server options' },
    security,
    refusals,
    visibleSchemas: scopes.flatMap((s) => Object.keys(s.schemas.own()).map((id) => ({ name: id, scope: s.path, origin: originOf(s, `schema:${id}`) }))),
    visibleDecorators: {
      instance: scopes.flatMap((s) => ownDecorators(s, 'instance')),
      request: scopes.flatMap((s) => ownDecorators(s, 'request')),
      reply: scopes.flatMap((s) => ownDecorators(s, 'reply')),
    },
    providers: scopes.flatMap((s) => s.modules.flatMap((m) => m.providers.map((name) => ({ name, scope: s.path, origin: m.path })))),
    bodyLimit: options.bodyLimit ?? null,
  }
}

/**
 * The paths find-my-way 4 lists for a route in Fastify 3: those registered, and under
 * ignoreTrailingSlash the twin it adds itself (`/x/` for `/x`, but not for `/` or a wildcard).
 * (The bare `/prefix` half that yields to a route already there, compile.ts, is listed anyway.)
 */
function routerUrls(boot: BootContext, record: RouteRecord): readonly string[] {
  // A root catch-all declared `*` (as @fastify/cors does) is `*` in find-my-way's list, `/*` here.
  if (record.def.url === '/*' && (record.def.options as { routePath?: unknown }).routePath === '*') return ['*']
  const urls = urlsOf(boot, record.def)
  if (!boot.routing.ignoreTrailingSlash) return urls
  const url = urls[0]
  if (url === '/' || url.endsWith('*')) return urls
  return url.endsWith('/') ? [url.slice(0, -1), url] : [url, `${url}/`]
}
