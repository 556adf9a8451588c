/**
 * The targets, checked against this run's own ratios. They are judged on CPU per
 * request (stable on a shared machine); the req/s ratio is shown alongside. These are reports,
 * not pass/fail tests: a miss prints "MISS" and the exit code stays 0.
 */
import type { BootReport } from '../boot'
import { Row } from './summary'

const ENCLAVE = ['enclave-runtime', 'enclave-decorators']
const MIN_VS_REFERENCE = 1.10
const MIN_VS_BASELINE = 0.90
const MAX_DECORATOR_OVERHEAD = 0.03
const MAX_BOOT_TIME = 0.5
const MAX_BOOT_RSS = 1.0

function mark(ok: boolean | null): string {
  return ok === null ? 'n/a ' : ok ? 'met ' : 'MISS'
}

// Three decimals: a 1.097x printed as 1.10x next to "MISS (>= 1.10)" would read as a bug.
function x(value: number | null): string {
  return value === null ? '-' : `${value.toFixed(3)}x`
}

/**
 * How far ahead of the reference the baseline itself is on each endpoint. Every contender makes
 * the same syscalls per request (one read, one writev), so the baseline's lead is the most any
 * framework on node:http can reach: when it is under 1.10x, "1.10x the reference" would mean
 * beating a hand-written server. Printed so that a miss can be told from a ceiling.
 */
function ceilingNotes(rows: readonly Row[], reference: string, baseline: string): string[] {
  const notes: string[] = []
  for (const row of rows.filter((r) => r.contender === baseline)) {
    const lead = row.vs[reference]?.cpu ?? null
    if (lead === null) continue
    const note = lead < MIN_VS_REFERENCE ? `, under ${MIN_VS_REFERENCE.toFixed(2)}x: the first target is out of reach of any node:http framework in this run` : ''
    notes.push(`info  ${row.endpoint.id.padEnd(9)} ceiling: ${baseline} is ${x(lead)} ${reference} on CPU${note}`)
  }
  return notes
}

function throughputChecks(rows: readonly Row[], reference: string, baseline: string): string[] {
  const lines: string[] = ceilingNotes(rows, reference, baseline)
  for (const row of rows.filter((r) => ENCLAVE.includes(r.contender))) {
    const ref = row.vs[reference]
    const base = row.vs[baseline]
    const ok = ref?.cpu == null || base?.cpu == null ? null : ref.cpu >= MIN_VS_REFERENCE && base.cpu >= MIN_VS_BASELINE
    lines.push(`${mark(ok)}  ${row.endpoint.id.padEnd(9)} ${row.contender.padEnd(18)} CPU ${x(ref?.cpu ?? null)} ${reference} (>= ${MIN_VS_REFERENCE.toFixed(2)}), ` +
      `${x(base?.cpu ?? null)} ${baseline} (>= ${MIN_VS_BASELINE.toFixed(2)});  req/s ${x(ref?.rps ?? null)} / ${x(base?.rps ?? null)}`)
  }
  // Paired by round like every ratio (summary.ts): the runtime API's µs/req ÷ the decorators'.
  for (const row of rows.filter((r) => r.contender === 'enclave-decorators')) {
    const ratio = row.vs['enclave-runtime']?.cpu ?? null
    if (ratio === null) continue
    const overhead = 1 / ratio - 1
    lines.push(`${mark(overhead <= MAX_DECORATOR_OVERHEAD)}  ${row.endpoint.id.padEnd(9)} decorators vs runtime: ${overhead >= 0 ? '+' : ''}${(overhead * 100).toFixed(1)}% CPU/req (<= +${MAX_DECORATOR_OVERHEAD * 100}%)`)
  }
  return lines
}

/**
 * The boot floor: `raw` compiles each distinct schema once with ajv 6 and fast-json-stringify and
 * does nothing else. When that alone is above the target, no framework that compiles at boot
 * (and so reports a bad schema at boot) can meet it on this shape.
 */
function bootFloor(boot: BootReport, reference: string): string[] {
  const ref = boot.results[reference]?.median
  const floor = boot.results.raw?.median
  if (ref === undefined || floor === undefined) return []
  const cpu = floor.readyCpuMs / ref.readyCpuMs
  const note = cpu > MAX_BOOT_TIME ? `, over ${MAX_BOOT_TIME.toFixed(2)}: the boot target is out of reach of eager compilation on this shape` : ''
  return [`info  boot ${boot.shape.padEnd(8)} floor: compiling the schemas alone (raw) is ${x(cpu)} ${reference} on CPU${note}`]
}

function bootChecks(boot: BootReport, reference: string): string[] {
  const ref = boot.results[reference]?.median
  return ENCLAVE.filter((name) => boot.results[name] !== undefined).map((name) => {
    const m = boot.results[name].median
    if (ref === undefined) return `n/a   boot      ${name}: ${reference} not measured`
    const cpu = m.readyCpuMs / ref.readyCpuMs
    const rss = m.rssBytes / ref.rssBytes
    const info = name === 'enclave-runtime' ? '' : ' (information)'
    return `${mark(cpu <= MAX_BOOT_TIME && rss <= MAX_BOOT_RSS)}  boot ${boot.shape.padEnd(8)} ${name.padEnd(18)} CPU ${x(cpu)} ${reference} (<= ${MAX_BOOT_TIME.toFixed(2)}), ` +
      `RSS ${x(rss)} (<= ${MAX_BOOT_RSS.toFixed(2)});  wall clock ${x(m.readyMs / ref.readyMs)}${info}`
  })
}

export function targetLines(rows: readonly Row[], boot: readonly BootReport[], reference: string, baseline: string): string {
  const lines = [...throughputChecks(rows, reference, baseline), ...boot.flatMap((report) => [...bootFloor(report, reference), ...bootChecks(report, reference)])]
  if (lines.length === 0) return 'targets: no Enclave contender was measured, nothing to check'
  return ['targets (judged on CPU per request; req/s ratios alongside):', ...lines.map((l) => `  ${l}`)].join('\n')
}
