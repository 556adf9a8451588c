// The `app` family: a drawn app shape (app-shapes.ts) and one request into it: a route of some
// scope, a hook of its chain made to fail or answer, an unknown URL under some prefix, a bad body
// for the scope's parsers, a trailing-slash variant or a wrong method.
import { describeShape } from './app-build'
import { drawApp, FAILING_STAGES, PARSER_TYPES, servedRoutes, type AppShape, type ServedRoute } from './app-shapes'
import type { RequestSpec } from './case'
import type { Random } from './random'

function join(prefix: string, url: string): string {
  const joined = prefix.endsWith('/') && url.startsWith('/') ? prefix + url.slice(1) : prefix + url
  return (joined === '' ? '/' : joined).replace(/:id/, 'i7')
}

function withBody(r: Random, served: ServedRoute, method: string, url: string, headers: Record<string, string>): RequestSpec {
  if (method !== 'POST' && method !== 'PUT') return { method, url, headers }
  const parsers = served.parsers
  if (parsers.length > 0 && r.chance(0.4)) {
    const kind = r.pick(parsers)
    const type = kind === 'regexp' ? r.pick(['application/vnd.enc+txt', 'application/vnd.enc']) : PARSER_TYPES[kind]
    return { method, url, headers: { ...headers, 'content-type': type }, payload: r.pick(['a,b', 'bad', 'boom', '']) }
  }
  const type = r.chance(0.9) ? 'application/json' : r.pick(['text/csv', 'application/octet-stream', 'application/xml', 'text/plain'])
  return { method, url, headers: { ...headers, 'content-type': type }, payload: r.pick(['{"v":1}', '{"v":1}', '{"v":"x"}', '{}', '{bad', 'bad']) }
}

export function drawAppRequest(r: Random, shape: AppShape): { request: RequestSpec; note: string } {
  const { routes, prefixes } = servedRoutes(shape)
  const served = r.pick(routes)
  const url = join(served.prefix, served.route.url)
  switch (r.int(0, 9)) {
    case 0: case 1: {
      const prefix = r.pick(prefixes)
      const target = r.pick([join(prefix, '/nope'), join(prefix, '/'), prefix === '' ? '/' : prefix.replace(/\/$/, ''), join(prefix, '/a/nope')])
      const method = r.pick(['GET', 'POST', 'DELETE'])
      return { request: withBody(r, served, method, target, {}), note: `unknown under '${prefix}'` }
    }
    case 2: case 3: {
      const hooks = served.hookTags.filter((h) => FAILING_STAGES.includes(h.stage)).map((h) => h.tag)
      if (served.route.routeHook !== undefined) hooks.push(`${served.route.tag}.h`)
      const tag = hooks.length > 0 && r.chance(0.85) ? r.pick(hooks) : served.route.tag
      const header: Record<string, string> = r.chance(0.7) ? { 'x-fail': `${tag}${r.chance(0.4) ? '!500' : ''}` } : { 'x-reply': tag }
      return { request: withBody(r, served, served.route.method, url, header), note: `${Object.keys(header)[0]} ${tag} on ${served.route.tag}` }
    }
    case 4: {
      const variant = url.endsWith('/') && url !== '/' ? url.slice(0, -1) : `${url}/`
      return { request: withBody(r, served, served.route.method, variant, {}), note: `trailing-slash variant of ${served.route.tag}` }
    }
    case 5: {
      const method = r.pick(['GET', 'POST', 'PUT', 'DELETE', 'PATCH'].filter((m) => m !== served.route.method))
      return { request: withBody(r, served, method, url, {}), note: `wrong method on ${served.route.tag}` }
    }
    default:
      return { request: withBody(r, served, served.route.method, url, {}), note: `route ${served.route.tag}` }
  }
}

export function appCase(r: Random): { shape: AppShape; request: RequestSpec; summary: string } {
  const shape = drawApp(r)
  const { request, note } = drawAppRequest(r, shape)
  return { shape, request, summary: `${describeShape(shape)} (${note})` }
}
