/**
 * The targets, checked against this run's own ratios. They are judged on CPU per
 * request (stable on a shared machine); the req/s ratio is shown alongside. These are reports,
 * not pass/fail tests: a miss prints "MISS" and the exit code stays 0.
 *
 * Issue 16's throughput targets, per endpoint:
 * - at least raw's cost (>= 1.00x raw on CPU) within noise: the tolerance is the larger of the
 *   two contenders' ± (half the range over the rounds), so a busy run widens it visibly;
 * - >= 1.10x fastify 3 only where raw itself leads fastify 3 by more than that. Every contender
 *   makes the same syscalls per request, so raw's lead is the most any node:http framework can
 *   reach; where it is smaller, the raw target is the one that applies;
 * - the decorator layer within 3% of the runtime API, judged over 7 rounds or more, within the
 *   noise of that paired ratio itself (half the interquartile range of its per-round values, so
 *   one odd round does not widen it): the two run back to back in every round (rounds.ts).
 */
import type { BootReport } from '../boot'
import { Row } from './summary'
import { bootTargetLines } from './boot-targets'
import { mark, x } from './target-format'

const ENCLAVE = ['enclave-runtime', 'enclave-decorators']
export const MIN_VS_REFERENCE = 1.10
export const MIN_VS_BASELINE = 1.00
export const MAX_DECORATOR_OVERHEAD = 0.03
export const MIN_ROUNDS_FOR_DECORATORS = 7

/** How far raw itself is ahead of the reference on each endpoint (the `ceiling` lines). */
function ceilingNotes(rows: readonly Row[], reference: string, baseline: string): string[] {
  const notes: string[] = []
  for (const row of rows.filter((r) => r.contender === baseline)) {
    const lead = row.vs[reference]?.cpu ?? null
    if (lead === null) continue
    const note = lead <= MIN_VS_REFERENCE ? `, not over ${MIN_VS_REFERENCE.toFixed(2)}x: the ${reference} target does not apply, the ${baseline} target does` : ''
    notes.push(`info  ${row.endpoint.id.padEnd(9)} ceiling: ${baseline} is ${x(lead)} ${reference} on CPU${note}`)
  }
  return notes
}

/** The noise band of a paired ratio: the larger ± of the two contenders (0 when unknown). */
export function noiseOf(row: Row, other: Row | undefined): number {
  return Math.max(row.cpuSpread ?? 0, other?.cpuSpread ?? 0)
}

function enclaveLine(row: Row, rows: readonly Row[], reference: string, baseline: string): string {
  const ref = row.vs[reference]?.cpu ?? null
  const base = row.vs[baseline]?.cpu ?? null
  const baselineRow = rows.find((r) => r.endpoint.id === row.endpoint.id && r.contender === baseline)
  const lead = baselineRow?.vs[reference]?.cpu ?? null
  const noise = noiseOf(row, baselineRow)
  const floor = MIN_VS_BASELINE - noise
  const refApplies = lead !== null && lead > MIN_VS_REFERENCE
  const baseOk = base === null ? null : base >= floor
  const refOk = !refApplies || ref === null ? null : ref >= MIN_VS_REFERENCE
  const ok = baseOk === null ? null : refOk === null ? baseOk : baseOk && refOk
  const refText = refApplies ? `(>= ${MIN_VS_REFERENCE.toFixed(2)})` : '(no target: raw does not lead it by 1.10x)'
  return `${mark(ok)}  ${row.endpoint.id.padEnd(9)} ${row.contender.padEnd(18)} CPU ${x(ref)} ${reference} ${refText}, ` +
    `${x(base)} ${baseline} (>= ${floor.toFixed(2)}: ${MIN_VS_BASELINE.toFixed(2)} within noise ±${(noise * 100).toFixed(0)}%);  ` +
    `req/s ${x(row.vs[reference]?.rps ?? null)} / ${x(row.vs[baseline]?.rps ?? null)}`
}

function decoratorLines(rows: readonly Row[]): string[] {
  const lines: string[] = []
  // Paired by round like every ratio (summary.ts): the runtime API's µs/req ÷ the decorators'.
  for (const row of rows.filter((r) => r.contender === 'enclave-decorators')) {
    const ratio = row.vs['enclave-runtime']?.cpu ?? null
    if (ratio === null) continue
    const overhead = 1 / ratio - 1
    // The ratio's own paired noise carried to the overhead 1/ratio - 1 (its slope is -1/ratio²); 0 with a single round.
    const noise = (row.vs['enclave-runtime']?.cpuSpread ?? 0) / (ratio * ratio)
    const enough = row.runs >= MIN_ROUNDS_FOR_DECORATORS
    const note = enough ? '' : ` (judged over ${MIN_ROUNDS_FOR_DECORATORS}+ rounds; this run has ${row.runs})`
    lines.push(`${mark(enough ? overhead - noise <= MAX_DECORATOR_OVERHEAD : null)}  ${row.endpoint.id.padEnd(9)} decorators vs runtime: ` +
      `${overhead >= 0 ? '+' : ''}${(overhead * 100).toFixed(1)}% CPU/req (<= +${MAX_DECORATOR_OVERHEAD * 100}% within paired noise ±${(noise * 100).toFixed(0)}%)${note}`)
  }
  return lines
}

function throughputChecks(rows: readonly Row[], reference: string, baseline: string): string[] {
  return [
    ...ceilingNotes(rows, reference, baseline),
    ...rows.filter((r) => ENCLAVE.includes(r.contender)).map((row) => enclaveLine(row, rows, reference, baseline)),
    ...decoratorLines(rows),
  ]
}

export function targetLines(rows: readonly Row[], boot: readonly BootReport[], reference: string, baseline: string): string {
  const lines = [...throughputChecks(rows, reference, baseline), ...bootTargetLines(boot, reference)]
  if (lines.length === 0) return 'targets: no Enclave contender was measured, nothing to check'
  return ['targets (judged on CPU per request; req/s ratios alongside):', ...lines.map((l) => `  ${l}`)].join('\n')
}
