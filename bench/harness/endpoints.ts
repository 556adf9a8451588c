/**
 * The measured requests and what a correct answer is. The pre-flight uses `check`; the load
 * generators use method, path, headers and body.
 *
 * The first four are the small requests where node:http's own work dominates; the last five are
 * where the framework's work is most of the cost (issue 16): a large response, a large body, many
 * headers, a large routing table, and the 400 path with every error collected.
 *
 * The `svc-` endpoints are served by the service app (bench/servers/service/shape.ts): a logger at
 * info and auth hooks on every request, as real services run; the answer a 404, a thrown 409, a
 * record through an async handler, and a route with a hook of each kind.
 */
import { isDeepStrictEqual } from 'node:util'
import { twoPayload, validItem, invalidItem, searchQuery, searchHits } from '../servers/schemas'
import { listPayload } from '../servers/list-schema'
import { bulkBody, bulkSummary } from '../servers/bulk-schema'
import { requestHeaders, expectedHeadersAnswer } from '../servers/headers-schema'
import { lastRoutePath, expectedRouterAnswer } from '../servers/router-routes'
import { STRICT_PATH, invalidItemMany, allErrorsFields } from '../servers/all-errors'
import { API_KEY_HEADER, API_KEY, userRecord, caller, hookedAnswer } from '../servers/service/shape'
import type { BenchApp } from './contenders'

export interface Endpoint {
  readonly id: string
  /** The app whose process serves it (contenders.ts). */
  readonly app: BenchApp
  readonly method: 'GET' | 'POST'
  /** Path and query string. */
  readonly path: string
  /** Request headers besides Host (and Content-Type/Length, which go with `body`). */
  readonly headers: Readonly<Record<string, string>>
  readonly body: string | null
  readonly status: number
  /** null when the parsed answer is right, else what is wrong with it. */
  readonly check: (body: unknown) => string | null
}

function equalTo(expected: unknown): (body: unknown) => string | null {
  return (body) => (isDeepStrictEqual(body, expected) ? null : `expected ${JSON.stringify(expected).slice(0, 120)}`)
}

/**
 * The 400 shape every contender shares. The message wording differs (ajv 6 vs 8), so only the
 * fields it must name are checked: with allErrors, every field that has a mistake.
 */
export function badRequestNaming(fields: readonly string[]): (body: unknown) => string | null {
  return (body) => {
    const b = body as Record<string, unknown> | null
    const ok = b !== null && typeof b === 'object' && b.statusCode === 400 && b.error === 'Bad Request' &&
      typeof b.message === 'string' && fields.every((f) => (b.message as string).includes(f))
    return ok ? null : `expected { statusCode: 400, error: 'Bad Request', message: naming ${fields.join(', ')} }`
  }
}

const none: Readonly<Record<string, string>> = Object.freeze({})
const keyed: Readonly<Record<string, string>> = Object.freeze({ [API_KEY_HEADER]: API_KEY })

/** The default handlers' body for a status: the message must be the one given. */
function errorBody(statusCode: number, error: string, message: string): (body: unknown) => string | null {
  return equalTo({ statusCode, error, message })
}

const minimal = (e: Omit<Endpoint, 'app'>): Endpoint => ({ ...e, app: 'minimal' })
const service = (e: Omit<Endpoint, 'app'>): Endpoint => ({ ...e, app: 'service' })

export const ENDPOINTS: readonly Endpoint[] = [
  minimal({ id: 'two', method: 'GET', path: '/two', headers: none, body: null, status: 200, check: equalTo(twoPayload) }),
  minimal({ id: 'items', method: 'POST', path: '/items', headers: none, body: JSON.stringify(validItem), status: 201, check: equalTo(validItem) }),
  minimal({ id: 'items-400', method: 'POST', path: '/items', headers: none, body: JSON.stringify(invalidItem), status: 400, check: badRequestNaming(['price']) }),
  minimal({
    id: 'search',
    method: 'GET',
    path: `/search?${new URLSearchParams(searchQuery).toString()}`,
    headers: none,
    body: null,
    status: 200,
    check: equalTo(searchHits(searchQuery.q, Number(searchQuery.limit))),
  }),
  minimal({ id: 'list', method: 'GET', path: '/list', headers: none, body: null, status: 200, check: equalTo(listPayload) }),
  minimal({ id: 'bulk', method: 'POST', path: '/bulk', headers: none, body: JSON.stringify(bulkBody), status: 200, check: equalTo(bulkSummary(bulkBody)) }),
  minimal({ id: 'headers', method: 'GET', path: '/headers', headers: requestHeaders, body: null, status: 200, check: equalTo(expectedHeadersAnswer) }),
  minimal({ id: 'router', method: 'GET', path: lastRoutePath, headers: none, body: null, status: 200, check: equalTo(expectedRouterAnswer) }),
  minimal({ id: 'all-400', method: 'POST', path: STRICT_PATH, headers: none, body: JSON.stringify(invalidItemMany), status: 400, check: badRequestNaming(allErrorsFields) }),
  service({ id: 'svc-logged', method: 'GET', path: '/svc/users/42', headers: keyed, body: null, status: 200, check: equalTo(userRecord(42, caller)) }),
  service({ id: 'svc-404', method: 'GET', path: '/svc/missing', headers: keyed, body: null, status: 404, check: errorBody(404, 'Not Found', 'Route GET:/svc/missing not found') }),
  service({ id: 'svc-error', method: 'GET', path: '/svc/conflict', headers: keyed, body: null, status: 409, check: errorBody(409, 'Conflict', 'user 42 already exists') }),
  service({ id: 'svc-hooks', method: 'GET', path: '/svc/hooked', headers: keyed, body: null, status: 200, check: equalTo(hookedAnswer) }),
]

export const ENDPOINT_IDS: readonly string[] = ENDPOINTS.map((e) => e.id)

export function endpointLabel(e: Endpoint): string {
  const path = e.id === 'router' ? '/api/…/files/:fileId (1,000 routes)' : e.path.split('?')[0]
  return `${e.method} ${path}${e.status === 400 ? ' (400)' : ''}`
}
