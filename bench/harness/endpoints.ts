/**
 * The four measured requests (three endpoints, plus the 400 path of POST /items) and what a
 * correct answer is. The pre-flight uses `check`; the load generators use method, path, body.
 */
import { isDeepStrictEqual } from 'node:util'
import { twoPayload, validItem, invalidItem, searchQuery, searchHits } from '../servers/schemas'

export interface Endpoint {
  readonly id: string
  readonly method: 'GET' | 'POST'
  /** Path and query string. */
  readonly path: string
  readonly body: string | null
  readonly status: number
  /** null when the parsed answer is right, else what is wrong with it. */
  readonly check: (body: unknown) => string | null
}

function equalTo(expected: unknown): (body: unknown) => string | null {
  return (body) => (isDeepStrictEqual(body, expected) ? null : `expected ${JSON.stringify(expected).slice(0, 120)}`)
}

/** The 400 shape every contender shares; the message wording differs (ajv 6 vs 8), so only its presence is checked. */
function badRequest(body: unknown): string | null {
  const b = body as Record<string, unknown> | null
  const ok = b !== null && typeof b === 'object' && b.statusCode === 400 && b.error === 'Bad Request' &&
    typeof b.message === 'string' && b.message.includes('price')
  return ok ? null : "expected { statusCode: 400, error: 'Bad Request', message: '...price...' }"
}

export const ENDPOINTS: readonly Endpoint[] = [
  { id: 'two', method: 'GET', path: '/two', body: null, status: 200, check: equalTo(twoPayload) },
  { id: 'items', method: 'POST', path: '/items', body: JSON.stringify(validItem), status: 201, check: equalTo(validItem) },
  { id: 'items-400', method: 'POST', path: '/items', body: JSON.stringify(invalidItem), status: 400, check: badRequest },
  {
    id: 'search',
    method: 'GET',
    path: `/search?${new URLSearchParams(searchQuery).toString()}`,
    body: null,
    status: 200,
    check: equalTo(searchHits(searchQuery.q, Number(searchQuery.limit))),
  },
]

export const ENDPOINT_IDS: readonly string[] = ENDPOINTS.map((e) => e.id)

export function endpointLabel(e: Endpoint): string {
  return `${e.method} ${e.path.split('?')[0]}${e.status === 400 ? ' (400)' : ''}`
}
