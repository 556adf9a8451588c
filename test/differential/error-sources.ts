// The `error-sources` family: what a custom error handler (at the root, or in the route's plugin)
// is handed for the errors the framework raises, beside the errors family's user-raised ones: a
// body that is not JSON, an empty JSON body, an unsupported media type, a body over the route's
// bodyLimit, a poisoned `__proto__` body, validation of each request part (with attachValidation
// off), a response its schema cannot serialize, and a user error carrying a framework-like code.
// The handler answers what it saw: status, code (its `FST_ERR_`/`ENC_ERR_` prefix read as one:
// README "Errors carry Enclave's codes"), name, validation and its context, the reply's status on
// entry. Shapes are data, so a failure prints what was declared.
import type { Handler, RequestSpec, RouteSpec } from './case'
import type { Random } from './random'

type Any = any // eslint-disable-line @typescript-eslint/no-explicit-any

export type ErrorSource =
  | 'invalid-json' | 'empty-json' | 'media-type' | 'too-large' | 'proto' | 'body-validation' | 'query-validation'
  | 'params-validation' | 'headers-validation' | 'serialization' | 'user-code' | 'user-status-in-handler'

export interface SourcesShape {
  source: ErrorSource
  /** Where the error handler is: the root, or the route's own plugin (prefix `/p`). */
  handlerAt: 'root' | 'plugin'
  /** What the handler does with what it saw: return it, send it with its own status, or throw it on. */
  answer: 'return' | 'send-418' | 'rethrow'
}

const SOURCES: ErrorSource[] = ['invalid-json', 'empty-json', 'media-type', 'too-large', 'proto', 'body-validation', 'query-validation', 'params-validation', 'headers-validation', 'serialization', 'user-code', 'user-status-in-handler']

export function drawSourcesShape(r: Random): SourcesShape {
  return { source: r.pick(SOURCES), handlerAt: r.chance(0.5) ? 'root' : 'plugin', answer: r.pick(['return', 'return', 'send-418', 'rethrow'] as const) }
}

function seen(error: Any, reply: Any): Record<string, unknown> {
  const code = typeof error?.code === 'string' ? error.code.replace(/^(FST|ENC)_ERR_/, 'ERR_') : error?.code ?? null
  return {
    statusCode: error?.statusCode ?? null,
    code,
    isError: error instanceof Error,
    validation: Array.isArray(error?.validation) ? error.validation.map((v: Any) => v.keyword) : null,
    context: error?.validationContext ?? null,
    replyStatus: reply.statusCode,
  }
}

function errorHandlerOf(shape: SourcesShape): Function {
  switch (shape.answer) {
    case 'return': return async (error: Any, _q: Any, reply: Any) => ({ seen: seen(error, reply) })
    case 'send-418': return (error: Any, _q: Any, reply: Any) => { reply.code(418).send({ seen: seen(error, reply) }) }
    case 'rethrow': return async (error: Any, _q: Any, reply: Any) => { reply.header('x-seen', JSON.stringify(seen(error, reply))); throw error }
  }
}

const USER_CODE: Handler = async () => { throw Object.assign(new Error('user'), { statusCode: 409, code: 'FST_ERR_LOOKS_LIKE_FASTIFY' }) }
const USER_STATUS: Handler = async (_q, reply: Any) => { reply.code(402); throw new Error('after a status') }

function routeOf(shape: SourcesShape): { method: string; url: string; schema?: Record<string, unknown>; handler: Handler; bodyLimit?: number } {
  const echo: Handler = (request: Any) => ({ body: request.body ?? null })
  switch (shape.source) {
    case 'query-validation': return { method: 'GET', url: '/e', schema: { querystring: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } }, handler: echo }
    case 'params-validation': return { method: 'GET', url: '/e/:id', schema: { params: { type: 'object', properties: { id: { type: 'integer' } } } }, handler: echo }
    case 'headers-validation': return { method: 'GET', url: '/e', schema: { headers: { type: 'object', properties: { 'x-n': { type: 'integer' } }, required: ['x-n'] } }, handler: echo }
    case 'serialization': return { method: 'GET', url: '/e', schema: { response: { 200: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } } }, handler: async () => ({ b: 1 }) }
    case 'user-code': return { method: 'GET', url: '/e', handler: USER_CODE }
    case 'user-status-in-handler': return { method: 'GET', url: '/e', handler: USER_STATUS }
    case 'too-large': return { method: 'POST', url: '/e', handler: echo, bodyLimit: 10 }
    case 'body-validation': return { method: 'POST', url: '/e', schema: { body: { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] } }, handler: echo }
    default: return { method: 'POST', url: '/e', handler: echo }
  }
}

export function describeSourcesShape(shape: SourcesShape): string {
  return `${shape.source}, error handler at ${shape.handlerAt} (${shape.answer})`
}

/** The route and its error handler are declared by `setup`; `route` only names the request. */
export function sourcesRoute(shape: SourcesShape): RouteSpec {
  const { bodyLimit, ...route } = routeOf(shape)
  return {
    method: route.method,
    url: '/placeholder',
    handler: () => 'placeholder',
    setup: (app: Any) => {
      if (shape.handlerAt === 'root') app.setErrorHandler(errorHandlerOf(shape))
      app.register(async (child: Any) => {
        if (shape.handlerAt === 'plugin') child.setErrorHandler(errorHandlerOf(shape))
        child.route({ ...route, ...(bodyLimit === undefined ? {} : { bodyLimit }), ...(route.schema ? { schema: structuredClone(route.schema) } : {}) })
      }, { prefix: '/p' })
    },
  }
}

export function sourcesRequest(shape: SourcesShape): RequestSpec {
  const json = (payload: string, type = 'application/json'): RequestSpec => ({ method: 'POST', url: '/p/e', headers: { 'content-type': type }, payload })
  switch (shape.source) {
    case 'invalid-json': return json('{"a":')
    case 'empty-json': return json('')
    case 'media-type': return json('<a/>', 'text/xml')
    case 'too-large': return json('{"a":"more than ten bytes"}')
    case 'proto': return json('{"__proto__":{"x":1}}')
    case 'body-validation': return json('{"a":"x"}')
    case 'query-validation': return { method: 'GET', url: '/p/e?n=x' }
    case 'params-validation': return { method: 'GET', url: '/p/e/x' }
    case 'headers-validation': return { method: 'GET', url: '/p/e', headers: { 'x-n': 'x' } }
    default: return { method: 'GET', url: '/p/e' }
  }
}
