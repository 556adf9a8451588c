import type { Contract } from '../contract/define-contract'
import { contractError } from '../contract/contract-codes'
import type { Client } from './client-types'
import { queryString, substitutePath } from './request-url'
import { hasNoContent, readBody } from './read-answer'
import { fetchTransport, injectTransport, type InjectTarget, type Transport } from './transports'
import { consumesRaw, encodeBody } from './request-body'
import { refusedCall } from './request-validation'
import { unknownOptions } from '../runtime/schemas/unknown-options'

/** Headers sent with every call: fixed, or computed per call (a token that refreshes). */
export type ClientHeaders = Readonly<Record<string, string | undefined>> | (() => Readonly<Record<string, string | undefined>> | Promise<Readonly<Record<string, string | undefined>>>)

export interface ClientOptions {
  /** Where the contract is mounted: `https://api.example.com/v1`. With `app`, an optional path prefix (`/v1`). */
  readonly baseUrl?: string
  /** The fetch to use (a polyfill, a wrapper that logs); default the platform's `fetch`. */
  readonly fetch?: typeof fetch
  /** An app to call through `inject()`: no socket, for tests. */
  readonly app?: InjectTarget
  readonly headers?: ClientHeaders
  /**
   * Check each call against its route's Standard Schema parts (zod, valibot, ArkType) before sending;
   * a call they refuse is answered with the server's 400 (`FST_ERR_VALIDATION`) and no request is
   * made. Off by default: the server validates every request anyway and is the authority (it also
   * checks JSON Schema parts, which the client does not: no JSON Schema validator in a front end's bundle).
   */
  readonly validateRequests?: boolean
}

/**
 * A client typed from a contract: `await client.getNote({ params: { id: '1' } })` answers
 * `{ status, body, headers }`, narrowed by status. The server validates; the client sends what
 * it is given (typed) and, unless `validateRequests`, does not validate. A network failure is thrown (ENC_ERR_CLIENT_NETWORK),
 * an abort rejects with the signal's reason, and every HTTP answer, 4xx and 5xx too, is returned.
 */
export function createClient<const C extends Contract>(contract: C, options: ClientOptions): Client<C> {
  const transport = transportOf(options)
  const base = (options.baseUrl ?? '').replace(/\/+$/, '')
  const client: Record<string, unknown> = {}
  for (const [name, route] of Object.entries(contract)) {
    const raw = consumesRaw(route.schema)
    client[name] = async (request: Record<string, unknown> = {}) => {
      const params = request.params as Record<string, unknown> | undefined
      const url = base + substitutePath(name, route.url, params) + queryString(request.query as Record<string, unknown> | undefined)
      const headers: Record<string, string> = {}
      const shared = typeof options.headers === 'function' ? await options.headers() : options.headers
      for (const source of [shared, request.headers as Record<string, unknown> | undefined]) {
        if (source === undefined || source === null) continue
        for (const [header, value] of Object.entries(source)) if (value !== undefined) headers[header.toLowerCase()] = String(value)
      }
      if (options.validateRequests === true) {
        const refused = await refusedCall(route.schema, request)
        if (refused !== undefined) return refused
      }
      const encoded = await encodeBody(request.body, raw)
      if (encoded?.contentType != null && headers['content-type'] === undefined) headers['content-type'] = encoded.contentType
      const answer = await transport({ route: name, method: route.method, url, headers, body: encoded?.bytes, signal: request.signal as AbortSignal | undefined })
      return { status: answer.status, body: route.method === 'HEAD' || hasNoContent(answer.status) ? undefined : readBody(name, answer.headers, answer.text), headers: answer.headers }
    }
  }
  return client as Client<C>
}

const clientOptionKeys: ReadonlyArray<keyof ClientOptions> = ['baseUrl', 'fetch', 'app', 'headers', 'validateRequests']

function transportOf(options: ClientOptions): Transport {
  if (options === null || typeof options !== 'object') throw contractError('ENC_ERR_CLIENT_OPTIONS', { problem: 'options { baseUrl } or { app } are required' })
  const unknown = unknownOptions(options, clientOptionKeys)
  if (unknown !== null) throw contractError('ENC_ERR_CLIENT_OPTIONS', { problem: `${unknown}; it takes ${clientOptionKeys.join(', ')}` })
  if (options.app !== undefined) {
    if (typeof options.app?.inject !== 'function') throw contractError('ENC_ERR_CLIENT_OPTIONS', { problem: 'app has no inject() method: pass an Enclave app (createServer(), createApp())' })
    if (options.fetch !== undefined) throw contractError('ENC_ERR_CLIENT_OPTIONS', { problem: 'give app (inject, no socket) or fetch, not both' })
    return injectTransport(options.app)
  }
  if (typeof options.baseUrl !== 'string' || !/^[a-z][a-z0-9+.-]*:\/\//i.test(options.baseUrl)) {
    throw contractError('ENC_ERR_CLIENT_OPTIONS', { problem: `baseUrl must be an absolute URL (http://localhost:3000), got ${JSON.stringify(options.baseUrl)}; or pass app for inject()` })
  }
  const fetchFn = options.fetch ?? (typeof fetch === 'function' ? fetch : undefined)
  if (fetchFn === undefined) throw contractError('ENC_ERR_CLIENT_OPTIONS', { problem: 'this platform has no global fetch: pass options.fetch' })
  return fetchTransport(fetchFn)
}
