/**
 * The load schedule: a warm-up run per contender and endpoint (JIT, caches, connection pools),
 * then `rounds` rounds in which, endpoint by endpoint, every contender runs once, starting with
 * a different contender each round. Drift on the machine (thermal, neighbours) then spreads
 * over all contenders instead of landing on whoever runs last. The two Enclave contenders run
 * back to back (stats.ts, pairedOrder): the decorator layer is judged against the runtime API.
 */
import { Endpoint } from './endpoints'
import { measure, RunSettings, Sample } from './measure'
import { ServerHandle } from './server-process'
import { Lineup, answersKey } from './start-contenders'
import { pairedOrder } from './stats'

/** A sample and the round it was taken in: ratios pair contenders run in the same round. */
export interface RoundSample extends Sample { readonly round: number }

/** The decorator layer and the runtime API: judged against each other, so they run back to back. */
const ENCLAVE_PAIR: readonly [(s: ServerHandle) => boolean, (s: ServerHandle) => boolean] =
  [(s) => s.name === 'enclave-decorators', (s) => s.name === 'enclave-runtime']

/** endpoint id -> contender -> one sample per round. */
export type Samples = Record<string, Record<string, RoundSample[]>>

export interface Schedule {
  readonly endpoints: readonly Endpoint[]
  readonly rounds: number
  readonly seconds: number
  readonly warmupSeconds: number
  /**
   * Unmeasured load right before each measured run. A server idle while the others are measured
   * may take a major GC in that time, and its next run measured up to 3.5x its usual CPU per
   * request (bench/README.md, session 21): this run absorbs that slow stretch.
   */
  readonly prerunSeconds?: number
  readonly settings: RunSettings
  readonly log: (line: string) => void
}

function describe(s: Sample): string {
  const cpu = s.cpuUsPerRequest === null ? 'n/a' : s.cpuUsPerRequest.toFixed(1)
  return `${Math.round(s.rps).toLocaleString('en-US').padStart(7)} req/s  p99 ${s.p99Ms.toFixed(2)} ms  ${cpu} µs/req${s.flag ? `  ! ${s.flag}` : ''}`
}

export async function runRounds(lineup: Lineup, schedule: Schedule): Promise<Samples> {
  const samples: Samples = {}
  const failed = new Set<string>()
  const serving = (s: ServerHandle, e: Endpoint): boolean => !failed.has(s.name) && lineup.wrong[answersKey(s.name, e.id)] === undefined
  const runOne = async (server: ServerHandle, endpoint: Endpoint, seconds: number): Promise<Sample | null> => {
    try {
      return await measure(server, endpoint, seconds, schedule.settings)
    } catch (error) {
      failed.add(server.name)
      lineup.skipped[server.name] = (error as Error).message
      schedule.log(`drop ${server.name}: ${(error as Error).message}`)
      return null
    }
  }
  if (schedule.warmupSeconds > 0) {
    schedule.log(`warm-up: ${schedule.warmupSeconds} s per contender and endpoint`)
    for (const endpoint of schedule.endpoints) {
      for (const server of lineup.servers) if (serving(server, endpoint)) await runOne(server, endpoint, schedule.warmupSeconds)
    }
  }
  for (let round = 0; round < schedule.rounds; round++) {
    schedule.endpoints.forEach((e) => { samples[e.id] ??= {} })
    for (const [index, endpoint] of schedule.endpoints.entries()) {
      for (const server of pairedOrder(lineup.servers, round + index, round, ENCLAVE_PAIR)) {
        if (!serving(server, endpoint)) continue
        if ((schedule.prerunSeconds ?? 0) > 0 && await runOne(server, endpoint, schedule.prerunSeconds!) === null) continue
        const sample = await runOne(server, endpoint, schedule.seconds)
        if (sample === null) continue
        ;(samples[endpoint.id][server.name] ??= []).push({ ...sample, round })
        schedule.log(`round ${round + 1}/${schedule.rounds}  ${endpoint.id.padEnd(9)} ${server.name.padEnd(18)} ${describe(sample)}`)
      }
    }
  }
  return samples
}
