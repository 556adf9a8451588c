// The `shared-schemas` family: `addSchema` at the root and in a prefixed child plugin (before and
// after `register`), the `$ref` forms apps write (`id#`, `id` without `#`, `id#/properties/x`,
// `id#/definitions/x`, a nested schema's own `$id`, a URL `$id` whose schema refers to a sibling
// by a relative URL), refs from a child's schema to the root's, a root route referring to a child's
// schema (refused at boot by both), the same `$id` added twice in one scope or again in a child,
// refs in body, querystring and response schemas (the serializer resolves refs on its own), and
// `getSchema`/`getSchemas` read by a handler in each scope. Shapes are data, so a failure prints
// what was declared; the functions are the same on both frameworks.
import type { Handler, RequestSpec, RouteSpec } from './case'
import type { Random } from './random'

type Any = any // eslint-disable-line @typescript-eslint/no-explicit-any

type SchemaName = 'user' | 'wrap' | 'item' | 'zip' | 'addr'

/** The schemas by name; `item` (a child's, usually) refers to the root's `user`, `addr` to `zip` by a relative URL. */
const SCHEMAS: Record<SchemaName, Record<string, unknown>> = {
  user: { $id: 'r-user', type: 'object', properties: { name: { type: 'string', maxLength: 5 }, age: { type: 'integer' } }, required: ['name'], definitions: { tag: { type: 'string', pattern: '^[a-z]+$' } } },
  wrap: { $id: 'r-wrap', type: 'object', properties: { inner: { $id: 'r-inner', type: 'object', properties: { v: { type: 'integer' } } } } },
  item: { $id: 'c-item', type: 'object', properties: { id: { type: 'integer' }, user: { $ref: 'r-user#' } }, required: ['id'] },
  zip: { $id: 'http://example.com/s/zip.json', type: 'string', pattern: '^\\d{5}$' },
  addr: { $id: 'http://example.com/s/addr.json', type: 'object', properties: { zip: { $ref: 'zip.json#' }, city: { type: 'string' } } },
}

type Ref = 'r-user#' | 'r-user' | 'r-user#/properties/name' | 'r-user#/properties/age' | 'r-user#/definitions/tag' | 'r-inner#' | 'r-wrap#/properties/inner' | 'c-item#' | 'http://example.com/s/addr.json#' | 'http://example.com/s/zip.json'
const OBJECT_REFS: Ref[] = ['r-user#', 'r-user', 'r-inner#', 'r-wrap#/properties/inner', 'c-item#', 'http://example.com/s/addr.json#']
const SCALAR_REFS: Ref[] = ['r-user#/properties/name', 'r-user#/properties/age', 'r-user#/definitions/tag', 'http://example.com/s/zip.json']

export interface SharedShape {
  root: SchemaName[]
  child: SchemaName[]
  /** A root schema added after `register` (still before the child plugin runs, in both). */
  lateRoot?: SchemaName
  /** The same `$id` added a second time: at the root, or in the child (one of the root's). */
  twice?: 'root' | 'child'
  where: 'root' | 'child'
  part: 'body' | 'body-property' | 'querystring' | 'response' | 'response-property' | 'get-schemas'
  ref: Ref
  /** The value the handler returns (response parts) or the body or query sent. */
  value: number
}

const BODIES: Record<'object' | 'scalar', unknown[]> = {
  object: [{ name: 'ann', age: 3 }, { name: 'toolongname' }, { age: '7' }, { inner: { v: '2' } }, { v: 'x' }, { id: '3', user: { name: 'x' } }, { id: 1, user: {} }, { zip: '12345', city: 'c' }, { zip: 'abc' }, {}, [], 'text'],
  scalar: ['abc', 'toolongname', 7, '7', 'ABC', '12345', 1.5, null, true],
}

const NAMES: SchemaName[] = ['user', 'wrap', 'item', 'zip', 'addr']

export function drawSharedShape(r: Random): SharedShape {
  // Mostly what the refs need, sometimes not (a missing `$id` is refused at boot by both).
  const root = r.some(NAMES.filter((n) => n !== 'item'), 4)
  if (r.chance(0.7) && !root.includes('user')) root.unshift('user')
  const child = r.chance(0.7) ? ['item' as SchemaName] : r.some(['item', 'wrap', 'zip'] as SchemaName[], 2)
  const part = r.pick(['body', 'body', 'body-property', 'querystring', 'response', 'response', 'response-property', 'get-schemas'] as const)
  const scalar = part === 'querystring' || (part.endsWith('-property') && r.chance(0.5))
  const shape: SharedShape = { root, child, where: r.chance(0.5) ? 'child' : 'root', part, ref: r.pick(scalar ? SCALAR_REFS : OBJECT_REFS), value: r.int(0, 11) }
  // (When every root schema is in already, `wrap` again: the same `$id` twice, refused by both.)
  if (r.chance(0.15)) shape.lateRoot = r.pick(NAMES.filter((n) => n !== 'item' && !root.includes(n)).concat(['wrap']))
  if (r.chance(0.1)) shape.twice = r.pick(['root', 'child'] as const)
  return shape
}

function scalarRef(ref: Ref): boolean {
  return SCALAR_REFS.includes(ref)
}

function valueOf(shape: SharedShape): unknown {
  const list = BODIES[scalarRef(shape.ref) && !shape.part.endsWith('-property') ? 'scalar' : 'object']
  const v = list[shape.value % list.length]
  return shape.part.endsWith('-property') ? { x: scalarRef(shape.ref) ? BODIES.scalar[shape.value % BODIES.scalar.length] : v, other: 1 } : v
}

function routeSchema(shape: SharedShape): Record<string, unknown> | undefined {
  const ref = { $ref: shape.ref }
  const property = { type: 'object', properties: { x: ref, other: { type: 'integer' } } }
  switch (shape.part) {
    case 'body': return { body: ref }
    case 'body-property': return { body: property }
    case 'querystring': return { querystring: { type: 'object', properties: { q: ref } } }
    case 'response': return { response: { 200: ref } }
    case 'response-property': return { response: { 200: property } }
    case 'get-schemas': return undefined
  }
}

function handlerOf(shape: SharedShape, instance: () => Any): Handler {
  if (shape.part === 'get-schemas') {
    return () => {
      const schemas = instance().getSchemas() as Record<string, unknown>
      const one = instance().getSchema('r-user') as { $id?: unknown } | undefined
      return { ids: Object.keys(schemas), user: one?.$id ?? null, item: (instance().getSchema('c-item') as { $id?: unknown } | undefined)?.$id ?? null }
    }
  }
  if (shape.part.startsWith('response')) return () => structuredClone(valueOf(shape))
  return (request: Any) => ({ body: request.body ?? null, query: request.query })
}

function add(instance: Any, name: SchemaName): void {
  instance.addSchema(structuredClone(SCHEMAS[name]))
}

export function describeSharedShape(shape: SharedShape): string {
  return [`root [${shape.root.join(',')}]`, `child [${shape.child.join(',')}]`, shape.lateRoot ? `late root ${shape.lateRoot}` : '', shape.twice ? `added twice in ${shape.twice}` : '',
    `route in ${shape.where}`, `${shape.part} $ref ${shape.ref}`, shape.part === 'get-schemas' ? '' : `value ${JSON.stringify(valueOf(shape))}`].filter((x) => x !== '').join(', ')
}

/** The route asked is declared by `setup` in its scope; `route` only names the request. */
export function sharedRoute(shape: SharedShape): RouteSpec {
  const method = shape.part.startsWith('body') ? 'POST' : 'GET'
  const schema = routeSchema(shape)
  const url = '/s'
  return {
    method,
    url: shape.where === 'root' ? '/s-root-placeholder' : '/c-placeholder',
    handler: () => 'placeholder',
    setup: (app: Any) => {
      for (const name of shape.root) add(app, name)
      if (shape.twice === 'root' && shape.root.length > 0) add(app, shape.root[0] as SchemaName)
      app.register(async (child: Any) => {
        for (const name of shape.child) add(child, name)
        if (shape.twice === 'child') add(child, shape.root[0] ?? 'user')
        if (shape.where === 'child') child.route({ method, url, ...(schema ? { schema: structuredClone(schema) } : {}), handler: handlerOf(shape, () => child) })
      }, { prefix: '/c' })
      if (shape.lateRoot !== undefined) add(app, shape.lateRoot)
      if (shape.where === 'root') app.route({ method, url, ...(schema ? { schema: structuredClone(schema) } : {}), handler: handlerOf(shape, () => app) })
    },
  }
}

export function sharedRequest(shape: SharedShape): RequestSpec {
  const url = shape.where === 'root' ? '/s' : '/c/s'
  if (shape.part.startsWith('body')) return { method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(valueOf(shape)) }
  if (shape.part === 'querystring') return { method: 'GET', url: `${url}?q=${encodeURIComponent(String(valueOf(shape)))}` }
  return { method: 'GET', url }
}
