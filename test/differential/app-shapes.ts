// App shapes: a tree of 1-3 levels of register()ed plugins (some wrapped with fastify-plugin on
// Fastify 3 and lift() on Enclave), each with hooks, decorations, error and not-found handlers,
// shared schemas, content-type parsers, onRoute hooks and routes, declared in a drawn order. The
// shape is data; app-build.ts declares it on either framework with the same functions.
import type { Random } from './random'

export type Stage = 'onRequest' | 'preParsing' | 'preValidation' | 'preHandler' | 'preSerialization' | 'onSend' | 'onError' | 'onResponse'
export const STAGES: Stage[] = ['onRequest', 'preParsing', 'preValidation', 'preHandler', 'preSerialization', 'onSend', 'onError', 'onResponse']
/** Stages whose throw a client sees as an error answer (onError and onResponse cannot answer). */
export const FAILING_STAGES: Stage[] = ['onRequest', 'preParsing', 'preValidation', 'preHandler', 'preSerialization', 'onSend']

export type ErrorBehaviour = 'send' | 'rethrow' | 'return' | 'code' | 'throw-new'
export type NotFoundBehaviour = 'send' | 'return' | 'code' | 'throw'
export type ParserKind = 'string' | 'buffer' | 'regexp'
export type HandlerKind = 'echo' | 'throw' | 'callNotFound' | 'send-text' | 'not-allowed'

export interface RouteShape {
  tag: string
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  url: string
  handler: HandlerKind
  /** `$ref` to a shared schema added in this scope or above (or, to provoke a boot error, elsewhere). */
  bodyRef?: string
  config?: boolean
  logLevel?: boolean
  attachValidation?: boolean
  prefixTrailingSlash?: 'slash' | 'no-slash' | 'both'
  /** A route-level hook, given in the route options. */
  routeHook?: Stage
  /** Declared with `scope.get(url, options, handler)` and its siblings instead of `route()`. */
  shorthand?: boolean
  /** For 'not-allowed' (replays only): the Allow list. */
  allow?: string
}

export type Op =
  | { op: 'hook'; stage: Stage; tag: string; callback: boolean; replies: boolean }
  | { op: 'decorateRequest' | 'decorateReply'; name: string; flavour: 'value' | 'getter' | 'function' }
  | { op: 'errorHandler'; tag: string; behaviour: ErrorBehaviour }
  | { op: 'notFound'; tag: string; behaviour: NotFoundBehaviour }
  | { op: 'schema'; id: string }
  | { op: 'parser'; kind: ParserKind; tag: string; /** Replays only: an ancestor's RegExp parser declared again under an equal RegExp, wrapped this many times (the plugin's depth). */ alias?: number; /** Replays only: removes the type first where the scope already has it (registersLast). */ replaces?: true }
  | { op: 'onRoute'; tag: string; change: 'config' | 'hook' }
  | { op: 'route'; route: RouteShape }
  | { op: 'register'; child: ScopeShape }

export interface ScopeShape {
  name: string
  /** undefined: registered without a prefix. */
  prefix?: string
  lifted: boolean
  ops: Op[]
}

export interface AppShape {
  ignoreTrailingSlash: boolean
  root: ScopeShape
  /** Every decoration name declared anywhere (handlers read them all: those out of scope read undefined). */
  requestDecorations: string[]
  replyDecorations: string[]
}

export const PARSER_TYPES: Record<ParserKind, string> = { string: 'text/csv', buffer: 'application/octet-stream', regexp: 'application/vnd.enc+txt' }

const PREFIXES = ['/v1', '/v1/', '/api', '/api/', '/a-b', '/x']

function drawRoute(r: Random, tag: string, schemas: string[]): RouteShape {
  const method = r.pick(['GET', 'GET', 'POST', 'POST', 'PUT', 'DELETE'] as const)
  const hasBody = method === 'POST' || method === 'PUT'
  const route: RouteShape = { tag, method, url: r.pick(['/', '/a', '/a/', '/:id', '/a/b', '']), handler: r.pick(['echo', 'echo', 'echo', 'throw', 'callNotFound', 'send-text'] as const) }
  if (hasBody && schemas.length > 0 && r.chance(0.5)) route.bodyRef = r.pick(schemas)
  if (r.chance(0.3)) route.config = true
  if (r.chance(0.2)) route.logLevel = true
  if (route.bodyRef !== undefined && r.chance(0.4)) route.attachValidation = true
  if (r.chance(0.25)) route.prefixTrailingSlash = r.pick(['slash', 'no-slash', 'both'] as const)
  if (r.chance(0.25)) route.routeHook = r.pick(STAGES)
  if (r.chance(0.3)) route.shorthand = true
  return route
}

interface Drawing { r: Random; counter: number; requestDecorations: string[]; replyDecorations: string[]; allSchemas: string[]; notFoundAt: Set<string> }

function drawScope(d: Drawing, name: string, depth: number, visibleSchemas: string[], prefix: string | undefined, lifted: boolean, servedAt: string): ScopeShape {
  const { r } = d
  const ops: Op[] = []
  const schemas = [...visibleSchemas]
  const next = (): string => `${name}.${d.counter++}`
  const count = r.int(2, 7)
  let hasErrorHandler = false
  let hasNotFound = false
  for (let i = 0; i < count; i++) {
    switch (r.int(0, 11)) {
      case 0: case 1: {
        const stage = r.pick(STAGES)
        ops.push({ op: 'hook', stage, tag: next(), callback: r.chance(0.3), replies: (stage === 'onRequest' || stage === 'preHandler') && r.chance(0.3) })
        break
      }
      case 2: {
        const kind = r.pick(['decorateRequest', 'decorateReply'] as const)
        const nameOf = `${kind === 'decorateRequest' ? 'rq' : 'rp'}_${name.replace(/\W/g, '_')}_${d.counter++}`
        ;(kind === 'decorateRequest' ? d.requestDecorations : d.replyDecorations).push(nameOf)
        ops.push({ op: kind, name: nameOf, flavour: r.pick(['value', 'getter', 'function'] as const) })
        break
      }
      case 3:
        if (!hasErrorHandler) ops.push({ op: 'errorHandler', tag: next(), behaviour: r.pick(['send', 'rethrow', 'return', 'code', 'throw-new'] as const) })
        hasErrorHandler = true
        break
      case 4:
        // Fastify 3 takes one per prefix: only the root and prefixed scopes draw one.
        // Two scopes with one prefix (`/api` and `/api/`) make Fastify 3's router assert outside
        // any promise (the process dies): one handler per served prefix.
        if (!hasNotFound && (name === 'root' || prefix !== undefined) && !d.notFoundAt.has(servedAt.replace(/\/$/, ''))) ops.push({ op: 'notFound', tag: next(), behaviour: r.pick(['send', 'return', 'code', 'throw'] as const) })
        hasNotFound = true
        d.notFoundAt.add(servedAt.replace(/\/$/, ''))
        break
      case 5: {
        const id = `sch_${name.replace(/\W/g, '_')}_${d.counter++}`
        ops.push({ op: 'schema', id })
        schemas.push(id)
        d.allSchemas.push(id)
        break
      }
      case 6:
        if (name !== 'root') ops.push({ op: 'parser', kind: r.pick(['string', 'buffer', 'regexp'] as const), tag: next() })
        break
      case 7:
        ops.push({ op: 'onRoute', tag: next(), change: r.pick(['config', 'hook'] as const) })
        break
      case 8: case 9: {
        // Now and then a $ref to a schema declared elsewhere (a sibling's): both must refuse it.
        const pool = r.chance(0.1) && d.allSchemas.length > 0 ? d.allSchemas : schemas
        ops.push({ op: 'route', route: drawRoute(r, next(), pool) })
        break
      }
      default:
        if (depth < 3) {
          const childName = `${name === 'root' ? '' : `${name}/`}p${d.counter++}`
          const childLifted = r.chance(0.3)
          const childPrefix = r.chance(0.7) ? r.pick(PREFIXES) : undefined
          ops.push({ op: 'register', child: drawScope(d, childName, depth + 1, schemas, childPrefix, childLifted, childLifted ? servedAt : joinPrefix(servedAt, childPrefix)) })
        }
    }
  }
  // Every scope serves at least one route, so requests reach into it.
  if (!ops.some((o) => o.op === 'route')) ops.push({ op: 'route', route: drawRoute(r, next(), schemas) })
  return { name, prefix, lifted, ops }
}

export function drawApp(r: Random): AppShape {
  const d: Drawing = { r, counter: 0, requestDecorations: [], replyDecorations: [], allSchemas: [], notFoundAt: new Set() }
  const ignoreTrailingSlash = r.chance(0.3)
  const root = drawScope(d, 'root', 0, [], undefined, false, '')
  // At least one registered plugin: the point of the family.
  const prefix = r.pick(PREFIXES)
  if (!root.ops.some((o) => o.op === 'register')) root.ops.splice(r.int(0, root.ops.length), 0, { op: 'register', child: drawScope(d, `p${d.counter++}`, 1, [], prefix, false, prefix) })
  return { ignoreTrailingSlash, root, requestDecorations: d.requestDecorations, replyDecorations: d.replyDecorations }
}

/** A route with where it is served (its scope's joined prefix) and the hooks that may fail on it. */
export interface ServedRoute {
  route: RouteShape
  prefix: string
  scope: ScopeShape
  /** Tags of the hooks in scopes that can apply to it (its scope and ancestors, and lifted children's). */
  hookTags: Array<{ tag: string; stage: Stage }>
  parsers: ParserKind[]
}

/** Every route with its full prefix as both frameworks should serve it, and every scope's prefix. */
export function servedRoutes(app: AppShape): { routes: ServedRoute[]; prefixes: string[] } {
  const routes: ServedRoute[] = []
  const prefixes: string[] = ['']
  const walk = (scope: ScopeShape, prefix: string, hooks: ServedRoute['hookTags'], parsers: ParserKind[]): void => {
    // A lifted child's hooks and parsers land in this scope: collect them from the whole lifted chain.
    const own = (s: ScopeShape): { hooks: ServedRoute['hookTags']; parsers: ParserKind[] } => {
      const h: ServedRoute['hookTags'] = []
      const p: ParserKind[] = []
      for (const o of s.ops) {
        if (o.op === 'hook') h.push({ tag: o.tag, stage: o.stage })
        if (o.op === 'parser') p.push(o.kind)
        if (o.op === 'register' && o.child.lifted) { const sub = own(o.child); h.push(...sub.hooks); p.push(...sub.parsers) }
      }
      return { hooks: h, parsers: p }
    }
    const mine = own(scope)
    const allHooks = [...hooks, ...mine.hooks]
    const allParsers = [...parsers, ...mine.parsers]
    for (const o of scope.ops) {
      if (o.op === 'route') routes.push({ route: o.route, prefix, scope, hookTags: allHooks, parsers: allParsers })
      if (o.op === 'register') {
        const childPrefix = o.child.lifted ? prefix : joinPrefix(prefix, o.child.prefix)
        // A lifted plugin's prefix: asked under both, the frameworks decide.
        for (const p of [childPrefix, joinPrefix(prefix, o.child.prefix)]) if (!prefixes.includes(p)) prefixes.push(p)
        walk(o.child, childPrefix, allHooks, allParsers)
      }
    }
  }
  walk(app.root, '', [], [])
  return { routes, prefixes }
}

function joinPrefix(parent: string, child: string | undefined): string {
  if (child === undefined) return parent
  return parent.endsWith('/') && child.startsWith('/') ? parent + child.slice(1) : parent + child
}

/**
 * A route as Fastify 3 (lib/route.js) places it under a registration prefix, written as routes
 * without one: `/` is served at the prefix (its '' half) and at the prefix with a slash (its '/'
 * half) as prefixTrailingSlash says, the '' half only under ignoreTrailingSlash; the '' half
 * yields to a route declared there before (both halves are added in one `after()`, whose first
 * duplicate error is lost; seed 25 case 169). Enclave does the same for a lifted plugin's prefix.
 */
function prefixedRoutes(prefix: string, route: RouteShape, ignoreTrailingSlash: boolean, declaredBefore: (r: RouteShape) => boolean): RouteShape[] {
  if (route.url !== '/' || prefix === '') return [{ ...route, url: joinPrefix(prefix, route.url) }]
  const { prefixTrailingSlash, ...rest } = route
  const bare = { ...rest, url: prefix }
  const slashed = { ...rest, url: `${prefix}/` }
  if (prefixTrailingSlash === 'slash') return [slashed]
  if (prefixTrailingSlash === 'no-slash' || ignoreTrailingSlash) return [bare]
  return declaredBefore(bare) ? [slashed] : [bare, slashed]
}

/**
 * The shape as README says Enclave serves a lifted plugin registered with a prefix: the prefix
 * applies to the routes it declares and the plugins it registers (fastify-plugin ignores it).
 * Written for Fastify 3 by moving the prefix into those routes' URLs and those plugins' prefixes.
 */
export function liftedPrefixesApplied(shape: AppShape): AppShape {
  // `declared`: the routes written so far into one instance (a lifted plugin's routes land in its
  // parent's): a lifted plugin's `/` yields to a route an enclosing lifted plugin declared there
  // before (seed 168 case 38: `get('')` under prefix /v1, then a nested lifted plugin's `get('/')`).
  const push = (scope: ScopeShape, prefix: string, declared: RouteShape[]): ScopeShape => {
    const ops: Op[] = []
    for (const o of scope.ops) {
      if (o.op === 'route') {
        const earlier = (r: RouteShape): boolean => ops.some((d) => d.op === 'route' && d.route.method === r.method && d.route.url === r.url) || declared.some((d) => d.method === r.method && d.url === r.url)
        const routes = prefixedRoutes(prefix, o.route, shape.ignoreTrailingSlash, earlier)
        ops.push(...routes.map((route): Op => ({ ...o, route })))
        declared.push(...routes)
      } else if (o.op === 'register') ops.push({ ...o, child: { ...o.child, prefix: joinPrefix(prefix, o.child.prefix ?? '') } })
      else ops.push(o)
    }
    return { ...scope, ops }
  }
  // Outside in: a lifted plugin's prefix reaches a lifted plugin it registers before that one is walked.
  const walk = (scope: ScopeShape, declared: RouteShape[]): ScopeShape => {
    const out = scope.lifted && scope.prefix !== undefined && scope.prefix !== '' ? { ...push(scope, scope.prefix, declared), prefix: undefined } : scope
    return { ...out, ops: out.ops.map((o) => (o.op === 'register' ? { ...o, child: walk(o.child, o.child.lifted ? declared : []) } : o)) }
  }
  return { ...shape, root: walk(shape.root, []) }
}

export function hasLiftedPrefix(scope: ScopeShape): boolean {
  return (scope.lifted && scope.prefix !== undefined) || scope.ops.some((o) => o.op === 'register' && hasLiftedPrefix(o.child))
}

function mapScopes(scope: ScopeShape, change: (s: ScopeShape) => ScopeShape): ScopeShape {
  return change({ ...scope, ops: scope.ops.map((o) => (o.op === 'register' ? { ...o, child: mapScopes(o.child, change) } : o)) })
}

/** The scope's first declaration of each kind in `kinds` (and, where it has none, its plugins'), marked to replace. */
function replacing(scope: ScopeShape, kinds: Set<ParserKind>): ScopeShape {
  const left = new Set(kinds)
  const ops = scope.ops.map((o): Op => {
    if (o.op !== 'parser' || !left.has(o.kind)) return o
    left.delete(o.kind)
    return { ...o, replaces: true }
  })
  return { ...scope, ops: left.size === 0 ? ops : ops.map((o) => (o.op === 'register' ? { ...o, child: replacing(o.child, left) } : o)) }
}

/**
 * Enclave's order: a scope's body is declared whole, then its plugins load (README: hooks run
 * ancestors' first, then the scope's own, each in declaration order). Written for Fastify 3, whose
 * addHook() and route() wait for the plugins registered before them, by registering last. A lifted
 * plugin's hooks and parsers are its scope's, so every plugin of the scope sees them whenever it
 * loads (seed 21 case 101: a parser and an onRequest hook of a lifted plugin registered after a
 * sibling); Fastify 3 appends a hook added later after the sibling's own and never shows it a
 * later parser. Its body is therefore written into the scope (fastify-plugin gives it the scope's
 * instance: the same declarations) where it was registered, before any plugin loads: a request
 * hook declared after `register(lift(p))` runs after p's, as in Fastify (seed 7 case 34: root's
 * preParsing declared after a lifted plugin's two).
 */
export function registersLast(shape: AppShape): AppShape {
  // A scope's declarations with its lifted plugins' written in, and the plugins it then loads.
  const split = (scope: ScopeShape): { body: Op[]; plugins: Op[] } => {
    const body: Op[] = []
    const late: Op[] = []
    const plugins: Op[] = []
    for (const o of scope.ops) {
      if (o.op !== 'register') { body.push(o); continue }
      if (!o.child.lifted || o.child.prefix !== undefined) { plugins.push({ ...o, child: walk(o.child) }); continue }
      const inner = split(o.child)
      // Its onRoute hooks keep their place among the plugins: they see the routes of those
      // registered before the lifted plugin, not of those before (README, seed 102 case 197).
      // Its error handler is set and its routes declared when it loads, after the scope's body
      // (README: the last error handler set wins, a lifted plugin's included; an onRoute hook of
      // the scope sees its routes, seed 34 case 164): only its request hooks wait in line among
      // the scope's (seed 6 case 174).
      const loadsLate = (i: Op): boolean => i.op === 'errorHandler' || i.op === 'route'
      // Its parsers, written in before every plugin, were not there when the plugins registered
      // before it loaded: those may declare the same type (both frameworks boot that way round,
      // seed 26 case 53), so in the replay they replace it.
      const kinds = new Set(inner.body.flatMap((i) => (i.op === 'parser' ? [i.kind] : [])))
      if (kinds.size > 0) plugins.splice(0, plugins.length, ...plugins.map((p) => (p.op === 'register' ? { ...p, child: replacing(p.child, kinds) } : p)))
      // A route it declares after one of its own onRoute hooks stays after that hook, which sees
      // it in Enclave (seed 38 case 145 before session 26).
      const firstOnRoute = inner.body.findIndex((i) => i.op === 'onRoute')
      const afterOwnOnRoute = (i: Op, k: number): boolean => i.op === 'route' && firstOnRoute !== -1 && k > firstOnRoute
      // Likewise its routes stay after an onRoute hook of a lifted plugin registered before it,
      // which loaded first (seed 113 case 184).
      const behindOnRoute = plugins.some((p) => p.op === 'onRoute')
      const stays = (i: Op, k: number): boolean => afterOwnOnRoute(i, k) || (behindOnRoute && i.op === 'route')
      body.push(...inner.body.filter((i) => i.op !== 'onRoute' && !loadsLate(i)))
      late.push(...inner.body.filter((i, k) => loadsLate(i) && !stays(i, k)))
      plugins.push(...inner.body.filter((i, k) => i.op === 'onRoute' || stays(i, k)), ...inner.plugins)
    }
    return { body: [...body, ...late], plugins }
  }
  const walk = (scope: ScopeShape): ScopeShape => {
    const { body, plugins } = split(scope)
    return { ...scope, ops: [...body, ...plugins] }
  }
  return { ...shape, root: walk(shape.root) }
}

/**
 * Enclave's rule (README): a child scope sees its ancestors' RegExp parsers. Fastify 3.27.4's
 * children lose them (its copy drops the RegExp list but keeps the key, so declaring the same
 * RegExp again is refused): written for Fastify 3 by declaring, first in each plugin without its
 * own, the nearest ancestor's under an equal RegExp that reads differently. The copy keeps the
 * keys of every ancestor, aliases included: each depth's alias reads differently again (seed 2
 * case 181: two nested plugins without their own, the second's alias refused as a duplicate).
 */
export function regexpParsersInherited(shape: AppShape): AppShape {
  const ownRegexp = (scope: ScopeShape): string | undefined => {
    let tag: string | undefined
    for (const o of scope.ops) {
      if (o.op === 'parser' && o.kind === 'regexp') tag = o.tag
      if (o.op === 'register' && o.child.lifted) tag = ownRegexp(o.child) ?? tag
    }
    return tag
  }
  const walk = (scope: ScopeShape, inherited: string | undefined, depth: number): ScopeShape => {
    const own = ownRegexp(scope)
    const visible = own ?? inherited
    const ops = scope.ops.map((o): Op => (o.op === 'register' ? { ...o, child: o.child.lifted ? walkLifted(o.child, visible, depth) : walk(o.child, visible, depth + 1) } : o))
    const alias: Op[] = own === undefined && inherited !== undefined && scope.name !== 'root' ? [{ op: 'parser', kind: 'regexp', tag: inherited, alias: depth }] : []
    return { ...scope, ops: [...alias, ...ops] }
  }
  // A lifted plugin declares into its scope: only the plugins it registers start afresh.
  const walkLifted = (scope: ScopeShape, visible: string | undefined, depth: number): ScopeShape => ({ ...scope, ops: scope.ops.map((o) => (o.op === 'register' ? { ...o, child: o.child.lifted ? walkLifted(o.child, visible, depth) : walk(o.child, visible, depth + 1) } : o)) })
  return { ...shape, root: walk(shape.root, undefined, 0) }
}

/**
 * Enclave's rule (README): `reply.callNotFound()` reaches the scope's not-found handler also from a
 * route declared before `setNotFoundHandler()`. Written for Fastify 3, which answers 500 there, by
 * setting the handler first in its scope.
 */
export function notFoundHandlersFirst(shape: AppShape): AppShape {
  // A lifted plugin's handler is its parent scope's, set when the plugin loads (after the parent's
  // routes): moved up into the parent first (seed 161 case 155). Children are done before parents.
  const lifted = (o: Op): o is Extract<Op, { op: 'register' }> => o.op === 'register' && o.child.lifted
  return {
    ...shape,
    root: mapScopes(shape.root, (s) => {
      const handlers = [...s.ops.filter((o) => o.op === 'notFound'), ...s.ops.flatMap((o) => (lifted(o) ? o.child.ops.filter((i) => i.op === 'notFound') : []))]
      const rest = s.ops.filter((o) => o.op !== 'notFound').map((o) => (lifted(o) ? { ...o, child: { ...o.child, ops: o.child.ops.filter((i) => i.op !== 'notFound') } } : o))
      return { ...s, ops: [...handlers, ...rest] }
    }),
  }
}

/** Routes with an empty url declared through the shorthand, which Fastify 3 serves at the prefix. */
export function emptyUrlsByShorthand(shape: AppShape): AppShape {
  return { ...shape, root: mapScopes(shape.root, (s) => ({ ...s, ops: s.ops.map((o) => (o.op === 'route' && o.route.url === '' ? { ...o, route: { ...o.route, shorthand: true } } : o)) })) }
}

/** The shape without the route tagged `tag` (as if never declared). */
export function withoutRoute(shape: AppShape, tag: string): AppShape {
  return { ...shape, root: mapScopes(shape.root, (s) => ({ ...s, ops: s.ops.filter((o) => !(o.op === 'route' && o.route.tag === tag)) })) }
}

export function some(scope: ScopeShape, test: (o: Op, s: ScopeShape) => boolean): boolean {
  return scope.ops.some((o) => test(o, scope) || (o.op === 'register' && some(o.child, test)))
}

/** The error handler a scope ends with: its own, then its lifted plugins' (they run after its body). */
function lastErrorHandler(scope: ScopeShape): Op | undefined {
  let last: Op | undefined
  for (const o of scope.ops) if (o.op === 'errorHandler') last = o
  for (const o of scope.ops) if (o.op === 'register' && o.child.lifted) last = lastErrorHandler(o.child) ?? last
  return last
}

function withoutErrorHandlers(scope: ScopeShape): ScopeShape {
  return { ...scope, ops: scope.ops.filter((o) => o.op !== 'errorHandler').map((o) => (o.op === 'register' && o.child.lifted ? { ...o, child: withoutErrorHandlers(o.child) } : o)) }
}

/**
 * Enclave's rule: a scope's error handler is the last one set in it (a lifted plugin's included)
 * and serves every route of the scope. Written for Fastify 3, where a route keeps the handler set
 * when it was declared, by setting that one first.
 */
export function errorHandlersFirst(shape: AppShape): AppShape {
  const walk = (scope: ScopeShape): ScopeShape => {
    const last = lastErrorHandler(scope)
    const bare = last === undefined ? scope : withoutErrorHandlers(scope)
    const ops = bare.ops.map((o) => (o.op === 'register' ? { ...o, child: o.child.lifted ? liftedWalk(o.child) : walk(o.child) } : o))
    return { ...scope, ops: last === undefined ? ops : [last, ...ops] }
  }
  // A lifted plugin's handler has moved to the scope it lifts into; its plugins are walked as usual.
  const liftedWalk = (scope: ScopeShape): ScopeShape => ({ ...scope, ops: scope.ops.map((o) => (o.op === 'register' ? { ...o, child: o.child.lifted ? liftedWalk(o.child) : walk(o.child) } : o)) })
  return { ...shape, root: walk(shape.root) }
}
