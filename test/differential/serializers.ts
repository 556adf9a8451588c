// The `serializers` family: who writes a reply's body when an app changes it, at the root or in
// the route's plugin: setSerializerCompiler() (schemas compiled by the app's own function), a
// route's `serializerCompiler`, setReplySerializer() (every reply without a schema), and
// reply.serializer() per reply, beside response schemas by status, error replies, string and
// Buffer payloads, and onSend hooks that rewrite the serialized payload.
import type { RequestSpec, RouteSpec } from './case'
import type { Random } from './random'

type Any = any // eslint-disable-line @typescript-eslint/no-explicit-any

type Where = 'none' | 'root' | 'plugin'
// Not null: a null under an object schema is the serialization family's (its own rules).
const ENDINGS = ['object', 'code 201 object', 'reply.serializer object', 'throw 400', 'throw 500', 'string', 'buffer', 'array'] as const
const SCHEMAS = ['none', '200', '2xx', '201 and 4xx', 'default'] as const
const ON_SENDS = ['none', 'upper-case strings', 'wrap as JSON text', 'read payload type'] as const

export interface SerializersShape {
  compiler: Where
  replySerializer: Where
  routeCompiler: boolean
  schema: typeof SCHEMAS[number]
  ending: typeof ENDINGS[number]
  onSend: typeof ON_SENDS[number]
  onSendWhere: 'root' | 'plugin'
  /** Replays only: the `default` schema given instead under these status keys (Fastify 3 has no `default`). */
  defaultAs?: number[]
}

export function drawSerializersShape(r: Random): SerializersShape {
  return {
    compiler: r.pick(['none', 'root', 'plugin'] as const),
    replySerializer: r.pick(['none', 'none', 'root', 'plugin'] as const),
    routeCompiler: r.chance(0.2),
    schema: r.pick(SCHEMAS),
    ending: r.pick(ENDINGS),
    onSend: r.pick(['none', 'none', 'upper-case strings', 'wrap as JSON text', 'read payload type'] as const),
    onSendWhere: r.pick(['root', 'plugin'] as const),
  }
}

export function describeSerializersShape(s: SerializersShape): string {
  return `compiler ${s.compiler}${s.routeCompiler ? ' + route serializerCompiler' : ''}, replySerializer ${s.replySerializer}, schema ${s.schema}, ${s.ending}, onSend ${s.onSend}${s.onSend === 'none' ? '' : ` at ${s.onSendWhere}`}`
}

const OBJECT = { id: 7, name: 'n', extra: 'dropped by a schema' }
const OBJECT_SCHEMA = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } }
const ERROR_SCHEMA = { type: 'object', properties: { statusCode: { type: 'integer' }, message: { type: 'string' } } }

function responseSchema(s: SerializersShape): Record<string, unknown> | undefined {
  switch (s.schema) {
    case 'none': return undefined
    case '200': return { 200: OBJECT_SCHEMA }
    case '2xx': return { '2xx': OBJECT_SCHEMA }
    case '201 and 4xx': return { 201: OBJECT_SCHEMA, '4xx': ERROR_SCHEMA }
    case 'default': return s.defaultAs === undefined ? { default: OBJECT_SCHEMA } : Object.fromEntries(s.defaultAs.map((status) => [status, OBJECT_SCHEMA]))
  }
}

// Each names itself in the body, so that who serialized is what the client reads.
const compilerOf = (tag: string) => ({ httpStatus }: { httpStatus?: string }) => (data: unknown) => `${tag}[${String(httpStatus)}]:${JSON.stringify(data)}`

function handle(s: SerializersShape): (request: Any, reply: Any) => unknown {
  return async (_request, reply) => {
    switch (s.ending) {
      case 'object': return OBJECT
      case 'code 201 object': reply.code(201); return OBJECT
      case 'reply.serializer object': reply.serializer((payload: unknown) => `own:${JSON.stringify(payload)}`); return OBJECT
      case 'throw 400': throw Object.assign(new Error('bad input'), { statusCode: 400 })
      case 'throw 500': throw new Error('broke')
      case 'string': return 'plain'
      case 'buffer': return Buffer.from('bytes')
      case 'array': return [1, 'a']
    }
  }
}

function onSendHook(s: SerializersShape): (request: Any, reply: Any, payload: unknown) => Promise<unknown> {
  return async (_request, reply, payload) => {
    switch (s.onSend) {
      case 'upper-case strings': return typeof payload === 'string' ? payload.toUpperCase() : payload
      case 'wrap as JSON text': reply.type('application/json'); return JSON.stringify({ wrapped: typeof payload === 'string' ? payload : String(payload) })
      case 'read payload type': reply.header('x-payload-type', Buffer.isBuffer(payload) ? 'buffer' : payload === null ? 'null' : typeof payload); return payload
      default: return payload
    }
  }
}

export function serializersRoute(s: SerializersShape): RouteSpec {
  const setup = (app: Any): void => {
    if (s.compiler === 'root') app.setSerializerCompiler(compilerOf('root-compiler'))
    if (s.replySerializer === 'root') app.setReplySerializer((payload: unknown, statusCode: number) => `root-reply[${statusCode}]:${JSON.stringify(payload)}`)
    if (s.onSend !== 'none' && s.onSendWhere === 'root') app.addHook('onSend', onSendHook(s))
    app.register(async (child: Any) => {
      if (s.compiler === 'plugin') child.setSerializerCompiler(compilerOf('plugin-compiler'))
      if (s.replySerializer === 'plugin') child.setReplySerializer((payload: unknown, statusCode: number) => `plugin-reply[${statusCode}]:${JSON.stringify(payload)}`)
      if (s.onSend !== 'none' && s.onSendWhere === 'plugin') child.addHook('onSend', onSendHook(s))
      const response = responseSchema(s)
      child.route({
        method: 'GET', url: '/s',
        ...(response !== undefined ? { schema: { response } } : {}),
        ...(s.routeCompiler ? { serializerCompiler: compilerOf('route-compiler') } : {}),
        handler: handle(s),
      })
    }, { prefix: '/p' })
  }
  return { method: 'GET', url: '/serializers-unused', handler: () => ({}), setup }
}

export function serializersRequest(): RequestSpec {
  return { method: 'GET', url: '/p/s' }
}
