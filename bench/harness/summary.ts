/**
 * Medians per contender and endpoint, and the ratios to the reference (fastify 3.27.4) and the
 * baseline (raw node:http). Every ratio reads "times as fast": req/s ÷ their req/s, and for CPU
 * their µs/req ÷ ours, so above 1.00x always means ahead of them.
 *
 * A ratio is the median of the per-round ratios, not the ratio of the two medians: within a
 * round the two contenders ran a few seconds apart, so whatever load the machine carried then
 * weighs on both, and the drift between rounds cancels out.
 */
import { Endpoint } from './endpoints'
import { RoundSample, Samples } from './rounds'
import { median } from './stats'

export interface Ratios {
  readonly rps: number | null
  readonly cpu: number | null
  /**
   * Half the interquartile range of the per-round CPU ratios: the noise of `cpu` itself, paired
   * round by round. Quartiles rather than the range, so that one odd round cannot widen it.
   */
  readonly cpuSpread?: number | null
}

export interface Row {
  readonly endpoint: Endpoint
  readonly contender: string
  readonly runs: number
  readonly rps: number
  readonly p99Ms: number
  readonly cpuUs: number | null
  /** Half the range of CPU µs/req over the rounds, relative to the median: how far to trust the ratios. */
  readonly cpuSpread: number | null
  /** Runs with a flag (unexpected statuses, socket errors), with the first reason. */
  readonly flagged: { count: number; reason: string | null }
  readonly vs: Record<string, Ratios>
}

function perRoundRatios(mine: readonly RoundSample[], theirs: readonly RoundSample[],
  ratio: (ours: RoundSample, other: RoundSample) => number | null): number[] {
  const byRound = new Map(theirs.map((s) => [s.round, s]))
  const perRound: number[] = []
  for (const ours of mine) {
    const other = byRound.get(ours.round)
    const value = other === undefined ? null : ratio(ours, other)
    if (value !== null && Number.isFinite(value)) perRound.push(value)
  }
  return perRound
}

function halfInterquartileRange(values: readonly number[]): number | null {
  if (values.length < 2) return null
  const sorted = [...values].sort((a, b) => a - b)
  const q1 = median(sorted.slice(0, Math.floor(sorted.length / 2)))
  const q3 = median(sorted.slice(Math.ceil(sorted.length / 2)))
  return q1 === null || q3 === null ? null : (q3 - q1) / 2
}

function ratios(mine: readonly RoundSample[], theirs: readonly RoundSample[] | undefined): Ratios {
  if (theirs === undefined || theirs.length === 0) return { rps: null, cpu: null, cpuSpread: null }
  const cpu = perRoundRatios(mine, theirs, (ours, other) =>
    ours.cpuUsPerRequest !== null && other.cpuUsPerRequest !== null && ours.cpuUsPerRequest > 0 ? other.cpuUsPerRequest / ours.cpuUsPerRequest : null)
  return {
    rps: median(perRoundRatios(mine, theirs, (ours, other) => (other.rps > 0 ? ours.rps / other.rps : null))),
    cpu: median(cpu),
    cpuSpread: halfInterquartileRange(cpu),
  }
}

export function summarize(samples: Samples, endpoints: readonly Endpoint[], contenders: readonly string[],
  compareTo: readonly string[]): Row[] {
  const rows: Row[] = []
  for (const endpoint of endpoints) {
    const base = new Map<string, Omit<Row, 'endpoint' | 'contender' | 'vs'>>()
    for (const contender of contenders) {
      const runs = samples[endpoint.id]?.[contender] ?? []
      if (runs.length === 0) continue
      const cpus = runs.map((s) => s.cpuUsPerRequest).filter((c): c is number => c !== null)
      const flags = runs.map((s) => s.flag).filter((f): f is string => f !== null)
      const cpuUs = median(cpus)
      base.set(contender, {
        rps: median(runs.map((s) => s.rps)) ?? 0,
        p99Ms: median(runs.map((s) => s.p99Ms)) ?? 0,
        cpuUs,
        cpuSpread: cpuUs === null || cpus.length < 2 ? null : (Math.max(...cpus) - Math.min(...cpus)) / 2 / cpuUs,
        runs: runs.length,
        flagged: { count: flags.length, reason: flags[0] ?? null },
      })
    }
    for (const [contender, m] of base) {
      const vs: Record<string, Ratios> = {}
      const mine = samples[endpoint.id][contender]
      for (const other of compareTo) vs[other] = ratios(mine, samples[endpoint.id]?.[other])
      rows.push({ endpoint, contender, ...m, vs })
    }
  }
  return rows
}
