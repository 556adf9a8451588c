import { runtimeError } from '../errors/runtime-codes'
import { didYouMean } from '../schemas/did-you-mean'
import type { DoneFn, PluginOptions, Reply, Request, Scope } from '../types'
import type { ProvidingPlugin, RequiringPlugin, ServerWith, TypeMark } from '../shared/provided'
import { type } from '../shared/provided'
import { lift, type DependenciesProvided, type LiftDependency, type TypesDependencies } from './lift'
import { isThenable } from '../shared/thenable'
import { describe } from './lift-meta'

/** The request stages a derived value may be computed in: Elysia's derive is preValidation (the default), its resolve preHandler. */
export type DeriveStage = 'onRequest' | 'preParsing' | 'preValidation' | 'preHandler'

/** One deriver: the value of one request decoration, from the request (and reply), sync or async. */
// `R`, `Y`, `S`: what the typed plugins in `dependencies` provide, which the deriver reads; `S`
// (their `provides.scope`) on `request.server` / `reply.server`, as in a lifted plugin's hooks, since
// a deriver has no scope argument to read a `db` decoration from.
export type Deriver<R = {}, Y = {}, S = {}> = (request: Request & R & ServerWith<S>, reply: Reply & Y & ServerWith<S>) => unknown

/** derive()'s options. */
export interface DeriveOptions<D extends readonly LiftDependency[] = readonly LiftDependency[]> {
  /** The plugin's name (hasPlugin(), @Requires, other plugins' dependencies); default `derive(<names>)`. */
  readonly name?: string
  /** The hook the values are computed in, for the registering scope's routes. Default 'preValidation'. */
  readonly stage?: DeriveStage
  /** Plugins (typed: lifted with provides) or names that must be registered before; the derivers' request sees the typed ones' decorations. */
  readonly dependencies?: D
}

/** The request decorations `derive(derivers)` provides: each key typed by what its function returns (awaited). */
export type Derived<F> = { [K in keyof F]: F[K] extends (...args: never[]) => infer T ? Awaited<T> : never }

/** What derive() returns: a lifted plugin typed as `lift(plugin, { provides: { request } })` would be, by what the derivers return. */
export type DerivePlugin<F, D> = ((scope: Scope, options: PluginOptions, done: DoneFn) => unknown)
  & ProvidingPlugin<{ readonly request: Derived<F>; readonly reply: {}; readonly scope: {} }>
  & (TypesDependencies<D> extends true ? RequiringPlugin<DependenciesProvided<D>> : unknown)

const stages: readonly DeriveStage[] = ['onRequest', 'preParsing', 'preValidation', 'preHandler']
const optionNames = ['name', 'stage', 'dependencies']

/**
 * Elysia's `.derive()` / `.resolve()`: request decorations computed per request by a hook, typed by
 * what each function returns, without writing `provides`. The same as a lifted plugin that
 * decorates each name with `null`, sets it in a `stage` hook and declares it in `provides.request`
 * (which stays the way for a value set elsewhere, or typed otherwise than inferred):
 *
 * @example
 * const bearer = derive({ bearer: (request) => request.headers.authorization?.replace(/^Bearer /, '') ?? null })
 * app.register(bearer).get('/me', (request) => ({ token: request.bearer }))   // string | null
 *
 * Lifted: the hook runs for the registering scope's routes (and its descendants'), and the values
 * are typed on the scope register() returns, as any typed plugin's. The keys are read when derive()
 * is called, the functions on each request, in the order given; an async one is awaited.
 */
export function derive<const F extends Record<string, Deriver<DependenciesProvided<D>['request'], DependenciesProvided<D>['reply'], DependenciesProvided<D>['scope']>>, const D extends readonly LiftDependency[] = []>(derivers: F, options?: DeriveOptions<D>): DerivePlugin<F, D> {
  const names = derivers !== null && typeof derivers === 'object' && !Array.isArray(derivers) ? Object.keys(derivers) : []
  const plugin = names.length === 0 ? 'anonymous' : names.join(', ')
  const fail = (problem: string): never => { throw runtimeError('ENC_ERR_PLUGIN_DERIVE', { plugin, problem }) }
  if (derivers === null || typeof derivers !== 'object' || Array.isArray(derivers)) fail(`the first argument must be an object of functions by decoration name, got ${describe(derivers)}`)
  if (names.length === 0) fail('the first argument names no decoration: give at least one, { name: (request) => value }')
  for (const name of names) {
    if (typeof derivers[name] !== 'function') fail(`'${name}' must be a function (request, reply) => value, got ${describe(derivers[name])}`)
  }
  if (options !== undefined && (options === null || typeof options !== 'object' || Array.isArray(options))) fail(`options must be an object, got ${describe(options)}`)
  for (const key of Object.keys(options ?? {})) if (!optionNames.includes(key)) fail(`'${key}' is not an option${didYouMean(key, optionNames)}`)
  const stage = options?.stage ?? 'preValidation'
  if (!stages.includes(stage)) fail(`stage must be one of ${stages.map((s) => `'${s}'`).join(', ')}, got ${describe(stage)}${typeof stage === 'string' ? didYouMean(stage, stages) : ''}`)
  const entries = names.map((name) => [name, derivers[name] as unknown as (request: unknown, reply: unknown) => unknown] as const)
  const body = async (scope: Scope): Promise<void> => {
    for (const name of names) scope.decorateRequest(name as never, null as never)
    // Synchronous derivers settle the hook at once (a plain return: no promise, no microtask);
    // from the first promise on, the rest are awaited in order.
    scope.addHook(stage, (request: Request, reply: Reply): Promise<void> | undefined => {
      const target = request as unknown as Record<string, unknown>
      for (let i = 0; i < entries.length; i++) {
        const [name, fn] = entries[i]
        const value = fn(request, reply)
        if (isThenable(value)) return settleFrom(i, value, target, request, reply)
        target[name] = value
      }
      return undefined
    })
  }
  const settleFrom = async (first: number, pending: PromiseLike<unknown>, target: Record<string, unknown>, request: Request, reply: Reply): Promise<void> => {
    target[entries[first][0]] = await pending
    for (let i = first + 1; i < entries.length; i++) {
      const [name, fn] = entries[i]
      target[name] = await fn(request, reply)
    }
  }
  Object.defineProperty(body, 'name', { value: `derive(${plugin})` })
  const request: Record<string, TypeMark<unknown>> = {}
  for (const name of names) request[name] = type<unknown>()
  // lift()'s untyped form: the type is DerivePlugin's, read from the derivers.
  const untypedLift = lift as (target: Function, meta: object) => Function
  return untypedLift(body, {
    name: options?.name ?? `derive(${plugin})`,
    provides: { request },
    ...(options?.dependencies !== undefined ? { dependencies: options.dependencies } : {}),
  }) as unknown as DerivePlugin<F, D>
}

