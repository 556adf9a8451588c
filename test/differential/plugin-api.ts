// The `plugin-api` family: the plugin API calls the encapsulation family does not draw, in the
// root scope and one child (plain or fastify-plugin, with or without a prefix): a decorator
// declared twice in one scope, decorators with `dependencies` (declared, missing, built-in),
// hasDecorator/hasRequestDecorator/hasReplyDecorator asked about declared, child-only, built-in
// and unknown names (while declaring and per request), an object value shared by reference,
// fastify-plugin metadata (`name`, `dependencies` before/after/missing, `decorators`, `fastify`
// ranges), onRegister hooks, onRoute hooks that log what they see of each route's options
// (method arrays, lower case, `path`, `prefix`, config, logLevel, bodyLimit, schema) or change
// its method, url, schema or config, and the calls a handler makes after boot (addHook, a route,
// decorate: refused). Every call's outcome (`ok` or the error's code) is logged and echoed;
// errors Fastify 3 throws are compared by code (paired in plugin-api-differences.ts).
import type { Handler, RequestSpec, RouteSpec } from './case'
import type { Random } from './random'
import { read, setterOf } from './decoration-reads'

type Any = any // eslint-disable-line @typescript-eslint/no-explicit-any

export type PaKind = 'decorate' | 'decorateRequest' | 'decorateReply'
export type PaChange = 'see' | 'method' | 'url' | 'schema' | 'config'
export interface PaRoute { tag: string; method: string | string[]; url: string; usePath: boolean; config?: boolean; logLevel?: boolean; bodyLimit?: boolean; schema?: boolean }
export interface PaFp { name: string; dependencies: string[]; decorators?: { fastify?: string[]; request?: string[]; reply?: string[] }; range?: string; declares?: string }

export type PaStep =
  | { s: 'dec'; kind: PaKind; name: string; form: 'value' | 'function' | 'getter' | 'getset'; deps?: string[] }
  | { s: 'twice'; kind: PaKind; name: string }
  | { s: 'ref'; kind: 'decorateRequest' | 'decorateReply'; name: string }
  | { s: 'has'; names: string[] }
  | { s: 'fp'; fp: PaFp }
  | { s: 'onRegister' }
  | { s: 'onRoute'; change: PaChange }
  | { s: 'route'; route: PaRoute }

export interface PaShape {
  root: PaStep[]
  child: { wrapped: boolean; prefix?: string; steps: PaStep[] }
  /** Names every echo reads and every `has` step asks about. */
  names: { instance: string[]; request: string[]; reply: string[] }
  probes: string[]
  /** The root echo also tries declaring after boot. */
  afterBoot: boolean
  /** fastify-plugin ranges drawn (a rule reads them). */
  ranges: string[]
}

// Members both frameworks have on the instance, request or reply, and names nothing has.
const BUILT_INS = ['log', 'server', 'prefix', 'addHook', 'body', 'query', 'headers', 'params', 'raw', 'id', 'send', 'code', 'statusCode', 'request', 'nope']
const RANGES = ['3.x', '>=3.0.0', '5.x', '^3.20.0', '>=2', '4.x', '*', '>=5.0.0']
const KINDS: PaKind[] = ['decorate', 'decorateRequest', 'decorateReply']

interface Drawing { r: Random; n: number; shape: PaShape; fpNames: string[] }

function nameFor(d: Drawing, kind: PaKind): string {
  const name = `${kind === 'decorate' ? 'i' : kind === 'decorateRequest' ? 'q' : 'p'}${d.n++}`
  const list = kind === 'decorate' ? d.shape.names.instance : kind === 'decorateRequest' ? d.shape.names.request : d.shape.names.reply
  list.push(name)
  return name
}

function declared(d: Drawing, kind: PaKind): string[] {
  return kind === 'decorate' ? d.shape.names.instance : kind === 'decorateRequest' ? d.shape.names.request : d.shape.names.reply
}

function drawRoute(d: Drawing): PaRoute {
  const { r } = d
  const tag = `r${d.n++}`
  const method = r.pick<string | string[]>(['GET', 'get', 'POST', 'delete', ['GET', 'POST'], ['put', 'GET'], 'GET'])
  const url = r.pick([`/${tag}`, `/${tag}`, `/${tag}/:id`, '/'])
  return { tag, method, url, usePath: r.chance(0.25), ...(r.chance(0.3) ? { config: true } : {}), ...(r.chance(0.2) ? { logLevel: true } : {}), ...(r.chance(0.2) ? { bodyLimit: true } : {}), ...(r.chance(0.3) ? { schema: true } : {}) }
}

function drawStep(d: Drawing, inChild: boolean): PaStep {
  const { r } = d
  const roll = r.int(0, 99)
  if (roll < 25) {
    const kind = r.pick(KINDS)
    const before = declared(d, kind).slice()
    const deps = r.chance(0.35) ? r.some([...before, 'zz', ...(kind === 'decorate' ? ['log', 'addHook'] : kind === 'decorateRequest' ? ['body', 'headers'] : ['send', 'code'])], 2) : undefined
    return { s: 'dec', kind, name: nameFor(d, kind), form: r.pick(['value', 'function', 'getter', 'getset'] as const), ...(deps !== undefined ? { deps } : {}) }
  }
  if (roll < 33) {
    const kind = r.pick(KINDS)
    return { s: 'twice', kind, name: nameFor(d, kind) }
  }
  if (roll < 36) {
    const kind = r.pick(['decorateRequest', 'decorateReply'] as const)
    return { s: 'ref', kind, name: nameFor(d, kind) }
  }
  // Distinct items: Random.some() draws until it has `count` distinct ones (probes may hold 'nope').
  if (roll < 46) return { s: 'has', names: r.some([...new Set([...d.shape.probes, 'nope'])], 4) }
  if (roll < 58 && !inChild) {
    const name = `fp${d.n++}`
    const dependencies = r.chance(0.4) ? r.some([...d.fpNames, 'fpLater', 'zzPlugin'], 2) : []
    const decorators = r.chance(0.3) ? { ...(r.chance(0.5) ? { fastify: r.some([...d.shape.names.instance, 'zz', 'log'], 2) } : {}), ...(r.chance(0.5) ? { request: r.some([...d.shape.names.request, 'zz', 'body'], 2) } : {}), ...(r.chance(0.3) ? { reply: r.some([...d.shape.names.reply, 'send'], 1) } : {}) } : undefined
    const range = r.chance(0.35) ? r.pick(RANGES) : undefined
    if (range !== undefined) d.shape.ranges.push(range)
    const declares = r.chance(0.4) ? nameFor(d, 'decorate') : undefined
    d.fpNames.push(name)
    return { s: 'fp', fp: { name, dependencies, ...(decorators !== undefined ? { decorators } : {}), ...(range !== undefined ? { range } : {}), ...(declares !== undefined ? { declares } : {}) } }
  }
  if (roll < 64 && !inChild) return { s: 'onRegister' }
  if (roll < 76) return { s: 'onRoute', change: r.pick(['see', 'see', 'method', 'url', 'schema', 'config'] as const) }
  return { s: 'route', route: drawRoute(d) }
}

export function drawPaShape(r: Random): PaShape {
  const shape: PaShape = { root: [], child: { wrapped: false, steps: [] }, names: { instance: [], request: [], reply: [] }, probes: [], afterBoot: r.chance(0.25), ranges: [] }
  const d: Drawing = { r, n: 0, shape, fpNames: [] }
  shape.probes = r.some(BUILT_INS, 4)
  for (let i = r.int(2, 6); i > 0; i--) shape.root.push(drawStep(d, false))
  shape.child.wrapped = r.chance(0.3)
  shape.child.prefix = r.chance(0.7) ? r.pick(['/c', '/c/', '/c/d']) : undefined
  for (let i = r.int(0, 4); i > 0; i--) shape.child.steps.push(drawStep(d, true))
  // A plugin that some plugin lists as a dependency, registered after it (Fastify 3 checks when the dependent loads).
  if (r.chance(0.5)) shape.root.push({ s: 'fp', fp: { name: 'fpLater', dependencies: [] } })
  for (let i = r.int(0, 2); i > 0; i--) shape.root.push(drawStep(d, false))
  // Each scope's body first, then its plugins: the order README says Enclave reads (an onRoute hook
  // there sees the routes of plugins registered before it; Fastify 3 does not). Stable: fp order kept.
  shape.root = [...shape.root.filter((s) => s.s !== 'fp'), ...shape.root.filter((s) => s.s === 'fp')]
  // Probes ask about the decorators drawn too (the echo reads them all).
  shape.probes = [...shape.probes, ...r.some([...shape.names.instance, ...shape.names.request, ...shape.names.reply], 3)]
  return shape
}

function errorOf(error: Any): string {
  return `threw ${typeof error?.code === 'string' ? error.code : `(no code) ${String(error?.message)}`}`
}

function attempt(log: string[], label: string, call: () => void): void {
  try {
    call()
    log.push(`${label}: ok`)
  } catch (error) {
    log.push(`${label}: ${errorOf(error)}`)
  }
}

function valueOf(form: 'value' | 'function' | 'getter' | 'getset', name: string): unknown {
  switch (form) {
    case 'value': return `v:${name}`
    case 'function': return function (this: Any) { return `f:${name}:${this === undefined ? 'none' : 'bound'}` }
    case 'getter': return { getter() { return `g:${name}` } }
    case 'getset': {
      const slot = Symbol(name)
      return { getter(this: Any) { return this[slot] ?? `unset:${name}` }, setter(this: Any, v: unknown) { this[slot] = `set:${String(v)}` } }
    }
  }
}

function has(instance: Any, names: string[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of names) out[name] = [instance.hasDecorator(name), instance.hasRequestDecorator(name), instance.hasReplyDecorator(name)].map((b) => (b === true ? '1' : b === false ? '0' : String(b))).join('')
  return out
}


/** What an echo route answers: the log, what it sees of every drawn name, and after-boot calls. */
function echo(shape: PaShape, instance: Any, log: string[], seenRoutes: string[], afterBoot: boolean): Handler {
  return (request, reply) => {
    for (const name of shape.names.request) if (setterOf(request, name)) request[name] = 'rq'
    for (const name of shape.names.reply) if (setterOf(reply, name)) reply[name] = 'rp'
    const late: string[] = []
    if (afterBoot) {
      attempt(late, 'addHook', () => instance.addHook('onRequest', async () => undefined))
      attempt(late, 'route', () => instance.get('/late', async () => 'late'))
      attempt(late, 'decorate', () => instance.decorate('late', 1))
      attempt(late, 'decorateRequest', () => instance.decorateRequest('lateRq', 1))
    }
    const body: Record<string, unknown> = {
      log,
      onRoute: seenRoutes,
      has: has(instance, shape.probes),
      inst: Object.fromEntries(shape.names.instance.map((n) => [n, read(instance, n)])),
      rq: Object.fromEntries(shape.names.request.map((n) => [n, read(request, n)])),
      rp: Object.fromEntries(shape.names.reply.map((n) => [n, read(reply, n)])),
    }
    if (afterBoot) body.late = late
    return body
  }
}

function routeHandler(tag: string): Handler {
  // Not request.method: a HEAD is compared as its GET (run.ts).
  return (request, reply) => {
    // Without the config's `method`: Fastify 3 writes the route's there, so a HEAD route's reads HEAD.
    const { method: _method, ...config } = reply.context?.config ?? {}
    return { tag, routerPath: request.routerPath ?? null, params: request.params, query: request.query, config }
  }
}

/** What an onRoute hook logs of a route's options: the fields apps read there. */
function seen(o: Any): string {
  const schema = o.schema === undefined ? null : Object.keys(o.schema).sort().join('+')
  return JSON.stringify({ method: o.method, url: o.url, path: o.path, prefix: o.prefix, routePath: o.routePath, config: o.config ?? null, logLevel: o.logLevel ?? null, bodyLimit: o.bodyLimit ?? null, schema })
}

// onRoute lines go to their own list: Fastify 3 calls the hooks once the plugins registered before
// each route have loaded (avvio's after()), Enclave as the route is declared; their order among
// themselves is the routes' in both.
function declareSteps(instance: Any, steps: PaStep[], log: string[], seenRoutes: string[], where: string, fp: (p: Function, meta?: object) => Function): void {
  steps.forEach((step, i) => {
    const label = `${where}.${i} ${step.s}`
    switch (step.s) {
      case 'dec':
        attempt(log, `${label} ${step.kind} ${step.name}`, () => step.deps === undefined ? instance[step.kind](step.name, valueOf(step.form, step.name)) : instance[step.kind](step.name, valueOf(step.form, step.name), step.deps))
        break
      case 'twice':
        attempt(log, `${label} ${step.kind} ${step.name} first`, () => instance[step.kind](step.name, `first:${step.name}`))
        attempt(log, `${label} ${step.kind} ${step.name} again`, () => instance[step.kind](step.name, `again:${step.name}`))
        break
      case 'ref':
        // Not caught: Enclave refuses it at declaration (README), Fastify 3 warns and shares it.
        instance[step.kind](step.name, { shared: step.name })
        log.push(`${label} ${step.kind} ${step.name}: ok`)
        break
      case 'has':
        log.push(`${label} ${JSON.stringify(has(instance, step.names))}`)
        break
      case 'fp': {
        const meta = step.fp
        const plugin = async (inner: Any): Promise<void> => {
          log.push(`load ${meta.name}`)
          if (meta.declares !== undefined) attempt(log, `${meta.name} decorate ${meta.declares}`, () => inner.decorate(meta.declares, `v:${meta.declares}`))
        }
        const options: Record<string, unknown> = { name: meta.name }
        if (meta.dependencies.length > 0) options.dependencies = meta.dependencies
        if (meta.decorators !== undefined) options.decorators = meta.decorators
        if (meta.range !== undefined) options.fastify = meta.range
        instance.register(fp(plugin, options))
        break
      }
      case 'onRegister':
        instance.addHook('onRegister', (child: Any, opts: Any) => { log.push(`onRegister prefix=${String(child.prefix)} opts=${Object.keys(opts ?? {}).sort().join('+')}`) })
        break
      case 'onRoute': {
        const change = step.change
        instance.addHook('onRoute', (o: Any) => {
          if (typeof o.url === 'string' && /\/pa(2|-unused)?$/.test(o.url)) return
          seenRoutes.push(`${label} ${change} ${seen(o)}`)
          if (change === 'method') o.method = [...(Array.isArray(o.method) ? o.method : [o.method]), 'PUT']
          else if (change === 'url' && typeof o.url === 'string' && !o.url.endsWith('/')) o.url = `${o.url}-x`
          else if (change === 'schema') o.schema = { ...o.schema, querystring: { type: 'object', properties: { n: { type: 'integer' } } } }
          else if (change === 'config') o.config = { ...o.config, changed: label }
        })
        break
      }
      case 'route': {
        const rt = step.route
        const options: Record<string, unknown> = { method: rt.method, [rt.usePath ? 'path' : 'url']: rt.url, handler: routeHandler(rt.tag) }
        if (rt.config === true) options.config = { tag: rt.tag }
        if (rt.logLevel === true) options.logLevel = 'warn'
        if (rt.bodyLimit === true) options.bodyLimit = 12
        if (rt.schema === true) options.schema = { querystring: { type: 'object', properties: { n: { type: 'string', maxLength: 2 } } } }
        attempt(log, `${label} ${rt.tag}`, () => instance.route(options))
        break
      }
    }
  })
}

/** The case's route: its `setup` declares the root steps, the child and the echo routes. */
export function paRoute(shape: PaShape): RouteSpec {
  const setup = (app: Any): void => {
    /* eslint-disable @typescript-eslint/no-var-requires */
    const fp = require('fastify-plugin') as (p: Function, meta?: object) => Function
    /* eslint-enable @typescript-eslint/no-var-requires */
    const log: string[] = []
    const seenRoutes: string[] = []
    app.get('/pa', echo(shape, app, log, seenRoutes, shape.afterBoot))
    declareSteps(app, shape.root, log, seenRoutes, 'root', fp)
    const child = async (inner: Any, opts: Any): Promise<void> => {
      log.push(`child prefix=${String(inner.prefix)} opts=${Object.keys(opts ?? {}).sort().join('+')}`)
      declareSteps(inner, shape.child.steps, log, seenRoutes, 'child', fp)
      inner.get('/pa2', echo(shape, inner, log, seenRoutes, false))
    }
    app.register(shape.child.wrapped ? fp(child) : child, { ...(shape.child.prefix !== undefined ? { prefix: shape.child.prefix } : {}), tag: 'child' })
  }
  return { method: 'GET', url: '/pa-unused', handler: () => ({}), setup }
}

function routesOf(shape: PaShape): Array<{ route: PaRoute; at: string }> {
  const at = shape.child.wrapped || shape.child.prefix === undefined ? '' : shape.child.prefix.replace(/\/$/, '')
  const pick = (steps: PaStep[], prefix: string): Array<{ route: PaRoute; at: string }> => steps.flatMap((s) => (s.s === 'route' ? [{ route: s.route, at: prefix }] : []))
  return [...pick(shape.root, ''), ...pick(shape.child.steps, at)]
}

export function paRequest(r: Random, shape: PaShape): RequestSpec {
  const routes = routesOf(shape)
  const childAt = shape.child.wrapped || shape.child.prefix === undefined ? '' : shape.child.prefix.replace(/\/$/, '')
  const roll = r.int(0, 9)
  if (roll < 4 || routes.length === 0) return roll === 0 ? { method: 'GET', url: `${childAt}/pa2` } : { method: 'GET', url: '/pa' }
  if (roll === 4) return { method: 'GET', url: `${childAt}/pa2` }
  const { route, at } = r.pick(routes)
  const methods = Array.isArray(route.method) ? route.method : [route.method]
  const method = r.pick([...methods.map((m) => m.toUpperCase()), 'PUT', 'GET', 'HEAD'])
  let url = `${at}${route.url.replace(':id', '7')}`
  if (url === '') url = '/'
  if (r.chance(0.25)) url = url.endsWith('/') ? `${url.slice(0, -1)}-x` : `${url}-x`
  if (r.chance(0.3)) url += r.pick(['?n=1', '?n=abc', '?n=123'])
  if (method === 'POST' || method === 'PUT' || method === 'DELETE') return { method, url, headers: { 'content-type': 'application/json' }, payload: r.pick(['{"a":1}', '{"long":"more than twelve bytes"}']) }
  return { method, url }
}

export function describePaShape(shape: PaShape): string {
  const step = (s: PaStep): string => {
    switch (s.s) {
      case 'dec': return `${s.kind} ${s.name} ${s.form}${s.deps ? ` deps=${s.deps.join('+')}` : ''}`
      case 'twice': return `${s.kind} ${s.name} twice`
      case 'ref': return `${s.kind} ${s.name} object`
      case 'has': return `has ${s.names.join('+')}`
      case 'fp': return `fp ${s.fp.name}${s.fp.dependencies.length ? ` deps=${s.fp.dependencies.join('+')}` : ''}${s.fp.decorators ? ` decorators=${JSON.stringify(s.fp.decorators)}` : ''}${s.fp.range ? ` fastify=${s.fp.range}` : ''}${s.fp.declares ? ` declares ${s.fp.declares}` : ''}`
      case 'onRegister': return 'onRegister'
      case 'onRoute': return `onRoute ${s.change}`
      case 'route': return `route ${JSON.stringify(s.route.method)} ${s.route.usePath ? 'path' : 'url'}=${s.route.url}${s.route.config ? ' config' : ''}${s.route.logLevel ? ' logLevel' : ''}${s.route.bodyLimit ? ' bodyLimit=12' : ''}${s.route.schema ? ' schema' : ''}`
    }
  }
  return `root [${shape.root.map(step).join('; ')}] child${shape.child.wrapped ? ' fp' : ''}${shape.child.prefix ? ` prefix=${shape.child.prefix}` : ''} [${shape.child.steps.map(step).join('; ')}] probes=${shape.probes.join('+')}${shape.afterBoot ? ' afterBoot' : ''}`
}
