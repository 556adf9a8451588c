import { isThenable } from '../shared/thenable'

const MAX_NODES = 10_000
const MAX_DEPTH = 32

/**
 * Where a payload holds a promise (`return { user: fetchUser() }`, a forgotten await): JSON.stringify
 * and fast-json-stringify both write a promise as `{}`, so the client got `{"user":{}}` and a 200.
 * Only looked for when the serialized text has a `{}` in it (one indexOf per JSON reply, the only
 * cost on the request path), so the walk runs on the rare replies with an empty object. Bounded: at
 * most MAX_NODES values are looked at, MAX_DEPTH deep, typed arrays and buffers not entered.
 * A promise counts only where the text shows it written: a response schema drops properties it does
 * not declare, so a promise under an undeclared key (`{ id, refresh: promise }` with a schema of
 * `id`) was never going to reach the client, and its key must appear as `"refresh":{}`.
 * Returns the path (`user`, `items[2].owner`), or null.
 */
export function pendingInPayload(payload: unknown, text: string): string | null {
  if (text.indexOf('{}') === -1 || payload === null || typeof payload !== 'object') return null
  return find(payload, '', null, 0, { nodes: MAX_NODES, text })
}

interface Walk { nodes: number; readonly text: string }

function find(value: unknown, path: string, key: string | null, depth: number, walk: Walk): string | null {
  // Every value looked at counts, primitives too: a 5M-element array of numbers stops at the budget.
  if (walk.nodes-- <= 0 || value === null || typeof value !== 'object') return null
  // toJSON() decides what is written (a Date, a class's own view, even a thenable's): its properties are not.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return null
  if (isThenable(value)) {
    if (key !== null && walk.text.indexOf(`${JSON.stringify(key)}:{}`) === -1) return null
    return path === '' ? '(the payload itself)' : path
  }
  if (depth >= MAX_DEPTH || ArrayBuffer.isView(value)) return null
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length && walk.nodes > 0; i++) {
      const found = find(value[i], `${path}[${i}]`, null, depth + 1, walk)
      if (found !== null) return found
    }
    return null
  }
  for (const name in value) {
    if (walk.nodes <= 0) return null
    if (!Object.prototype.hasOwnProperty.call(value, name)) continue
    const found = find((value as Record<string, unknown>)[name], path === '' ? name : `${path}.${name}`, name, depth + 1, walk)
    if (found !== null) return found
  }
  return null
}
