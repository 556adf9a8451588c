import { isThenable } from '../shared/thenable'

/**
 * Where a payload holds a promise (`return { user: fetchUser() }`, a forgotten await): JSON.stringify
 * and fast-json-stringify both write a promise as `{}`, so the client got `{"user":{}}` and a 200.
 * Only looked for when the serialized text has a `{}` in it (one indexOf per JSON reply, the only
 * cost on the request path), so the walk runs on the rare replies with an empty object. Bounded in
 * depth and in nodes: a huge payload with a legitimate `{}` costs at most that many property reads.
 * Returns the path (`user`, `items[2].owner`), or null.
 */
export function pendingInPayload(payload: unknown, text: string): string | null {
  if (text.indexOf('{}') === -1 || payload === null || typeof payload !== 'object') return null
  const budget = { nodes: 10_000 }
  return find(payload, '', 0, budget)
}

function find(value: unknown, path: string, depth: number, budget: { nodes: number }): string | null {
  if (isThenable(value)) return path === '' ? '(the payload itself)' : path
  if (value === null || typeof value !== 'object' || depth > 32 || --budget.nodes < 0) return null
  // toJSON() decides what is written (a Date, a class's own view): its properties are not.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return null
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = find(value[i], `${path}[${i}]`, depth + 1, budget)
      if (found !== null) return found
    }
    return null
  }
  for (const key of Object.keys(value)) {
    const found = find((value as Record<string, unknown>)[key], path === '' ? key : `${path}.${key}`, depth + 1, budget)
    if (found !== null) return found
  }
  return null
}
