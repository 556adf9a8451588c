// The `cross-scope-refs` family: shared schemas added with `addSchema` in one scope and referred
// to (`$ref`) from a route in another. Scopes: the root, a prefixed plugin A, A's child A1, A's
// sibling B, and a fastify-plugin (skip-override) plugin registered at the root. The schema is
// added in one of them (at the root also after `register`, or in the route's own scope after the
// route), the route sits in one of them, and refers to the whole schema (`id#`, `id`), one of its
// `definitions` (`id#/definitions/x`), one of its properties, or a second schema of the route's
// scope that itself refers to the first; from a body, a querystring or a response schema. Where
// the schema is out of the route's sight both refuse the route at boot (compared as a refusal).
import fp from 'fastify-plugin'
import type { Handler, RequestSpec, RouteSpec } from './case'
import type { Random } from './random'

type Any = any // eslint-disable-line @typescript-eslint/no-explicit-any

type Scope = 'root' | 'A' | 'A1' | 'B'
type AddedIn = Scope | 'fp' | 'root-late' | 'own-late'

const SHARED = {
  $id: 'xs-shared', type: 'object',
  properties: { n: { type: 'integer', minimum: 1 }, name: { type: 'string', maxLength: 4 } },
  required: ['n'],
  definitions: { pos: { type: 'integer', minimum: 1 }, tag: { type: 'string', pattern: '^[a-z]+$' }, pair: { type: 'object', properties: { k: { type: 'string' }, v: { type: 'integer' } }, required: ['k'] } },
}
/** Added in the route's own scope: refers to the first schema by `$id` from there. */
const LOCAL = { $id: 'xs-local', type: 'object', properties: { inner: { $ref: 'xs-shared#' }, pos: { $ref: 'xs-shared#/definitions/pos' } } }

const REFS = ['xs-shared#', 'xs-shared', 'xs-shared#/definitions/pos', 'xs-shared#/definitions/tag', 'xs-shared#/definitions/pair', 'xs-shared#/properties/name', 'xs-local#'] as const
type Ref = typeof REFS[number]

export interface RefsShape {
  addedIn: AddedIn
  routeIn: Scope
  ref: Ref
  part: 'body' | 'body-property' | 'querystring' | 'response' | 'response-property'
  value: number
}

export function drawRefsShape(r: Random): RefsShape {
  const part = r.pick(['body', 'body-property', 'body-property', 'querystring', 'response', 'response-property', 'response-property'] as const)
  const scalarRefs: Ref[] = ['xs-shared#/definitions/pos', 'xs-shared#/definitions/tag', 'xs-shared#/properties/name']
  const ref = part === 'querystring' ? r.pick(scalarRefs) : r.pick(REFS)
  return { addedIn: r.pick(['root', 'root', 'A', 'A1', 'B', 'fp', 'root-late', 'own-late'] as const), routeIn: r.pick(['root', 'A', 'A1', 'B'] as const), ref, part, value: r.int(0, 20) }
}

const VALUES: Record<'object' | 'scalar', unknown[]> = {
  object: [{ n: 1 }, { n: '2', name: 'ab' }, { n: 0 }, { name: 'toolong' }, { k: 'a', v: '3' }, { v: 1 }, { inner: { n: 1 }, pos: 2 }, { inner: {}, pos: 0 }, {}, { n: 1, extra: true }, [1]],
  scalar: [1, '2', 0, -1, 'abc', 'ABC', 'toolong', 'ab', 1.5, true, null],
}

function scalar(ref: Ref): boolean {
  return /definitions\/(pos|tag)$|properties\/name$/.test(ref)
}

function valueOf(s: RefsShape): unknown {
  const whole = !s.part.endsWith('-property') && s.part !== 'querystring'
  const list = VALUES[scalar(s.ref) ? 'scalar' : 'object']
  const v = list[s.value % list.length]
  return whole ? v : { x: v, other: 1 }
}

function schemaOf(s: RefsShape): Record<string, unknown> {
  const ref = { $ref: s.ref }
  const property = { type: 'object', properties: { x: ref, other: { type: 'integer' } } }
  switch (s.part) {
    case 'body': return { body: ref }
    case 'body-property': return { body: property }
    case 'querystring': return { querystring: { type: 'object', properties: { x: ref } } }
    case 'response': return { response: { 200: ref } }
    case 'response-property': return { response: { 200: property } }
  }
}

const PREFIX: Record<Scope, string> = { root: '', A: '/a', A1: '/a/a1', B: '/b' }

export function describeRefsShape(s: RefsShape): string {
  return `xs-shared added in ${s.addedIn}, route in ${s.routeIn}, ${s.part} $ref ${s.ref}, value ${JSON.stringify(valueOf(s))}`
}

export function refsRoute(s: RefsShape): RouteSpec {
  const method = s.part.startsWith('body') ? 'POST' : 'GET'
  const handler: Handler = s.part.startsWith('response') ? () => structuredClone(valueOf(s)) : (request: Any) => ({ body: request.body ?? null, query: request.query })
  // Each scope: add the schema if it is added there, then the route if it is there.
  const inScope = (scope: Any, name: Scope): void => {
    if (s.addedIn === name) scope.addSchema(structuredClone(SHARED))
    if (s.routeIn !== name) return
    if (s.ref === 'xs-local#') scope.addSchema(structuredClone(LOCAL))
    scope.route({ method, url: '/r', schema: structuredClone(schemaOf(s)), handler })
    if (s.addedIn === 'own-late') scope.addSchema(structuredClone(SHARED))
  }
  return {
    method,
    url: '/xs-placeholder',
    handler: () => 'placeholder',
    setup: (app: Any) => {
      if (s.addedIn === 'fp') app.register(fp(async (inner: Any) => { inner.addSchema(structuredClone(SHARED)) }))
      inScope(app, 'root')
      app.register(async (a: Any) => {
        inScope(a, 'A')
        a.register(async (a1: Any) => { inScope(a1, 'A1') }, { prefix: '/a1' })
      }, { prefix: '/a' })
      app.register(async (b: Any) => { inScope(b, 'B') }, { prefix: '/b' })
      if (s.addedIn === 'root-late') app.addSchema(structuredClone(SHARED))
    },
  }
}

export function refsRequest(s: RefsShape): RequestSpec {
  const url = `${PREFIX[s.routeIn]}/r`
  if (s.part.startsWith('body')) return { method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(valueOf(s)) }
  if (s.part === 'querystring') return { method: 'GET', url: `${url}?x=${encodeURIComponent(String((valueOf(s) as { x: unknown }).x))}` }
  return { method: 'GET', url }
}
