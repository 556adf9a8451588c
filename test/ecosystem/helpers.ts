// One topology for every official-plugin test, built twice: with runtime scopes and with modules.
// The plugin is registered in the `inside` context only, so each test can check encapsulation:
//   /root-probe            root (the parent of the registering context)
//   /inside/probe          the context that registered the plugin
//   /inside/child/probe    a descendant of it
//   /outside/probe         a sibling context
import 'reflect-metadata'
import { Get, Module, Post, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { createServer, type Reply, type Request, type Scope, type ServerOptions } from '../../src/runtime'
import { track } from '../support/servers'
import type { FastifyReply, FastifyRequest } from 'fastify'

// The plugin members these tests call, typed from the plugins' own declarations (docs/plugins.md).
// Picked rather than every plugin's (FastifyRequestDecorations<FastifyRequest>): the declaration is
// global to the program, and other tests decorate `user` and `notFound` themselves.
declare module '../../src/runtime' {
  interface RequestDecorations extends Pick<FastifyRequest, 'jwtVerify' | 'file' | 'is'> {}
  interface ReplyDecorations extends Pick<FastifyReply, 'jwtSign' | 'helmet' | 'compress' | 'sendFile'> {}
}

export type Mode = 'scope' | 'module'
export const modes: readonly Mode[] = ['scope', 'module']

export type ProbeHandler = (request: Request, reply: Reply) => unknown

export interface TopologyOptions {
  /** The plugin under test and its options, registered in the `inside` context. */
  plugin: unknown
  options?: Record<string, unknown>
  /** What every probe route answers (GET and POST); default `{ ok: true }`. */
  probe?: ProbeHandler
  /** Route config of the probe routes (read by plugins through request.routeOptions.config). */
  config?: Record<string, unknown>
  /** Extra declarations in the `inside` context, after the plugin (scope mode) or as a plugin entry (module mode). */
  inside?: (scope: Scope) => void | Promise<void>
  server?: ServerOptions
  /**
   * Extra declarations in every context (root, inside, child, outside), after the plugin: for
   * routes with their own options (a schema, a route hook from the plugin). In a module each
   * is a plugin entry of the module (a context of its own below it, which the encapsulation
   * checks treat as the module's).
   */
  everywhere?: (scope: Scope, where: 'root' | 'inside' | 'child' | 'outside') => void | Promise<void>
}

const defaultProbe: ProbeHandler = async () => ({ ok: true })

/** Builds and boots the topology; the app is closed after the current test. */
export async function topology(mode: Mode, init: TopologyOptions): Promise<Scope> {
  const app = mode === 'scope' ? scopeTopology(init) : await moduleTopology(init)
  track(app)
  await app.ready()
  return app
}

function everywhere(init: TopologyOptions, where: 'root' | 'inside' | 'child' | 'outside'): Function[] {
  if (init.everywhere === undefined) return []
  return [async function everywhere(s: Scope) { await init.everywhere!(s, where) }]
}

function probeRoutes(scope: Scope, init: TopologyOptions): void {
  const handler = init.probe ?? defaultProbe
  const config = init.config ?? {}
  scope.get('/probe', { config }, (request, reply) => handler(request, reply))
  scope.post('/probe', { config }, (request, reply) => handler(request, reply))
}

function scopeTopology(init: TopologyOptions): Scope {
  const app = createServer(init.server)
  const handler = init.probe ?? defaultProbe
  app.get('/root-probe', { config: init.config ?? {} }, (request, reply) => handler(request, reply))
  app.register(async function inside(scope) {
    // Awaited, as the plugins' READMEs write it: onRoute-based plugins (rate-limit, compress,
    // swagger) see only routes declared after they loaded (avvio's incremental loading).
    await scope.register(init.plugin as never, init.options ?? {})
    if (init.inside !== undefined) scope.register(async function extra(s) { await init.inside!(s) })
    for (const extra of everywhere(init, 'inside')) scope.register(extra as never)
    probeRoutes(scope, init)
    scope.register(async function child(c) {
      for (const extra of everywhere(init, 'child')) c.register(extra as never)
      probeRoutes(c, init)
    }, { prefix: '/child' })
  }, { prefix: '/inside' })
  app.register(async function outside(scope) {
    for (const extra of everywhere(init, 'outside')) scope.register(extra as never)
    probeRoutes(scope, init)
  }, { prefix: '/outside' })
  for (const extra of everywhere(init, 'root')) app.register(extra as never)
  return app
}

function probeController(path: string, init: TopologyOptions): Function {
  const handler = init.probe ?? defaultProbe
  const config = init.config ?? {}
  @Route()
  class Probe {
    @Get(path, { config }) get(request: Request, reply: Reply) { return handler(request, reply) }
    @Post(path, { config }) post(request: Request, reply: Reply) { return handler(request, reply) }
  }
  return Probe
}

async function moduleTopology(init: TopologyOptions): Promise<Scope> {
  @Module({ plugins: everywhere(init, 'child') as never, controllers: [probeController('/probe', init) as never], prefix: '/child' }) class ChildModule {}
  const extra = init.inside === undefined ? [] : [async function extra(s: Scope) { await init.inside!(s) }]
  @Module({
    plugins: [[init.plugin as Function, init.options ?? {}], ...extra, ...everywhere(init, 'inside'), ChildModule] as never,
    controllers: [probeController('/probe', init) as never],
    prefix: '/inside',
  }) class InsideModule {}
  @Module({ plugins: everywhere(init, 'outside') as never, controllers: [probeController('/probe', init) as never], prefix: '/outside' }) class OutsideModule {}
  @Module({ controllers: [probeController('/root-probe', init) as never], plugins: [InsideModule, OutsideModule, ...everywhere(init, 'root')] as never }) class RootModule {}
  // createApp boots; topology() calls ready() again, which is a no-op on a booted app.
  return createApp(RootModule, init.server)
}

/** A fixture path in the source tree (tests run from dist/, fixtures are not compiled). */
export function fixture(...parts: string[]): string {
  return require('node:path').join(__dirname, '..', '..', '..', 'test', 'ecosystem', 'fixtures', ...parts)
}

/** The three paths where the plugin must apply, and the two where it must not. */
export const affected = ['/inside/probe', '/inside/child/probe'] as const
export const unaffected = ['/root-probe', '/outside/probe'] as const
