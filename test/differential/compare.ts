// Compares two answers field by field as a client sees them: status, each header, and the body
// (parsed JSON compared as text, so key order counts as it does for a client diffing bodies).
import type { Answer } from './case'

export interface Mismatch {
  field: string
  fastify3: unknown
  enclave: unknown
}

function show(v: unknown): string {
  return v === undefined ? 'undefined' : typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v)
}

export function mismatches(f: Answer, e: Answer): Mismatch[] {
  const out: Mismatch[] = []
  if ((f.bootError === undefined) !== (e.bootError === undefined)) {
    out.push({ field: 'boot', fastify3: f.bootError ?? 'booted', enclave: e.bootError ?? 'booted' })
    return out
  }
  if (f.bootError !== undefined) return out // both refused the declaration: messages are per framework (codes differ by design)
  if (f.statusCode !== e.statusCode) out.push({ field: 'status', fastify3: f.statusCode, enclave: e.statusCode })
  for (const name of new Set([...Object.keys(f.headers), ...Object.keys(e.headers)])) {
    if (f.headers[name] !== e.headers[name]) out.push({ field: `header ${name}`, fastify3: f.headers[name], enclave: e.headers[name] })
  }
  if (show(f.body) !== show(e.body)) out.push({ field: 'body', fastify3: f.body, enclave: e.body })
  // Log lines (the logs family): each line in order, as a pipeline reading both would see them.
  const lines = Math.max(f.log?.length ?? 0, e.log?.length ?? 0)
  if ((f.log === undefined) !== (e.log === undefined)) out.push({ field: 'log', fastify3: f.log ?? 'no lines captured', enclave: e.log ?? 'no lines captured' })
  else for (let i = 0; i < lines; i++) if (f.log?.[i] !== e.log?.[i]) out.push({ field: `log line ${i}`, fastify3: f.log?.[i], enclave: e.log?.[i] })
  return out
}

export function describe(list: Mismatch[]): string {
  return list.map((m) => `${m.field}: fastify3 ${show(m.fastify3)} / enclave ${show(m.enclave)}`).join('; ')
}
