/**
 * What survives the young generation under load, per contender: each server runs with V8's
 * `--trace-gc-nvp` under the same wrk load as `npm run bench`, and the scavenges of the measured
 * run are summed (issue 16's memory question: is something keeping requests alive?).
 *
 *   node dist/bench/gc-trace.js [--only=raw,enclave-runtime] [--endpoints=items,search] [--seconds=4] [--node-flags="..."]
 *
 * One 2 s warm-up, then one measured run per contender and endpoint; the first 3 scavenges of the
 * measured run are left out (what warm-up left behind gets promoted there once). CPU µs/req is
 * printed for orientation only: compare CPU with `npm run bench`, which pairs rounds.
 */
import { spawn } from 'node:child_process'
import type { Endpoint } from './harness/endpoints'
import { endpointsFlag, flag, list } from './harness/tool-flags'
import { CONTENDER_NAMES, serverScript, type BenchApp } from './harness/contenders'
import { detectPinning, pinned } from './harness/pinning'
import { cpuMicros } from './harness/proc-cpu'
import { runWrk } from './harness/wrk'
import { summarizeGcTrace } from './harness/gc-trace-summary'
import { readyPort } from './harness/ready-port'

const SKIP_SCAVENGES = 3


interface Traced { readonly port: number; readonly pid: number; readonly text: () => string; readonly stop: () => void }

function startTraced(name: string, app: BenchApp, cpuList: string | null, nodeFlags: readonly string[]): Promise<Traced> {
  const [command, args] = pinned(cpuList, process.execPath, ['--trace-gc-nvp', ...nodeFlags, serverScript(name, app), '0'])
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] })
  let out = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => { out += chunk })
  return readyPort(child, name, () => out).then((port) => ({ port, pid: child.pid!, text: () => out, stop: () => { child.kill('SIGTERM') } }))
}

const kb = (bytes: number | null): string => (bytes === null ? '-' : (bytes / 1024).toFixed(0))

async function measure(name: string, endpoint: Endpoint, seconds: number, nodeFlags: readonly string[]): Promise<string> {
  const { pinning } = detectPinning(true)
  const server = await startTraced(name, endpoint.app, pinning?.serverCpus ?? null, nodeFlags)
  try {
    const load = { port: server.port, endpoint, connections: 50, pipelining: 1, cpuList: pinning?.loadCpus ?? null, threads: pinning?.loadCores ?? 1 }
    await runWrk({ ...load, seconds: 2 })
    await new Promise((resolve) => setTimeout(resolve, 200))
    const mark = server.text().length
    const cpuBefore = cpuMicros(server.pid)
    const result = await runWrk({ ...load, seconds })
    const cpuAfter = cpuMicros(server.pid)
    await new Promise((resolve) => setTimeout(resolve, 200))
    const gc = summarizeGcTrace(server.text().slice(mark), SKIP_SCAVENGES)
    // Requests in the summed scavenges' span: the measured run's, less the share of the skipped ones.
    const requests = result.requests * gc.scavenges / Math.max(1, gc.scavenges + SKIP_SCAVENGES)
    const cpu = cpuBefore === null || cpuAfter === null ? '-' : ((cpuAfter - cpuBefore) / result.requests).toFixed(1)
    const perRequest = (bytes: number): string => (requests > 0 ? (bytes / requests).toFixed(1) : '-')
    return [endpoint.id.padEnd(10), name.padEnd(19), cpu.padStart(7), String(gc.scavenges).padStart(5), String(gc.markCompacts).padStart(4),
      kb(gc.medianAllocatedPerScavenge).padStart(9), kb(gc.medianSurvivedPerScavenge).padStart(9),
      perRequest(gc.survivedBytes).padStart(9), perRequest(gc.promotedBytes).padStart(9), perRequest(gc.allocatedBytes).padStart(9)].join(' ')
  } finally {
    server.stop()
  }
}

async function main(): Promise<void> {
  const names = list(flag('only'), CONTENDER_NAMES)
  const endpoints = endpointsFlag()
  const seconds = Number(flag('seconds') ?? 4)
  const nodeFlags = (flag('node-flags') ?? '').split(/\s+/).filter((f) => f !== '')
  process.stdout.write(`${['endpoint'.padEnd(10), 'contender'.padEnd(19), 'CPU µs', 'scav', 'mc', 'young KB', 'surv KB', 'surv B/r', 'prom B/r', 'alloc B/r'].join(' ')}\n`)
  for (const endpoint of endpoints) {
    for (const name of names) process.stdout.write(`${await measure(name, endpoint, seconds, nodeFlags)}\n`)
  }
  process.stdout.write('young KB: allocated between scavenges (median), the young generation in use; surv KB: survived per scavenge (median);\nsurv/prom/alloc B/r: bytes per request that survived a scavenge / were promoted / were allocated, over the scavenges after the first 3.\n')
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
