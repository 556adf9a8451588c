// The main table: one line per endpoint and contender, medians, and speed ratios to fastify 3
// (the reference), fastify 5 (CPU only, to keep the table narrow) and raw (the baseline).
import { endpointLabel } from './endpoints'
import { Row } from './summary'
import { renderTable, fixed, ratio, thousands } from './text-table'

export function loadTable(rows: readonly Row[], reference: string, second: string, baseline: string): string {
  const headers = ['endpoint', 'contender', 'req/s', 'p99 ms', 'CPU µs/req', '±',
    `req/s ×${reference}`, `CPU ×${reference}`, `CPU ×${second}`, `req/s ×${baseline}`, `CPU ×${baseline}`]
  const body = rows.map((r) => [
    endpointLabel(r.endpoint),
    r.contender + (r.flagged.count > 0 ? ' !' : ''),
    thousands(r.rps),
    fixed(r.p99Ms, 2),
    fixed(r.cpuUs, 1),
    r.cpuSpread === null ? '-' : `${(r.cpuSpread * 100).toFixed(0)}%`,
    ratio(r.vs[reference]?.rps ?? null),
    ratio(r.vs[reference]?.cpu ?? null),
    ratio(r.vs[second]?.cpu ?? null),
    ratio(r.vs[baseline]?.rps ?? null),
    ratio(r.vs[baseline]?.cpu ?? null),
  ])
  const notes = rows.filter((r) => r.flagged.count > 0)
    .map((r) => `! ${r.contender} ${r.endpoint.id}: ${r.flagged.count} of ${r.runs} runs flagged (${r.flagged.reason})`)
  return [renderTable(headers, body, 2),
    `Medians of ${Math.max(0, ...rows.map((r) => r.runs))} round(s); ±: half the range of CPU µs/req over the rounds. ×: times as fast as that contender (req/s ÷ theirs; CPU: their µs/req ÷ this one's).`,
    ...notes].join('\n')
}
