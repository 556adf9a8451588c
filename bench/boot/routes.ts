/**
 * The 1,000-route app of the boot benchmark, as data: every route has a body schema and a
 * response schema. Like a real API, the schemas come in ten shapes (user, product, order, ...)
 * and differ in small ways from route to route (a limit here, an extra field there), so no
 * compiler can serve them all from a cache of ten.
 */

type Schema = Record<string, unknown>

export interface BootRoute {
  readonly url: string
  readonly body: Schema
  readonly response: Schema
}

const str = (max: number): Schema => ({ type: 'string', maxLength: max })
const int = (min: number): Schema => ({ type: 'integer', minimum: min })
const num = (min: number): Schema => ({ type: 'number', minimum: min })
const list = (items: Schema, max: number): Schema => ({ type: 'array', items, maxItems: max })
const address = (v: number): Schema => ({
  type: 'object',
  properties: { street: str(80 + v), city: str(40), zip: { type: 'string', pattern: '^[0-9]{5}$' } },
  required: ['city'],
})

// Ten resource shapes; `v` varies limits per route so each route's schema is its own.
const SHAPES: readonly { name: string; props: (v: number) => Record<string, Schema>; required: string[] }[] = [
  { name: 'users', props: (v) => ({ name: str(50 + v), email: { type: 'string', format: 'email' }, age: int(0), address: address(v) }), required: ['name', 'email'] },
  { name: 'products', props: (v) => ({ title: str(100 + v), price: num(0), stock: int(0), tags: list(str(20), 5 + (v % 5)) }), required: ['title', 'price'] },
  { name: 'orders', props: (v) => ({ userId: int(1), items: list({ type: 'object', properties: { sku: str(30), qty: int(1) }, required: ['sku', 'qty'] }, 50 + v), note: str(200) }), required: ['userId', 'items'] },
  { name: 'addresses', props: (v) => ({ label: str(20 + v), address: address(v), primary: { type: 'boolean' } }), required: ['address'] },
  { name: 'comments', props: (v) => ({ postId: int(1), text: str(1000 + v), rating: { type: 'integer', minimum: 1, maximum: 5 } }), required: ['postId', 'text'] },
  { name: 'invoices', props: (v) => ({ orderId: int(1), total: num(0), currency: { type: 'string', enum: ['EUR', 'USD', 'GBP'] }, due: str(30 + v) }), required: ['orderId', 'total'] },
  { name: 'tickets', props: (v) => ({ subject: str(120 + v), body: str(5000), priority: { type: 'string', enum: ['low', 'normal', 'high'] }, labels: list(str(15), 10) }), required: ['subject'] },
  { name: 'events', props: (v) => ({ kind: str(40), at: str(40), payload: { type: 'object', properties: { source: str(60 + v), count: int(0) } } }), required: ['kind', 'at'] },
  { name: 'reviews', props: (v) => ({ productId: int(1), stars: { type: 'integer', minimum: 1, maximum: 5 }, title: str(80 + v), body: str(4000) }), required: ['productId', 'stars'] },
  { name: 'payments', props: (v) => ({ invoiceId: int(1), amount: num(0.01), method: { type: 'string', enum: ['card', 'transfer'] }, reference: str(64 + v) }), required: ['invoiceId', 'amount'] },
]

/**
 * How the routes' schemas relate. `distinct`: every route carries its own inline schemas, all
 * different (the worst case for any cache). `shared`: ten resources, each with a body and a
 * response schema added once with addSchema, and every route refers to its resource's pair with
 * `$ref` (how a REST API of ten resources is usually written).
 */
export type BootShape = 'distinct' | 'shared'
export const BOOT_SHAPES: readonly BootShape[] = ['distinct', 'shared']

export interface BootApp {
  readonly routes: BootRoute[]
  /** Schemas to add with addSchema before the routes (empty for `distinct`). */
  readonly shared: Schema[]
}

export function bootApp(count: number, shape: BootShape): BootApp {
  if (shape === 'distinct') return { routes: bootRoutes(count), shared: [] }
  const shared = SHAPES.flatMap((resource) => [
    { $id: `${resource.name}New`, type: 'object', properties: resource.props(0), required: resource.required },
    { $id: resource.name, type: 'object', properties: { id: int(1), ...resource.props(0) }, required: ['id'] },
  ])
  const routes = Array.from({ length: count }, (_, i) => {
    const resource = SHAPES[i % SHAPES.length]
    return { url: `/${resource.name}/v${Math.floor(i / SHAPES.length)}/r${i}`, body: { $ref: `${resource.name}New#` }, response: { $ref: `${resource.name}#` } }
  })
  return { routes, shared }
}

export function bootRoutes(count: number): BootRoute[] {
  const routes: BootRoute[] = []
  for (let i = 0; i < count; i++) {
    const shape = SHAPES[i % SHAPES.length]
    const v = Math.floor(i / SHAPES.length)
    const props = shape.props(v)
    // Every seventh route carries one more optional field, as endpoints of one resource do.
    if (i % 7 === 0) props[`extra${v}`] = str(10 + v)
    routes.push({
      url: `/${shape.name}/v${v}/r${i}`,
      body: { type: 'object', properties: props, required: shape.required },
      response: { type: 'object', properties: { id: int(1), ...shape.props(v) }, required: ['id'] },
    })
  }
  return routes
}

/** What every boot route's handler answers: enough for its response schema. */
export const bootReply = { id: 1 }

/**
 * The smallest body a route's schema accepts: the required properties only, each at its lower
 * bound (a `$ref` is looked up in the shared schemas). Enough for the boot routes' keywords.
 */
export function exampleBody(schema: Schema, shared: readonly Schema[]): unknown {
  if (typeof schema.$ref === 'string') {
    const id = schema.$ref.replace(/#$/, '')
    const target = shared.find((s) => s.$id === id)
    if (target === undefined) throw new Error(`exampleBody: no shared schema '${id}'`)
    return exampleBody(target, shared)
  }
  if (Array.isArray(schema.enum)) return schema.enum[0]
  switch (schema.type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>
      const out: Record<string, unknown> = {}
      for (const key of (schema.required ?? []) as string[]) out[key] = exampleBody(properties[key], shared)
      return out
    }
    case 'array': return []
    case 'integer': return (schema.minimum as number | undefined) ?? 1
    case 'number': return (schema.minimum as number | undefined) ?? 1
    case 'boolean': return true
    case 'string':
      if (schema.format === 'email') return 'a@example.com'
      if (schema.pattern === '^[0-9]{5}$') return '12345'
      return 'a'
    default: throw new Error(`exampleBody: no example for ${JSON.stringify(schema).slice(0, 80)}`)
  }
}
