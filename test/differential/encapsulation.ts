// The `encapsulation` family: plugin trees 1-4 deep with siblings, plain and lifted
// (fastify-plugin on Fastify 3, lift() on Enclave) plugins, prefixes at each level, `register`
// with an options function, `after()` callbacks and onReady hooks (their order is logged and
// echoed), instance/request/reply decorators in value, getter, getter+setter and function forms
// (rarely a child re-declaring an ancestor's), request hooks at every level (traced in `x-trace`),
// error and not-found handlers at levels (an error in a child without its own, a 404 under
// `/a/b/unknown`), shared schemas at levels whose `$ref`s reach their ancestors', onRoute hooks
// that add a hook, change the config or move the url, and a prefixed `/` with
// `prefixTrailingSlash` through the shorthand. Each scope declares its body first and then its
// plugins (lifted ones first): the order README says Enclave reads (the app family covers the
// other orders); the app is declared by the case route's `setup`.
import type { Handler, RequestSpec, RouteSpec } from './case'
import type { Random } from './random'
import { read, setterOf } from './decoration-reads'

type Any = any // eslint-disable-line @typescript-eslint/no-explicit-any

export type DecKind = 'decorate' | 'decorateRequest' | 'decorateReply'
export type DecForm = 'value' | 'getter' | 'getset' | 'function'
export interface Dec { kind: DecKind; name: string; form: DecForm }
export type EncStage = 'onRequest' | 'preParsing' | 'preValidation' | 'preHandler' | 'preSerialization' | 'onSend'
export interface EncRoute { tag: string; method: 'GET' | 'POST'; url: string; handler: 'echo' | 'throw' | 'throw500' | 'not-found'; schemaRef?: string; prefixTrailingSlash?: 'slash' | 'no-slash' | 'both'; shorthand: boolean }

export interface EncScope {
  name: string
  prefix?: string
  lifted: boolean
  /** Registered with `(parent) => options`: Fastify 3 reads `prefix` before calling it (none applies), as Enclave does. */
  optionsFn: boolean
  decorations: Dec[]
  hooks: Array<{ stage: EncStage; tag: string }>
  errorHandler?: 'send' | 'code' | 'return'
  notFound: boolean
  /** `addSchema({ $id: 's_<name>' })`, with a `$ref` to the nearest ancestor's schema when it has one. */
  schema?: { id: string; up?: string }
  onRoute?: 'hook' | 'config' | 'url'
  onReady: boolean
  /** `register(child).after(cb)`: the callback logs, and with `route` declares a route too. */
  after?: 'log' | 'route'
  routes: EncRoute[]
  children: EncScope[]
}

export interface EncShape {
  root: EncScope
  instanceNames: string[]
  requestNames: string[]
  replyNames: string[]
  /** A child re-declares a decorator an ancestor declared. */
  overrides: boolean
  /** Replays only: a root route, declared first and left alone by onRoute hooks, that raises Enclave's 405 with its Allow list. */
  notAllowed?: { method: string; url: string; allow: string }
}

const STAGES: EncStage[] = ['onRequest', 'preParsing', 'preValidation', 'preHandler', 'preSerialization', 'onSend']

interface Drawing { r: Random; counter: number; shape: EncShape; servedPrefixes: Set<string> }

function join(parent: string, child: string | undefined): string {
  if (child === undefined) return parent
  return parent.endsWith('/') && child.startsWith('/') ? parent + child.slice(1) : parent + child
}

function drawScope(d: Drawing, name: string, depth: number, lifted: boolean, servedAt: string, visibleDecs: Dec[], schemaUp: string | undefined, parentServedAt?: string): EncScope {
  const { r } = d
  const scope: EncScope = { name, lifted, optionsFn: false, decorations: [], hooks: [], notFound: false, onReady: r.chance(0.2), routes: [], children: [] }
  for (let i = r.int(0, 2); i > 0; i--) {
    const override = visibleDecs.length > 0 && r.chance(0.08)
    const kind = r.pick(['decorate', 'decorateRequest', 'decorateReply'] as const)
    const inherited = visibleDecs.filter((v) => v.kind === kind)
    const dec: Dec = override && inherited.length > 0 ? { ...r.pick(inherited), form: r.pick(['value', 'getter', 'getset', 'function'] as const) } : { kind, name: `${kind === 'decorate' ? 'i' : kind === 'decorateRequest' ? 'q' : 'p'}${d.counter++}`, form: r.pick(['value', 'getter', 'getset', 'function'] as const) }
    if (dec.name !== undefined && inherited.some((v) => v.name === dec.name)) d.shape.overrides = true
    else (kind === 'decorate' ? d.shape.instanceNames : kind === 'decorateRequest' ? d.shape.requestNames : d.shape.replyNames).push(dec.name)
    scope.decorations.push(dec)
  }
  for (let i = r.int(0, 2); i > 0; i--) scope.hooks.push({ stage: r.pick(STAGES), tag: `${name}.h${d.counter++}` })
  if (!lifted && r.chance(0.35)) scope.errorHandler = r.pick(['send', 'code', 'return'] as const)
  // One not-found handler per served prefix (Fastify 3's router asserts on a second; Enclave refuses
  // it), and only in a scope with a prefix of its own (Enclave refuses one sharing its parent's: README).
  if (!lifted && servedAt.replace(/\/$/, '') !== parentServedAt?.replace(/\/$/, '') && !d.servedPrefixes.has(servedAt.replace(/\/$/, '')) && r.chance(0.4)) {
    scope.notFound = true
    d.servedPrefixes.add(servedAt.replace(/\/$/, ''))
  }
  if (!lifted && r.chance(0.4)) scope.schema = { id: `s_${name}`, ...(schemaUp !== undefined && r.chance(0.7) ? { up: schemaUp } : {}) }
  const refs = scope.schema !== undefined ? [scope.schema.id, ...(schemaUp ? [schemaUp] : [])] : schemaUp ? [schemaUp] : []
  if (r.chance(0.25)) scope.onRoute = r.pick(['hook', 'config', 'url'] as const)
  for (let i = r.int(1, 2); i > 0; i--) {
    const tag = `${name}.r${d.counter++}`
    const method = r.pick(['GET', 'POST'] as const)
    const route: EncRoute = { tag, method, url: r.pick(['/', `/${tag.replace(/\W/g, '')}`, `/${tag.replace(/\W/g, '')}`, '/:id']), handler: r.pick(['echo', 'echo', 'echo', 'throw', 'throw500', 'not-found'] as const), shorthand: r.chance(0.5) }
    if (method === 'POST' && refs.length > 0 && r.chance(0.7)) route.schemaRef = r.pick(refs)
    if (route.url === '/' && r.chance(0.6)) { route.prefixTrailingSlash = r.pick(['slash', 'no-slash', 'both'] as const); route.shorthand = true }
    scope.routes.push(route)
  }
  const visible = [...visibleDecs, ...scope.decorations]
  const schemaForChildren = scope.schema?.id ?? schemaUp
  if (depth < 4) {
    for (let i = r.int(0, depth === 0 ? 3 : 2); i > 0; i--) {
      const childLifted = !lifted && r.chance(0.25)
      const childName = `${name === 'root' ? '' : `${name}_`}${String.fromCharCode(97 + (d.counter++ % 26))}`
      const optionsFn = !childLifted && r.chance(0.15)
      const prefix = childLifted || r.chance(0.15) ? undefined : `/${childName.split('_').pop() as string}${d.counter}${r.chance(0.15) ? '/' : ''}`
      const childServed = childLifted || optionsFn || prefix === undefined ? servedAt : join(servedAt, prefix)
      // A lifted plugin stays a leaf: its body lands in this scope, whose other plugins then see it in both.
      const child = drawScope(d, childName, childLifted ? 4 : depth + 1, childLifted, childServed, visible, schemaForChildren, servedAt)
      child.prefix = prefix
      child.optionsFn = optionsFn
      if (r.chance(0.3)) child.after = r.pick(['log', 'route'] as const)
      scope.children.push(child)
    }
    scope.children.sort((a, b) => Number(b.lifted) - Number(a.lifted))
  }
  return scope
}

export function drawEncShape(r: Random): EncShape {
  const shape: EncShape = { root: undefined as unknown as EncScope, instanceNames: [], requestNames: [], replyNames: [], overrides: false }
  const d: Drawing = { r, counter: 0, shape, servedPrefixes: new Set() }
  shape.root = drawScope(d, 'root', 0, false, '', [], undefined)
  if (shape.root.children.length === 0) {
    const child = drawScope(d, 'a', 1, false, '/a0', [], shape.root.schema?.id, '')
    child.prefix = '/a0'
    shape.root.children.push(child)
  }
  return shape
}

function trace(reply: Any, tag: string): void {
  const before = reply.getHeader('x-trace') as string | undefined
  reply.header('x-trace', before === undefined ? tag : `${before},${tag}`)
}

function hookOf(stage: EncStage, tag: string): Function {
  if (stage === 'preParsing') return async (_q: Any, reply: Any, payload: unknown) => { trace(reply, tag); return payload }
  if (stage === 'preSerialization' || stage === 'onSend') return async (_q: Any, reply: Any, payload: unknown) => { trace(reply, tag); return payload }
  return async (_q: Any, reply: Any) => { trace(reply, tag) }
}

function decorationValue(dec: Dec): unknown {
  switch (dec.form) {
    case 'value': return `v:${dec.name}`
    case 'function': return function (this: Any) { return `f:${dec.name}:${this === undefined ? 'none' : 'bound'}` }
    case 'getter': return { getter() { return `g:${dec.name}` } }
    case 'getset': {
      // The setter keeps the value on the object it is set on (each request or reply its own).
      const slot = Symbol(dec.name)
      return { getter(this: Any) { return this[slot] ?? `unset:${dec.name}` }, setter(this: Any, v: unknown) { this[slot] = `set:${String(v)}` } }
    }
  }
}


/** What a handler in `scope` reports: which decorations it sees, the hooks that ran, the load log. */
function echoFrom(shape: EncShape, route: EncRoute, instance: Any, log: string[], options: unknown): Handler {
  return (request, reply) => {
    // A getter+setter decoration: set on this request/reply, then read back.
    for (const name of shape.requestNames) if (setterOf(request, name)) request[name] = 'rq'
    for (const name of shape.replyNames) if (setterOf(reply, name)) reply[name] = 'rp'
    return {
      route: route.tag,
      params: request.params,
      body: request.body ?? null,
      failed: request.validationError?.message ?? null,
      config: reply.context?.config ?? null,
      trace: reply.getHeader('x-trace') ?? null,
      options,
      log,
      inst: Object.fromEntries(shape.instanceNames.map((n) => [n, read(instance, n)])),
      rq: Object.fromEntries(shape.requestNames.map((n) => [n, read(request, n)])),
      rp: Object.fromEntries(shape.replyNames.map((n) => [n, read(reply, n)])),
    }
  }
}

function handlerOf(shape: EncShape, route: EncRoute, instance: Any, log: string[], options: unknown): Handler {
  switch (route.handler) {
    case 'throw': return async () => { throw Object.assign(new Error(`handler ${route.tag}`), { statusCode: 409 }) }
    case 'throw500': return async () => { throw new Error(`handler ${route.tag}`) }
    case 'not-found': return (_q, reply) => { reply.callNotFound() }
    case 'echo': return echoFrom(shape, route, instance, log, options)
  }
}

function declareScope(instance: Any, scope: EncScope, shape: EncShape, log: string[], options: unknown, wrap: (p: Function) => Function): void {
  log.push(`load ${scope.name}`)
  for (const dec of scope.decorations) instance[dec.kind](dec.name, decorationValue(dec))
  if (scope.schema !== undefined) {
    const properties: Record<string, unknown> = { v: { type: 'integer' } }
    if (scope.schema.up !== undefined) properties.up = { $ref: `${scope.schema.up}#` }
    instance.addSchema({ $id: scope.schema.id, type: 'object', properties, required: ['v'] })
  }
  for (const h of scope.hooks) instance.addHook(h.stage, hookOf(h.stage, h.tag))
  if (scope.onReady) instance.addHook('onReady', async () => { log.push(`ready ${scope.name}`) })
  if (scope.onRoute !== undefined) {
    const change = scope.onRoute
    const tag = `${scope.name}.onRoute`
    instance.addHook('onRoute', (o: Any) => {
      if (o.config?.enc405 === true) return
      if (change === 'hook') o.preHandler = [...(o.preHandler === undefined ? [] : Array.isArray(o.preHandler) ? o.preHandler : [o.preHandler]), hookOf('preHandler', tag)]
      else if (change === 'config') o.config = { ...o.config, onRoute: tag }
      else if (typeof o.url === 'string' && !o.url.endsWith('/')) o.url = `${o.url}-m`
    })
  }
  if (scope.errorHandler !== undefined) {
    const kind = scope.errorHandler
    const by = scope.name
    instance.setErrorHandler(kind === 'send'
      ? (error: Any, _q: Any, reply: Any) => { reply.code(error.statusCode >= 400 ? error.statusCode : 500).send({ handledBy: by, message: error.message, trace: reply.getHeader('x-trace') ?? null }) }
      : kind === 'code'
        ? (_e: Any, _q: Any, reply: Any) => { reply.code(422).type('text/plain').send(`handled by ${by}`) }
        : async (error: Any) => ({ handledBy: by, message: error.message }))
  }
  if (scope.notFound) {
    const by = scope.name
    instance.setNotFoundHandler((request: Any, reply: Any) => { reply.code(404).send({ nf: by, url: request.url, trace: reply.getHeader('x-trace') ?? null }) })
  }
  for (const route of scope.routes) {
    const schema = route.schemaRef === undefined ? undefined : { body: { $ref: `${route.schemaRef}#` } }
    const handler = handlerOf(shape, route, instance, log, options)
    const extra = { ...(schema ? { schema } : {}), ...(route.prefixTrailingSlash ? { prefixTrailingSlash: route.prefixTrailingSlash } : {}) }
    if (route.shorthand) instance[route.method.toLowerCase()](route.url, extra, handler)
    else instance.route({ method: route.method, url: route.url, handler, ...extra })
  }
  for (const child of scope.children) {
    const plugin = async (inner: Any, opts: Any): Promise<void> => { declareScope(inner, child, shape, log, opts?.tag === undefined ? null : { tag: opts.tag, parentSaw: opts.parentSaw ?? null }, wrap) }
    const given = child.optionsFn
      ? (parent: Any) => ({ prefix: child.prefix, tag: child.name, parentSaw: shape.instanceNames.filter((n) => parent[n] !== undefined) })
      : { ...(child.prefix === undefined ? {} : { prefix: child.prefix }), tag: child.name }
    const registered = instance.register(child.lifted ? wrap(plugin) : plugin, given)
    if (child.after !== undefined) {
      const mode = child.after
      registered.after(() => {
        log.push(`after ${child.name}`)
        if (mode === 'route') instance.get(`/after-${child.name}`, echoFrom(shape, { tag: `after-${child.name}`, method: 'GET', url: '', handler: 'echo', shorthand: true }, instance, log, options))
      })
    }
  }
}

/** A route as the case's route: its `setup` declares the whole tree on the framework given. */
export function encRoute(shape: EncShape): RouteSpec {
  const setup = (app: Any): void => {
    /* eslint-disable @typescript-eslint/no-var-requires */
    const wrap = app.version === '3.27.4' ? require('fastify-plugin') as (p: Function) => Function : (require('../../src/runtime') as { lift: (p: Function) => Function }).lift
    /* eslint-enable @typescript-eslint/no-var-requires */
    const na = shape.notAllowed
    if (na !== undefined) {
      app.route({
        method: na.method, url: na.url, config: { enc405: true },
        handler: async (_q: Any, reply: Any) => {
          reply.header('allow', na.allow)
          throw Object.assign(new Error(`Method ${na.method} is not allowed for ${na.url}; allowed: ${na.allow}`), { statusCode: 405, code: 'ENC_ERR_METHOD_NOT_ALLOWED' })
        },
      })
    }
    declareScope(app, shape.root, shape, [], null, wrap)
  }
  return { method: 'GET', url: '/enc-unused', handler: () => ({}), setup }
}

interface Served { path: string; method: string; route: EncRoute; scope: EncScope }

/** Where each route should be served (both frameworks decide; a request may also find nothing). */
export function served(shape: EncShape): { routes: Served[]; prefixes: string[] } {
  const routes: Served[] = []
  const prefixes: string[] = []
  const walk = (scope: EncScope, at: string): void => {
    prefixes.push(at)
    for (const route of scope.routes) routes.push({ path: join(at, route.url === '/' && at !== '' && route.prefixTrailingSlash === 'no-slash' ? '' : route.url) || '/', method: route.method, route, scope })
    for (const child of scope.children) {
      const childAt = child.lifted || child.optionsFn ? at : join(at, child.prefix)
      if (child.after === 'route') routes.push({ path: join(at, `/after-${child.name}`), method: 'GET', route: { tag: 'after', method: 'GET', url: '', handler: 'echo', shorthand: true }, scope })
      walk(child, childAt)
    }
  }
  walk(shape.root, '')
  return { routes, prefixes }
}

export function encRequest(r: Random, shape: EncShape): RequestSpec {
  const { routes, prefixes } = served(shape)
  const roll = r.int(0, 9)
  let method = 'GET'
  let url: string
  if (roll < 6 && routes.length > 0) {
    const s = r.pick(routes)
    method = s.method
    url = s.path.replace(':id', r.pick(['1', 'x']))
    if (r.chance(0.15)) url = `${url}-m`
    else if (r.chance(0.15)) url = url.endsWith('/') ? url.slice(0, -1) || '/' : `${url}/`
  } else {
    const at = r.pick(prefixes)
    url = join(at || '', r.pick(['/unknown', '/zz/unknown', '']) ) || '/nope'
    method = r.pick(['GET', 'POST'])
  }
  if (method === 'POST') return { method, url, headers: { 'content-type': 'application/json' }, payload: r.pick(['{"v":1}', '{"v":"2"}', '{"v":"x"}', '{}', '{"v":1,"up":{"v":"3"}}', '{"v":1,"up":{}}']) }
  return { method, url }
}

export function describeEncShape(shape: EncShape): string {
  const scope = (s: EncScope): string => {
    const parts: string[] = []
    for (const dec of s.decorations) parts.push(`${dec.kind} ${dec.name} ${dec.form}`)
    if (s.schema) parts.push(`addSchema ${s.schema.id}${s.schema.up ? ` -> ${s.schema.up}` : ''}`)
    for (const h of s.hooks) parts.push(`${h.stage} ${h.tag}`)
    if (s.onReady) parts.push('onReady')
    if (s.onRoute) parts.push(`onRoute ${s.onRoute}`)
    if (s.errorHandler) parts.push(`errorHandler ${s.errorHandler}`)
    if (s.notFound) parts.push('notFound')
    for (const r of s.routes) parts.push(`${r.shorthand ? 'short ' : ''}${r.method} '${r.url}' ${r.tag} ${r.handler}${r.schemaRef ? ` $ref=${r.schemaRef}` : ''}${r.prefixTrailingSlash ? ` pts=${r.prefixTrailingSlash}` : ''}`)
    for (const c of s.children) parts.push(`register${c.after ? `(after ${c.after})` : ''} ${scope(c)}`)
    return `${s.name}${s.prefix === undefined ? '' : ` prefix=${s.prefix}`}${s.lifted ? ' lifted' : ''}${s.optionsFn ? ' optionsFn' : ''} [${parts.join('; ')}]`
  }
  return scope(shape.root)
}
