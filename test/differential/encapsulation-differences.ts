// README differences the `encapsulation` family meets (encapsulation.ts): each rewrites Fastify 3's
// answer, or asks it again with the tree changed as the rule says Enclave reads it.
import type { Answer } from './case'
import type { KnownDifference } from './difference-types'
import { encRoute, served, type EncScope, type EncShape } from './encapsulation'
import { paramUrlMatches } from './app-differences'

function scopes(scope: EncScope): EncScope[] {
  return [scope, ...scope.children.flatMap(scopes)]
}

function builtInError(a: Answer): boolean {
  const b = a.body as Record<string, unknown> | null
  if (b === null || typeof b !== 'object' || Array.isArray(b)) return false
  return Object.keys(b).filter((k) => k !== 'code').sort().join(',') === 'error,message,statusCode'
}

export const ENCAPSULATION_DIFFERENCES: KnownDifference[] = [
  {
    id: 'enc-decorator-redeclared',
    readme: 'A child scope may not re-declare a decorator its ancestors have (`ENC_ERR_DEC_ALREADY_PRESENT`;\n  Fastify lets a child shadow it)',
    rewrite(f, { c, enclave }) {
      if (c.enc?.overrides !== true || f.bootError !== undefined || enclave.bootError === undefined || !/a decorator with this name is already visible here/.test(enclave.bootError)) return undefined
      return { statusCode: 0, headers: {}, body: undefined, bootError: enclave.bootError }
    },
  },
  {
    id: 'enc-built-in-payload-skips-pre-serialization',
    readme: 'The built-in 404 payload, like every error payload the framework builds, skips preSerialization\n  hooks',
    rewrite(f, { c, enclave }) {
      const shape = c.enc
      const trace = f.headers['x-trace']
      if (shape === undefined || trace === undefined || !builtInError(enclave)) return undefined
      const tags = new Set(scopes(shape.root).flatMap((s) => s.hooks.filter((h) => h.stage === 'preSerialization').map((h) => h.tag)))
      const kept = trace.split(',').filter((tag) => !tags.has(tag))
      if (kept.length === trace.split(',').length) return undefined
      const headers = { ...f.headers }
      if (kept.length === 0) delete headers['x-trace']
      else headers['x-trace'] = kept.join(',')
      return { ...f, headers }
    },
  },
  {
    id: 'enc-method-not-allowed',
    readme: 'Wrong method on a known path answers 405 with `Allow`, not 404.',
    async rewrite(f, { c, enclave, replay }) {
      const shape = c.enc as EncShape | undefined
      const allow = enclave.headers.allow
      if (shape === undefined || shape.notAllowed !== undefined || allow === undefined || f.headers.allow !== undefined || f.statusCode !== 404) return undefined
      // README: the 405 is raised in the root scope, so the root's hooks and error handler see it.
      const url = c.request.url.split('?')[0] as string
      // Without the parametric routes the path does not match (the backtracking rule below), so
      // that the two compose: a backtracked 200 becomes a 404 there, then a 405 here.
      const changed: EncShape = { ...shape, root: withoutUnmatched(shape, url), notAllowed: { method: c.request.method, url, allow } }
      return await replay(c.request, encRoute(changed))
    },
  },
]

/** The onSend and preSerialization tags of every scope (the hooks whose place a not-found reply changes). */
function payloadTags(shape: EncShape): Set<string> {
  return new Set(scopes(shape.root).flatMap((s) => s.hooks.filter((h) => h.stage === 'onSend' || h.stage === 'preSerialization').map((h) => h.tag)))
}

ENCAPSULATION_DIFFERENCES.push({
  id: 'enc-call-not-found-hooks',
  readme: 'After `reply.callNotFound()` the not-found reply runs the not-found handler\'s preSerialization and onSend hooks',
  rewrite(f, { c, enclave }) {
    // Only where a route that calls callNotFound answered (Enclave's 404 reply from it): Fastify 3
    // ran that route's onSend hooks instead of the not-found handler's. The payload hooks of both
    // traces are set aside and Enclave's put in their place: the hooks before the handler must agree.
    const shape = c.enc
    if (shape === undefined || enclave.statusCode !== 404 || f.statusCode !== 404) return undefined
    if (!scopes(shape.root).some((s) => s.routes.some((r) => r.handler === 'not-found'))) return undefined
    const tags = payloadTags(shape)
    const ft = (f.headers['x-trace'] ?? '').split(',').filter((t) => t !== '')
    const et = (enclave.headers['x-trace'] ?? '').split(',').filter((t) => t !== '')
    const before = ft.filter((t) => !tags.has(t))
    if (before.join(',') !== et.filter((t) => !tags.has(t)).join(',')) return undefined
    const trace = [...before, ...et.filter((t) => tags.has(t))].join(',')
    if (trace === ft.join(',')) return undefined
    const headers = { ...f.headers }
    if (trace === '') delete headers['x-trace']
    else headers['x-trace'] = trace
    return { ...f, headers }
  },
})

ENCAPSULATION_DIFFERENCES.push({
  id: 'enc-validation-error-status',
  readme: 'A validation error also carries `statusCode: 400` when\n  it reaches `setErrorHandler`',
  // An error handler that answers with `error.statusCode` (else 500) answers a validation error
  // 400 in Enclave, 500 in Fastify 3 (its validation error has no status).
  rewrite(f, { c, enclave }) {
    const b = f.body as { handledBy?: unknown; message?: unknown } | null
    if (c.enc === undefined || f.statusCode !== 500 || enclave.statusCode !== 400 || b === null || typeof b !== 'object' || typeof b.handledBy !== 'string') return undefined
    if (typeof b.message !== 'string' || !/^body\b/.test(b.message)) return undefined
    return { ...f, statusCode: 400 }
  },
})

/** The tree without every parametric route `path` matches under no reading of its url (as declared, or moved by an onRoute hook); the same tree when there is none. */
function withoutUnmatched(shape: EncShape, path: string): EncScope {
  const unmatched = served(shape).routes.filter((s) => s.path.includes(':') && !paramUrlMatches(s.path, path) && !paramUrlMatches(`${s.path}-m`, path))
  let root = shape.root
  for (const s of unmatched) root = withoutRoute(root, s.route.tag)
  return root
}

function withoutRoute(scope: EncScope, tag: string): EncScope {
  return { ...scope, routes: scope.routes.filter((r) => r.tag !== tag), children: scope.children.map((c) => withoutRoute(c, tag)) }
}

ENCAPSULATION_DIFFERENCES.push({
  id: 'enc-parametric-backtrack',
  readme: 'a path is never answered by a parametric route it does not match',
  // find-my-way 4 backtracks into a parametric route the path does not match (POST /x24/v_xr26-m
  // reaching a root `/:id` with id 'v_xr26-m'): Fastify 3 is asked again without that route.
  async rewrite(f, { c, replay }) {
    const shape = c.enc
    const b = f.body as { route?: unknown; config?: { url?: unknown } } | null
    if (shape === undefined || b === null || typeof b !== 'object' || typeof b.route !== 'string' || typeof b.config?.url !== 'string') return undefined
    const url = b.config.url
    const path = c.request.url.split('?')[0] as string
    if (!url.includes(':') || paramUrlMatches(url, path)) return undefined
    return await replay(c.request, encRoute({ ...shape, root: withoutRoute(shape.root, b.route) }))
  },
})

ENCAPSULATION_DIFFERENCES.push({
  id: 'enc-parametric-backtrack-unseen',
  readme: 'a path is never answered by a parametric route it does not match',
  // The same where the route that answered does not say which it is (a handler that throws or
  // calls callNotFound, an error handler that hides the message): Enclave found no route, Fastify 3 did; Fastify 3 is
  // asked again without every parametric route the path matches under no reading of its url
  // (as declared, or moved by an onRoute hook).
  async rewrite(f, { c, enclave, replay }) {
    const shape = c.enc
    // (Fastify 3's answer may be a 404 too: the route it reached called callNotFound.)
    if (shape === undefined || enclave.statusCode !== 404 || (f.statusCode === 404 && !scopes(shape.root).some((s) => s.routes.some((r) => r.handler === 'not-found')))) return undefined
    const path = c.request.url.split('?')[0] as string
    const root = withoutUnmatched(shape, path)
    if (root === shape.root) return undefined
    return await replay(c.request, encRoute({ ...shape, root }))
  },
})
