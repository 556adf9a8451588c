/**
 * The "service" app: the same routes on every contender, with what a real service runs and the
 * minimal apps leave out: a pino logger at info (to /dev/null, so the cost is the framework's
 * and pino's, not the terminal's), an auth hook on every request (onRequest: the API key) and a
 * preHandler that fills a decorated request field, an async handler that awaits, a response
 * header, a response schema; the 404 and a thrown 409 through the default handlers; and a route
 * with a hook of each kind plus onSend.
 */

export const API_KEY_HEADER = 'x-api-key'
export const API_KEY = 'bench-key-0123456789'
export const LOG_FILE = '/dev/null'

export const USER_PATH = '/svc/users/:id'
export const CONFLICT_PATH = '/svc/conflict'
export const HOOKED_PATH = '/svc/hooked'
export const MISSING_PATH = '/svc/missing'

/** What the preHandler puts on the decorated request field. */
export interface Caller { readonly id: string; readonly role: string }

export const paramsSchema = {
  type: 'object',
  properties: { id: { type: 'integer' } },
  required: ['id'],
} as const

export interface UserRecord {
  id: number; name: string; email: string; role: string; active: boolean; score: number
  createdAt: string; tags: string[]; team: string; viewedBy: string
}

/** Ten fields, the size of a typical record in a JSON API. */
export function userRecord(id: number, caller: Caller): UserRecord {
  return {
    id,
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    role: 'engineer',
    active: true,
    score: 97.5,
    createdAt: '2026-01-02T03:04:05.000Z',
    tags: ['admin', 'beta'],
    team: 'analytical-engines',
    viewedBy: caller.id,
  }
}

export const userResponseSchema = {
  200: {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      name: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      active: { type: 'boolean' },
      score: { type: 'number' },
      createdAt: { type: 'string' },
      tags: { type: 'array', items: { type: 'string' } },
      team: { type: 'string' },
      viewedBy: { type: 'string' },
    },
  },
} as const

/** An async look-up, as a handler awaiting its store would: one resolved promise. */
export async function findUser(id: number, caller: Caller): Promise<UserRecord> {
  await Promise.resolve()
  return userRecord(id, caller)
}

/** The auth check of the onRequest hook: null when the key is right, else the 401 to throw. */
export function keyProblem(headers: Record<string, unknown>): (Error & { statusCode: number }) | null {
  if (headers[API_KEY_HEADER] === API_KEY) return null
  return Object.assign(new Error('missing or wrong API key'), { statusCode: 401 })
}

export const caller: Caller = Object.freeze({ id: 'u-7', role: 'admin' })

/** httpErrors-style: an Error with a statusCode, thrown by the handler, answered by the default error handler. */
export function conflict(): Error & { statusCode: number } {
  return Object.assign(new Error('user 42 already exists'), { statusCode: 409 })
}

/** The hooked route's answer: its preSerialization hook adds `stage`. */
export const hookedPayload = { ok: true, hooks: 5 } as const
export const hookedAnswer = { ok: true, hooks: 5, stage: 'serialized' } as const
