// The `head-routes` family: HEAD answered from a GET route with `exposeHeadRoutes: true` given
// to both servers (Fastify 3.27.4's option, off by default there; Enclave's default). The GET's
// handler answers JSON, text, a Buffer, a stream, nothing, a 204, a redirect, an error; hooks
// add headers, fail, and change the payload in onSend (longer, null, a stream); a response schema
// sometimes writes the body; the route sometimes sits in a prefixed plugin whose hooks run, says
// `exposeHeadRoute: false` itself, or has an explicit HEAD route declared before or after it.
// What a HEAD client sees (status, every header: content-length and content-type included) is
// compared with Fastify 3's, as is the GET beside it.
import { Readable } from 'node:stream'
import type { Handler, RequestSpec, RouteSpec } from './case'
import type { Random } from './random'

type Any = any // eslint-disable-line @typescript-eslint/no-explicit-any

const HANDLERS = ['json', 'text', 'buffer', 'stream', 'empty', 'no-content', 'redirect', 'throw-400', 'throw-500', 'header', 'html', 'not-found'] as const
const HOOKS = ['none', 'onRequest-header', 'preHandler-throws', 'onSend-longer', 'onSend-null', 'onSend-stream', 'onSend-header', 'preSerialization-wraps'] as const
const EXPLICIT = ['none', 'none', 'none', 'before', 'after'] as const

export interface HeadShape {
  handler: typeof HANDLERS[number]
  hook: typeof HOOKS[number]
  /** The hook declared on the route, or in the prefixed plugin the route is in. */
  hookIn: 'route' | 'plugin'
  inPlugin: boolean
  schema: boolean
  /** The route's own `exposeHeadRoute: false`. */
  routeOff: boolean
  explicit: typeof EXPLICIT[number]
  method: 'HEAD' | 'GET'
}

export function drawHeadShape(r: Random): HeadShape {
  const inPlugin = r.chance(0.4)
  return {
    handler: r.pick(HANDLERS), hook: r.pick(HOOKS), hookIn: inPlugin && r.chance(0.5) ? 'plugin' : 'route', inPlugin, schema: r.chance(0.3),
    routeOff: r.chance(0.1), explicit: r.pick(EXPLICIT), method: r.chance(0.8) ? 'HEAD' : 'GET',
  }
}

export function describeHeadShape(s: HeadShape): string {
  return [`GET handler ${s.handler}`, s.hook === 'none' ? '' : `hook ${s.hook} on the ${s.hookIn}`, s.inPlugin ? 'in plugin /p' : '', s.schema ? 'response schema' : '',
    s.routeOff ? 'exposeHeadRoute: false' : '', s.explicit === 'none' ? '' : `explicit HEAD route ${s.explicit} the GET`].filter((x) => x !== '').join(', ')
}

function statusError(status: number, message: string): Error {
  return Object.assign(new Error(message), { statusCode: status })
}

function handlerOf(name: HeadShape['handler']): Handler {
  switch (name) {
    case 'json': return async () => ({ hello: 'wörld', n: 1 })
    case 'text': return async () => 'plain text'
    case 'buffer': return async (_q, reply: Any) => { reply.type('application/octet-stream'); return Buffer.from('bytes!') }
    case 'stream': return (_q, reply: Any) => { reply.type('text/plain').send(Readable.from(['ab', 'cd'])) }
    case 'empty': return (_q, reply: Any) => { reply.send() }
    case 'no-content': return (_q, reply: Any) => { reply.code(204).send() }
    case 'redirect': return (_q, reply: Any) => { reply.redirect('/elsewhere') }
    case 'throw-400': return async () => { throw statusError(400, 'bad head') }
    case 'throw-500': return async () => { throw new Error('boom') }
    case 'header': return async (request: Any, reply: Any) => { reply.header('x-method', request.method).header('content-length', 3); return 'abc' }
    case 'html': return (_q, reply: Any) => { reply.type('text/html').send('<p>hi</p>') }
    case 'not-found': return (_q, reply: Any) => { reply.callNotFound() }
  }
}

function hooksOf(name: HeadShape['hook']): Record<string, unknown> {
  switch (name) {
    case 'none': return {}
    case 'onRequest-header': return { onRequest: async (request: Any, reply: Any) => { reply.header('x-seen', request.method) } }
    case 'preHandler-throws': return { preHandler: async () => { throw statusError(403, 'no head') } }
    case 'onSend-longer': return { onSend: async (_q: unknown, _r: unknown, payload: unknown) => (typeof payload === 'string' ? `${payload}!!` : payload) }
    case 'onSend-null': return { onSend: async () => null }
    case 'onSend-stream': return { onSend: async () => Readable.from(['x', 'yz']) }
    case 'onSend-header': return { onSend: async (request: Any, reply: Any, payload: unknown) => { reply.header('x-send', `${request.method} ${typeof payload}`); return payload } }
    case 'preSerialization-wraps': return { preSerialization: async (_q: unknown, _r: unknown, payload: unknown) => ({ wrapped: payload }) }
  }
}

const RESPONSE = { 200: { type: 'object', properties: { hello: { type: 'string' }, wrapped: { type: 'object', additionalProperties: true } } } }

export function headRoute(s: HeadShape): RouteSpec {
  const hooks = hooksOf(s.hook)
  const explicit = { method: 'HEAD', url: '/h', handler: (_q: unknown, reply: Any) => { reply.header('x-explicit', 'yes').send() } }
  const declare = (scope: Any, routeHooks: Record<string, unknown>): void => {
    if (s.explicit === 'before') scope.route(explicit)
    scope.route({
      method: 'GET', url: '/h', handler: handlerOf(s.handler), ...routeHooks,
      ...(s.schema ? { schema: { response: structuredClone(RESPONSE) } } : {}), ...(s.routeOff ? { exposeHeadRoute: false } : {}),
    })
    if (s.explicit === 'after') scope.route(explicit)
  }
  return {
    method: 'GET',
    url: '/h-placeholder',
    handler: () => 'placeholder',
    setup: (app: Any) => {
      if (!s.inPlugin) { declare(app, hooks); return }
      app.register(async (child: Any) => {
        if (s.hookIn === 'plugin') for (const [name, hook] of Object.entries(hooks)) child.addHook(name, hook)
        declare(child, s.hookIn === 'route' ? hooks : {})
      }, { prefix: '/p' })
    },
  }
}

export function headRequest(s: HeadShape): RequestSpec {
  return { method: s.method, url: s.inPlugin ? '/p/h' : '/h' }
}
