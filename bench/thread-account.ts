/**
 * Where each contender's CPU goes by thread under the bench's load: the bench's CPU column counts
 * every thread of the server (/proc/<pid>/stat), but `--cpu-prof` (cpu-account.ts) samples the main
 * thread only. V8's helper threads (parallel scavenge, concurrent marking, TurboFan) are the rest.
 *
 *   node dist/bench/thread-account.js [--only=raw,fastify3,enclave-runtime] [--endpoints=headers]
 *     [--seconds=4] [--rounds=3] [--node-flags="..."]
 *
 * One fresh process per contender, endpoint and round (contenders alternate), a 2 s warm-up, then
 * the measured run. Columns: µs per request on the main thread, on every other thread (V8's
 * workers, libuv's pool: Node 20 names them all "node"), and both.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { ENDPOINTS } from './harness/endpoints'
import { flag, list } from './harness/tool-flags'
import { CONTENDER_NAMES } from './harness/contenders'
import { detectPinning } from './harness/pinning'
import { startServer } from './harness/server-process'
import { runWrk } from './harness/wrk'

const TICK_US = 1e6 / (Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8', timeout: 5000 }).trim()) || 100)

type Group = 'main' | 'other'

/** CPU µs per thread group of `pid` so far (threads that ended are lost: compare groups that live). */
function threadCpu(pid: number): Record<Group, number> {
  const sums: Record<Group, number> = { main: 0, other: 0 }
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string
    try { stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8') } catch { continue }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const us = (Number(fields[11]) + Number(fields[12])) * TICK_US
    sums[tid === String(pid) ? 'main' : 'other'] += us
  }
  return sums
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

async function measure(name: string, endpointId: string, seconds: number, nodeFlags: readonly string[]): Promise<Record<Group | 'all', number>> {
  const endpoint = ENDPOINTS.find((e) => e.id === endpointId)
  if (endpoint === undefined) throw new Error(`unknown endpoint '${endpointId}'`)
  const { pinning } = detectPinning(true)
  const server = await startServer(name, pinning?.serverCpus ?? null, nodeFlags, endpoint.app)
  try {
    const load = { port: server.port, endpoint, connections: 50, pipelining: 1, cpuList: pinning?.loadCpus ?? null, threads: pinning?.loadCores ?? 1 }
    await runWrk({ ...load, seconds: 2 })
    const before = threadCpu(server.pid)
    const result = await runWrk({ ...load, seconds })
    const after = threadCpu(server.pid)
    const row = { main: 0, other: 0, all: 0 }
    for (const group of ['main', 'other'] as const) {
      row[group] = (after[group] - before[group]) / result.requests
      row.all += row[group]
    }
    return row
  } finally {
    await server.stop()
  }
}

async function main(): Promise<void> {
  const names = list(flag('only'), CONTENDER_NAMES)
  const endpoints = list(flag('endpoints'), ['headers'])
  const seconds = Number(flag('seconds') ?? 4)
  const rounds = Number(flag('rounds') ?? 3)
  const nodeFlags = (flag('node-flags') ?? '').split(/\s+/).filter((f) => f !== '')
  if (!(seconds >= 1 && seconds <= 60) || !(rounds >= 1 && rounds <= 20)) throw new Error('thread-account: --seconds 1-60, --rounds 1-20')
  const columns = ['main', 'other', 'all'] as const
  process.stdout.write(`CPU µs per request by thread\n${['round', 'endpoint'.padEnd(9), 'contender'.padEnd(19), ...columns.map((c) => c.padStart(7))].join(' ')}\n`)
  const rows = new Map<string, Array<Record<string, number>>>()
  for (let round = 1; round <= rounds; round++) {
    for (const endpoint of endpoints) {
      for (const name of names) {
        const row = await measure(name, endpoint, seconds, nodeFlags)
        const key = `${endpoint} ${name}`
        rows.set(key, [...(rows.get(key) ?? []), row])
        process.stdout.write(`${[String(round).padStart(5), endpoint.padEnd(9), name.padEnd(19), ...columns.map((c) => row[c].toFixed(2).padStart(7))].join(' ')}\n`)
      }
    }
  }
  process.stdout.write(`medians of ${rounds} round(s)\n`)
  for (const [key, measured] of rows) {
    const [endpoint, name] = key.split(' ')
    process.stdout.write(`${['  med'.padStart(5), endpoint.padEnd(9), name.padEnd(19), ...columns.map((c) => median(measured.map((r) => r[c])).toFixed(2).padStart(7))].join(' ')}\n`)
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
