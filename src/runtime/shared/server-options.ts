import { runtimeError } from '../errors/runtime-codes'
import type { ServerOptions } from '../types'

/** The numeric limits and timeouts of one server, defaults applied and checked once in createServer(). */
export interface ServerLimits {
  readonly bodyLimit: number
  readonly maxParamLength: number
  readonly maxQueryKeys: number
  readonly maxJsonDepth: number
  readonly pluginTimeout: number
  readonly closeTimeout: number
  readonly headersTimeout: number
  readonly requestTimeout: number
  readonly keepAliveTimeout: number
  readonly bodyTimeout: number
  readonly handlerTimeout: number
  readonly connectionTimeout: number
  readonly drainTimeout: number
  readonly maxQueuedBytes: number
  readonly maxPipelinedRequests: number
  readonly maxRequestsPerSocket: number
}

type LimitName = keyof ServerLimits

/**
 * Defaults, in bytes, counts or milliseconds. Every timeout is on by default: a server that
 * waits forever for a slow client or a stuck handler is one a few sockets can take down.
 * A timeout of 0 turns it off.
 */
export const defaultLimits: ServerLimits = {
  bodyLimit: 1024 * 1024,
  maxParamLength: 100,
  maxQueryKeys: 1000,
  maxJsonDepth: 1000,
  pluginTimeout: 10_000,
  closeTimeout: 10_000,
  headersTimeout: 30_000,
  requestTimeout: 120_000,
  keepAliveTimeout: 5_000,
  bodyTimeout: 60_000,
  handlerTimeout: 60_000,
  // Fastify 3's socket timeout, off by default as there: the timeouts above already bound a request.
  connectionTimeout: 0,
  // A client that stops reading its answers (server/drain-watch.ts).
  drainTimeout: 60_000,
  // The same client by size (server/drain-watch.ts): far above what a reply streamed with
  // backpressure queues (the socket's and the source's high-water marks, tens of KB), far below
  // what a producer ignoring it queues within drainTimeout.
  maxQueuedBytes: 8 * 1024 * 1024,
  // Requests in flight on one HTTP/1.1 connection behind the answer being written
  // (server/pipelined-cap.ts): as many as an HTTP/2 connection's concurrent streams (node-server.ts).
  maxPipelinedRequests: 100,
  maxRequestsPerSocket: 0,
}

/** Limits where 0 would refuse every request (or every key): they must be at least 1. */
const positive: ReadonlySet<LimitName> = new Set<LimitName>(['bodyLimit', 'maxParamLength', 'maxQueryKeys', 'maxJsonDepth'])

/**
 * Applies the defaults and refuses values that would silently misbehave: a negative or
 * fractional timeout, `NaN` from an unset environment variable, a headers timeout given longer
 * than the whole-request timeout (Node would throw an uncoded RangeError for it).
 */
export function resolveLimits(options: ServerOptions): ServerLimits {
  const out = { ...defaultLimits }
  for (const name of Object.keys(defaultLimits) as LimitName[]) {
    const value = (options as Record<string, unknown>)[name]
    if (value === undefined) continue
    const min = positive.has(name) ? 1 : 0
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
      throw runtimeError('ENC_ERR_SERVER_INVALID_OPTION', { name, given: describe(value), min, fallback: defaultLimits[name] })
    }
    out[name] = value
  }
  // Fastify's forceCloseConnections: busy connections are cut when close() starts.
  if (options.forceCloseConnections === true) out.closeTimeout = 0
  // Node's own rule for an unset headersTimeout: the smaller of its default and requestTimeout, so
  // that a Fastify 3 app giving only `requestTimeout: 1000` boots as it does there.
  if (options.headersTimeout === undefined && out.requestTimeout > 0) out.headersTimeout = Math.min(out.headersTimeout, out.requestTimeout)
  if (out.requestTimeout > 0 && out.headersTimeout > out.requestTimeout) {
    throw runtimeError('ENC_ERR_SERVER_INVALID_OPTION', { headersTimeout: out.headersTimeout, requestTimeout: out.requestTimeout })
  }
  return out
}

/**
 * How often a sweep checks a set of timeouts: a quarter of the shortest one that is on, between
 * 10 ms and 1 s. A timeout then fires at most a quarter of its value (and at most 1 s) late, for
 * one cheap pass over what is pending. `whenOff` when every timeout is 0.
 */
export function sweepInterval(timeoutsMs: readonly number[], whenOff: number): number {
  const enabled = timeoutsMs.filter((ms) => ms > 0)
  if (enabled.length === 0) return whenOff
  return Math.min(1000, Math.max(10, Math.floor(Math.min(...enabled) / 4)))
}

/**
 * How often Node checks for expired headers and request timeouts. Node's default is 30 s, so
 * without this a 200 ms headersTimeout would fire up to 30 s late.
 */
export function connectionsCheckingInterval(limits: ServerLimits): number {
  return sweepInterval([limits.headersTimeout, limits.requestTimeout], 30_000)
}

function describe(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : String(value)
}
