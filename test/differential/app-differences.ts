// README differences that only app shapes meet (plugins, encapsulation, the lifecycle). Most are
// rules about how the app is declared, so each is written as a change to the shape that makes
// Fastify 3 declare what Enclave does, and Fastify 3 is asked again (`replay`). The changes
// accumulate in table order: an entry replays with its own and every earlier one that applies.
import type { AppShape, ScopeShape, Stage } from './app-shapes'
import { emptyUrlsByShorthand, errorHandlersFirst, hasLiftedPrefix, liftedPrefixesApplied, notFoundHandlersFirst, regexpParsersInherited, registersLast, servedRoutes, some, withoutRoute } from './app-shapes'
import type { Answer, Case } from './case'
import type { KnownDifference, RewriteContext } from './difference-types'

interface ShapeRule {
  id: string
  readme: string
  applies(root: ScopeShape): boolean
  change(shape: AppShape): AppShape
  /** Fastify 3's handlers declared so that they chain as Enclave's. */
  chain?: true
}

const SHAPE_RULES: ShapeRule[] = [
  {
    id: 'lifted-prefix',
    readme: '`register(lift(plugin), { prefix })` applies the prefix to the lifted plugin\'s routes.',
    applies: hasLiftedPrefix,
    change: liftedPrefixesApplied,
  },
  {
    id: 'empty-url-route',
    readme: '`route({ url: \'\' })` in a prefixed plugin serves the prefix itself, as `get(\'\', ...)` does in both',
    applies: (root) => some(root, (o) => o.op === 'route' && o.route.url === '' && !o.route.shorthand),
    change: emptyUrlsByShorthand,
  },
  {
    id: 'hooks-declaration-order',
    readme: 'Hooks run ancestors\' first, then the scope\'s own, each in declaration order (and route-level hooks last).',
    applies: (root) => some(root, (o, s) => o.op === 'register' && s.ops.indexOf(o) < s.ops.length - 1),
    change: registersLast,
  },
  {
    id: 'regexp-parsers-inherited',
    readme: 'a child scope sees its ancestors\' RegExp parsers (Fastify 3.27.4\'s children lose them)',
    applies: (root) => some(root, (o) => o.op === 'parser' && o.kind === 'regexp') && some(root, (o) => o.op === 'register' && !o.child.lifted),
    change: regexpParsersInherited,
  },
  {
    id: 'error-handler-whole-scope',
    readme: 'A scope\'s error handler (`setErrorHandler`) serves every route of the scope, also those declared before it',
    applies: (root) => some(root, (o) => o.op === 'errorHandler'),
    change: errorHandlersFirst,
  },
  {
    id: 'error-handlers-chain',
    readme: 'Error handlers chain: when one throws or sends the error on, the next one up (the parent scope\'s) gets it before the built-in reply; Fastify 3 goes straight to its default handler.',
    applies: (root) => some(root, (o) => o.op === 'errorHandler'),
    change: (shape) => shape,
    chain: true,
  },
  {
    id: 'call-not-found-before-handler',
    readme: '`reply.callNotFound()` reaches the scope\'s not-found handler also from a route declared before `setNotFoundHandler()`',
    applies: (root) => some(root, (o, s) => o.op === 'notFound' && (s.ops.indexOf(o) > 0 || s.lifted)),
    change: notFoundHandlersFirst,
  },
]

/** The shape under every rule up to and including `upTo` that applies, and whether handlers chain. */
function changed(shape: AppShape, upTo: number): { app: AppShape; chainErrorHandlers?: true } {
  let app = shape
  let chain = false
  for (const rule of SHAPE_RULES.slice(0, upTo + 1)) {
    if (!rule.applies(shape.root)) continue
    app = rule.change(app)
    chain ||= rule.chain === true
  }
  return chain ? { app, chainErrorHandlers: true } : { app }
}

/** What the hooks of a stage are called in x-trace (route-level ones included). */
function stageTags(root: ScopeShape, stage: Stage): Set<string> {
  const tags = new Set<string>()
  const walk = (s: ScopeShape): void => {
    for (const o of s.ops) {
      if (o.op === 'hook' && o.stage === stage) tags.add(o.tag)
      if (o.op === 'route' && o.route.routeHook === stage) tags.add(`${o.route.tag}.h`)
      if (o.op === 'register') walk(o.child)
    }
  }
  walk(root)
  return tags
}

/** shapeStep of an answer asked again without its x-fail failure (a hook Enclave skips). */
const SKIPPED_FAILURE = 1001

export const APP_DIFFERENCES: KnownDifference[] = [
  ...SHAPE_RULES.map((rule, index): KnownDifference => ({
    id: rule.id,
    readme: rule.readme,
    async rewrite(f, { c, replay }) {
      if (c.app === undefined || !rule.applies(c.app.root) || (f.shapeStep ?? -1) >= index) return undefined
      return { ...await replay(c.request, c.route, changed(c.app, index)), shapeStep: index }
    },
  })),
  {
    id: 'last-resort-reply-own-headers',
    readme: 'When the error reply itself fails (an onSend hook that throws on it too), the last-resort answer carries only its own headers',
    rewrite(f, { c, enclave }) {
      const failing = c.request.headers?.['x-fail']?.split('!')[0]
      if (c.app === undefined || failing === undefined || f.headers['x-trace'] === undefined || enclave.headers['x-trace'] !== undefined) return undefined
      if (!stageTags(c.app.root, 'onSend').has(failing)) return undefined
      const headers = { ...f.headers }
      delete headers['x-trace']
      return { ...f, headers }
    },
  },
  {
    id: 'app-onsend-fails-4xx',
    readme: 'The same holds for an onSend hook that fails on a 4xx\n  payload (Fastify 3 and 5 both sent its message under the 4xx): a 500, logged once',
    rewrite(f, { c, enclave }) {
      // An onSend hook made to fail without a status (`!500`: a plain Error) on an error reply that
      // is a 4xx (seed 39 case 83: a parser's 400 answered by an error handler, the route's onSend failing on it).
      const wanted = c.request.headers?.['x-fail']
      if (c.app === undefined || wanted === undefined || !wanted.endsWith('!500') || f.statusCode < 400 || f.statusCode > 499 || enclave.statusCode !== 500) return undefined
      if (!stageTags(c.app.root, 'onSend').has(wanted.split('!')[0] as string)) return undefined
      const body = { statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' }
      return { statusCode: 500, headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(JSON.stringify(body))) }, body }
    },
  },
  {
    id: 'app-validation-status',
    readme: 'A validation error also carries `statusCode: 400` when it reaches `setErrorHandler`',
    rewrite(f, { c, enclave }) {
      // The generator's `send` error handler answers `error.statusCode`, else 500 (app-build.ts):
      // Fastify 3's validation error has no statusCode, so its handler sends the same body under 500.
      const fb = f.body as { handledBy?: unknown; message?: unknown } | null
      const eb = enclave.body as { handledBy?: unknown; message?: unknown } | null
      if (c.app === undefined || f.statusCode !== 500 || enclave.statusCode !== 400 || fb === null || eb === null || typeof fb !== 'object' || typeof eb !== 'object') return undefined
      if (typeof fb.handledBy !== 'string' || fb.handledBy !== eb.handledBy || typeof fb.message !== 'string' || !/^(body|querystring|params|headers)\b/.test(fb.message)) return undefined
      if (!some(c.app.root, (o) => o.op === 'errorHandler' && o.tag === fb.handledBy && o.behaviour === 'send')) return undefined
      return { ...f, statusCode: 400 }
    },
  },
  {
    id: 'sibling-schema-ref-refused',
    readme: 'A `$ref` to a shared schema added only outside the route\'s scope and its ancestors (by a sibling\n  plugin, or a child) is refused at boot (`ENC_ERR_SCH_REF_NOT_VISIBLE`)',
    rewrite(f, { c, enclave }) {
      // The generator draws such a $ref now and then (app-shapes.ts): Fastify 3 may resolve it.
      if (c.app === undefined || f.bootError !== undefined || enclave.bootError === undefined || !/references '([^']+)#', but no shared schema '\1' is visible from this scope/.test(enclave.bootError)) return undefined
      return { statusCode: 0, headers: {}, body: undefined, bootError: enclave.bootError }
    },
  },
  {
    id: 'not-found-handler-needs-prefix',
    readme: 'A not-found handler in a child scope that shares its parent\'s prefix is refused',
    rewrite(f, { c, enclave }) {
      if (c.app === undefined || f.bootError !== undefined || enclave.bootError === undefined || !/^setNotFoundHandler\(\) in .*same prefix/.test(enclave.bootError)) return undefined
      return { statusCode: 0, headers: {}, body: undefined, bootError: enclave.bootError }
    },
  },
  {
    id: 'not-found-duplicate-prefix-refused',
    readme: 'Two scopes at the same prefix that each set a not-found handler are refused at boot\n  (`ENC_ERR_NOT_FOUND_DUPLICATE`, naming both)',
    rewrite(f, { c, enclave }) {
      // Both refuse (seed 162 case 56, two cousins at one prefix once a lifted plugin's prefix
      // applies): Fastify 3's find-my-way throws from an avvio callback, outside any promise.
      if (c.app === undefined || f.statusCode !== -2 || typeof f.body !== 'string' || !/already declared for route '[^']*\*'/.test(f.body)) return undefined
      if (enclave.bootError === undefined || !/already handles not-found requests for prefix/.test(enclave.bootError)) return undefined
      return { statusCode: 0, headers: {}, body: undefined, bootError: enclave.bootError }
    },
  },
  {
    id: 'builtin-404-skips-pre-serialization',
    readme: 'The built-in 404 payload, like every error payload the framework builds, skips preSerialization hooks (Fastify 3 runs them on its 404)',
    async rewrite(first, { c, enclave, replay }) {
      const message = (enclave.body as { message?: unknown } | null)?.message
      if (c.app === undefined || enclave.statusCode !== 404 || typeof message !== 'string' || !/^Route \S+ not found$/.test(message)) return undefined
      const skipped = stageTags(c.app.root, 'preSerialization')
      // One of them made to fail fails only in Fastify 3: asked again without the failure (seed 156 case 223).
      const failing = c.request.headers?.['x-fail']?.split('!')[0]
      let f = first
      if (failing !== undefined && skipped.has(failing) && first.shapeStep !== SKIPPED_FAILURE) {
        const headers = { ...c.request.headers }
        delete headers['x-fail']
        f = { ...await replayUnderRules(c, { ...c.request, headers }, replay), shapeStep: SKIPPED_FAILURE }
      }
      const trace = f.headers['x-trace']
      if (trace === undefined) return f === first ? undefined : f
      const kept = trace.split(',').filter((tag) => !skipped.has(tag))
      if (kept.length === trace.split(',').length) return f === first ? undefined : f
      const headers = { ...f.headers }
      if (kept.length === 0) delete headers['x-trace']
      else headers['x-trace'] = kept.join(',')
      return { ...f, headers }
    },
  },
]

/** The tag of the route whose handler wrote the answer (echo, send-text and throw say it), if any. */
function answeringTag(a: Answer): string | undefined {
  const b = a.body as { route?: unknown; message?: unknown } | string | null | undefined
  if (typeof b === 'string') return /^text (\S+)$/.exec(b)?.[1]
  if (b === null || typeof b !== 'object') return undefined
  if (typeof b.route === 'string') return b.route
  return typeof b.message === 'string' ? /^handler (\S+)$/.exec(b.message)?.[1] : undefined
}

/** Whether a parametric url (its prefix joined) can match the path, its trailing slash aside. */
export function paramUrlMatches(url: string, path: string): boolean {
  if (url.includes('*')) return true
  // A parameter at the end may be empty: both routers take `/a-b/` for `/a-b/:id` (seed 163 case 41).
  const parts = url.split('/')
  const pattern = parts.map((part, i) => (part.startsWith(':') ? (i === parts.length - 1 ? '[^/]*' : '[^/]+') : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))).join('/')
  return new RegExp(`^${pattern.replace(/\/$/, '')}/?$`).test(path)
}

/**
 * Fastify 3's router (find-my-way 4) can backtrack into a parametric route that does not match the
 * path (routes POST /a, /api/ and /:id: POST /api/x reaches /:id with id 'x'; seed 43 case 76 before session 26).
 * Enclave answers as Fastify 3 does without that route: asked again with the route left out.
 */
export const PARAMETRIC_BACKTRACK: KnownDifference = {
  id: 'parametric-backtrack',
  readme: 'a path is never answered by a parametric route it does not match',
  async rewrite(f, { c, replay }) {
    const tag = answeringTag(f)
    if (c.app === undefined || tag === undefined) return undefined
    const served = servedRoutes(c.app).routes.find((r) => r.route.tag === tag)
    const path = c.request.url.split('?')[0] as string
    if (served === undefined || !served.route.url.includes(':')) return undefined
    const full = served.prefix.endsWith('/') && served.route.url.startsWith('/') ? served.prefix + served.route.url.slice(1) : served.prefix + served.route.url
    if (paramUrlMatches(full, path)) return undefined
    const { app, chainErrorHandlers } = changed(c.app, SHAPE_RULES.length - 1)
    const without = withoutRoute(app, tag)
    return { ...await replay(c.request, c.route, chainErrorHandlers ? { app: without, chainErrorHandlers } : { app: without }), shapeStep: SHAPE_RULES.length }
  },
}

/** Fastify 3 asked with another request under every shape rule that applies (for rules about what a request meets). */
export async function replayUnderRules(c: Case, request: Case['request'], replay: RewriteContext['replay']): Promise<Answer> {
  const { app, chainErrorHandlers } = changed(c.app as AppShape, SHAPE_RULES.length - 1)
  return { ...await replay(request, c.route, chainErrorHandlers ? { app, chainErrorHandlers } : { app }), shapeStep: SHAPE_RULES.length }
}

/**
 * In an app shape the 405 is raised in the root scope (README: "so the root's hooks and error
 * handler see it"): Fastify 3 is asked with a root route for that method and path, declared
 * before any onRoute hook, that throws the 405 with Enclave's Allow list, under every shape rule.
 */
export async function notAllowedInApp(f: Answer, c: Case, enclave: Answer, replay: RewriteContext['replay']): Promise<Answer | undefined> {
  // A 415 can come first: the 405 is raised in the root, whose parsers read the body (then no Allow
  // to copy), and an error handler may have turned that 415 into another answer (seed 21 case 37:
  // a 422). The replay then tells: its handler never ran, so it has no Allow either.
  const unreached = enclave.headers.allow === undefined
  const allow = enclave.headers.allow ?? (enclave.statusCode === 415 || c.request.headers?.['content-type'] !== undefined ? '(unused)' : undefined)
  const shape = c.app as AppShape
  if (allow === undefined || f.headers.allow !== undefined || !['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'].includes(c.request.method)) return undefined
  const url = c.request.url.split('?')[0] as string
  // Enclave's 404 is no 405 (callNotFound from a route for that method and path, seed 147 case 51:
  // a second route there would only be refused at boot).
  if (enclave.statusCode === 404 && enclave.headers.allow === undefined) return undefined
  const route = { tag: 'root.405', method: c.request.method as 'GET', url, handler: 'not-allowed' as const, allow }
  const { app, chainErrorHandlers } = changed(shape, SHAPE_RULES.length - 1)
  const withRoute = { ...app, root: { ...app.root, ops: [{ op: 'route' as const, route }, ...app.root.ops] } }
  if ((f.shapeStep ?? -1) >= SHAPE_RULES.length) return undefined
  const replayed = await replay(c.request, c.route, chainErrorHandlers ? { app: withRoute, chainErrorHandlers } : { app: withRoute })
  if (unreached && replayed.headers.allow !== undefined) return undefined // Fastify 3 reached the 405 that Enclave did not
  return { ...replayed, shapeStep: SHAPE_RULES.length }
}
