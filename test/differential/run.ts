// Runs cases on both frameworks and sorts each into same / explained by the README / unexplained.
import { answer, type Transport } from './apps'
import type { Answer, Case } from './case'
import { describe, mismatches } from './compare'
import { generateCase } from './generate'
import { KNOWN_DIFFERENCES } from './known-differences'

export interface Outcome {
  c: Case
  transport: Transport
  /** Ids of the README entries needed to explain the difference (empty when the answers match). */
  explainedBy: string[]
  /** Set when the answers differ in a way no entry explains. */
  unexplained?: string
}

const NO_ANSWER_MS = 3000

async function bounded(run: Promise<Answer>): Promise<Answer> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<Answer>((resolve) => {
    timer = setTimeout(() => resolve({ statusCode: -1, headers: {}, body: `no answer within ${NO_ANSWER_MS} ms` }), NO_ANSWER_MS)
  })
  try {
    return await Promise.race([run, late])
  } finally {
    clearTimeout(timer)
  }
}

/** Applies every entry that has something to say, in table order, until the answers agree. */
async function explain(f: Answer, e: Answer, c: Case, transport: Transport): Promise<string[] | undefined> {
  let current = f
  const used: string[] = []
  const replay = (request: Case['request'], route = c.route, app?: Partial<Case>): Promise<Answer> => bounded(answer('fastify3', { ...c, request, route, ...app }, transport))
  // A rewrite may reveal another (a replayed request meets a second rule), so the table is
  // passed over again, a bounded number of times.
  for (let pass = 0; pass < 3; pass++) {
    let changed = false
    for (const entry of KNOWN_DIFFERENCES) {
      if (mismatches(current, e).length === 0) return used
      const next = await entry.rewrite(current, { c, enclave: e, transport, replay })
      if (next !== undefined) {
        current = next
        if (!used.includes(entry.id)) used.push(entry.id)
        changed = true
      }
    }
    if (!changed) break
  }
  return mismatches(current, e).length === 0 ? used : undefined
}

export async function runCase(c: Case, transport: Transport): Promise<Outcome> {
  const f = await bounded(answer('fastify3', c, transport))
  const e = await bounded(answer('enclave', c, transport))
  const direct = mismatches(f, e)
  if (direct.length === 0) return { c, transport, explainedBy: [] }
  const used = await explain(f, e, c, transport)
  if (used !== undefined) return { c, transport, explainedBy: used }
  return { c, transport, explainedBy: [], unexplained: describe(direct) }
}

// Node's HTTP client refuses header values outside visible ASCII (inject takes them).
function sendable(c: Case): boolean {
  return Object.values(c.request.headers ?? {}).every((value) => /^[\x20-\x7e\t]*$/.test(value))
}

/** `count` cases of `seed`; every `httpEvery`th also goes over a real socket. */
export async function runSeed(seed: number, count: number, httpEvery = 0): Promise<Outcome[]> {
  const out: Outcome[] = []
  for (let index = 0; index < count; index++) {
    const c = generateCase(seed, index)
    out.push(await runCase(c, 'inject'))
    if (httpEvery > 0 && index % httpEvery === 0 && sendable(c)) out.push(await runCase(c, 'http'))
  }
  return out
}
