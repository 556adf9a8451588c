import { performance } from 'node:perf_hooks'
import { cpuNowMs } from './cpu-clock'
import type { SerializeFunction } from './types'

/**
 * What a lazy route's first request hands compileRouteSchemas so that each response serializer
 * is built when its status is first sent, not with the route (issue 16 §1): a route documenting
 * 200, 400, 404 and 500 answers its first request with one fast-json-stringify build, not four.
 */
export interface DeferredResponses {
  /** Each deferred build's cost (wall and CPU milliseconds), for app.bootProfile(). */
  compiled(ms: number, cpuMs: number): void
  /** A deferred build that failed while a reply was being sent (logged there: the client gets no details). */
  failed(error: unknown): void
  /** Filled by compileRouteSchemas: one per deferred status; each builds it now, throwing its coded error. */
  readonly forcers: Array<() => void>
}

/**
 * Thrown by a deferred serializer whose schema does not compile, around the coded boot error
 * (`cause`), so that the send path answers the 500 a lazy route's failed compile answers rather
 * than a serialization failure of the payload.
 */
export class DeferredBuildError extends Error {
  override readonly cause: unknown
  /** The coded error's code, for whoever meets this outside the send path (reply.serialize()). */
  readonly code: string | undefined

  constructor(cause: unknown) {
    super((cause as Error | undefined)?.message ?? String(cause))
    this.cause = cause
    const code = (cause as { code?: unknown } | undefined)?.code
    this.code = typeof code === 'string' ? code : undefined
    this.name = 'DeferredBuildError'
  }
}

/**
 * A serializer that builds the real one on its first call, once. A failed build is kept and
 * rethrown, as LazyRouteSchemas does: the same schema would fail the same way again. `force`
 * builds it without serializing (ready({ compileAll: true })) and throws the coded error itself.
 */
export function deferredSerializer(build: () => SerializeFunction | undefined, hooks: DeferredResponses): SerializeFunction {
  let built: SerializeFunction | null = null
  let failure: { error: unknown } | null = null
  const ensure = (): SerializeFunction => {
    if (built !== null) return built
    if (failure !== null) throw failure.error
    const start = performance.now()
    const startCpu = cpuNowMs()
    try {
      // Deferred with the default compiler only, which never declines a status (undefined): JSON
      // is only a safe answer should it ever do so.
      built = build() ?? ((data: unknown) => JSON.stringify(data))
      return built
    } catch (error) {
      failure = { error }
      throw error
    } finally {
      hooks.compiled(performance.now() - start, cpuNowMs() - startCpu)
    }
  }
  hooks.forcers.push(() => { ensure() })
  return (data) => {
    if (built !== null) return built(data)
    const firstTry = failure === null
    let serialize: SerializeFunction
    try {
      serialize = ensure()
    } catch (error) {
      if (firstTry) hooks.failed(error)
      throw new DeferredBuildError(error)
    }
    return serialize(data)
  }
}
