/**
 * Where each contender's main thread spends a request, by owner of the code (issue 16's account of
 * the small endpoints): each server runs with V8's `--cpu-prof` under the same wrk load as
 * `npm run bench`, and the samples of the measured run are summed per owner, in µs per request.
 *
 *   node dist/bench/cpu-account.js [--only=raw,enclave-runtime] [--endpoints=two] [--seconds=6]
 *     [--rounds=2] [--interval=50] [--top=15] [--top-all=true] [--node-flags="..."]
 *
 * One fresh process per contender, endpoint and round (contenders alternate), a 2 s warm-up, then
 * the measured run; its first and last 0.3 s are left out. Columns: enclave (dist/src), node (its
 * JS internals), native (builtins, regexps, bindings: `writev` is there, with its time in the
 * kernel), deps, app (the bench server's own handler), gc, program; busy is their sum. The
 * sampler itself costs CPU (~1 µs per request at 50 µs): compare rows with each other, not with
 * the CPU columns of `npm run bench`. `--top` lists Enclave's functions by self time; with
 * `--top-all=true`, every owner's (node's internals, pino, the kernel's share under `writev`).
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ENDPOINTS } from './harness/endpoints'
import { flag, list } from './harness/tool-flags'
import { CONTENDER_NAMES, serverScript, type BenchApp } from './harness/contenders'
import { detectPinning, pinned } from './harness/pinning'
import { runWrk } from './harness/wrk'
import { accountProfile, BUSY_OWNERS, type Account, type CpuProfile } from './harness/cpu-profile-account'
import { readyPort } from './harness/ready-port'

const MARGIN_US = 300_000

const nowUs = (): number => Number(process.hrtime.bigint() / 1000n)

interface Profiled { readonly port: number; readonly stop: () => Promise<CpuProfile> }

function startProfiled(name: string, app: BenchApp, cpuList: string | null, nodeFlags: readonly string[], intervalUs: number): Promise<Profiled> {
  const dir = mkdtempSync(join(tmpdir(), 'enclave-cpu-account-'))
  const flags = ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-interval=${intervalUs}`, ...nodeFlags]
  const [command, args] = pinned(cpuList, process.execPath, [...flags, serverScript(name, app), '0'])
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] })
  let out = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => { out += chunk })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  // The server writes its profile on exit: SIGTERM makes it call process.exit (ready-line.ts).
  const stop = async (): Promise<CpuProfile> => {
    child.kill('SIGTERM')
    await exited
    try {
      const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))
      if (file === undefined) throw new Error(`${name}: no .cpuprofile written`)
      return JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
  return readyPort(child, name, () => out).then((port) => ({ port, stop }))
}

interface Row { readonly perRequest: Record<string, number>; readonly account: Account; readonly requests: number }

async function measure(name: string, endpointId: string, seconds: number, intervalUs: number, nodeFlags: readonly string[]): Promise<Row> {
  const endpoint = ENDPOINTS.find((e) => e.id === endpointId)
  if (endpoint === undefined) throw new Error(`unknown endpoint '${endpointId}'`)
  const { pinning } = detectPinning(true)
  const server = await startProfiled(name, endpoint.app, pinning?.serverCpus ?? null, nodeFlags, intervalUs)
  let profile: CpuProfile | undefined
  try {
    const load = { port: server.port, endpoint, connections: 50, pipelining: 1, cpuList: pinning?.loadCpus ?? null, threads: pinning?.loadCores ?? 1 }
    await runWrk({ ...load, seconds: 2 })
    const from = nowUs()
    const result = await runWrk({ ...load, seconds })
    const to = nowUs()
    profile = await server.stop()
    const window = to - from - 2 * MARGIN_US
    const requests = result.requests * window / (to - from)
    const account = accountProfile(profile, from + MARGIN_US, to - MARGIN_US)
    const perRequest: Record<string, number> = {}
    for (const owner of BUSY_OWNERS) perRequest[owner] = account.byOwner[owner] / requests
    perRequest.busy = BUSY_OWNERS.reduce((sum, owner) => sum + perRequest[owner], 0)
    return { perRequest, account, requests }
  } finally {
    if (profile === undefined) await server.stop().catch(() => undefined)
  }
}

const COLUMNS = ['busy', ...BUSY_OWNERS]
const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

async function main(): Promise<void> {
  const names = list(flag('only'), CONTENDER_NAMES)
  const endpoints = list(flag('endpoints'), ['two'])
  const seconds = Number(flag('seconds') ?? 6)
  const rounds = Number(flag('rounds') ?? 2)
  const intervalUs = Number(flag('interval') ?? 50)
  const top = Number(flag('top') ?? 0)
  const topAll = flag('top-all') === 'true'
  const nodeFlags = (flag('node-flags') ?? '').split(/\s+/).filter((f) => f !== '')
  if (!(seconds >= 1 && seconds <= 60) || !(rounds >= 1 && rounds <= 20) || !(intervalUs >= 10 && intervalUs <= 1000)) {
    throw new Error('cpu-account: --seconds 1-60, --rounds 1-20, --interval 10-1000 (µs)')
  }
  const header = ['round', 'endpoint'.padEnd(9), 'contender'.padEnd(19), ...COLUMNS.map((c) => c.padStart(7))].join(' ')
  process.stdout.write(`main-thread self time, µs per request (sampled every ${intervalUs} µs)\n${header}\n`)
  const rows = new Map<string, Row[]>()
  for (let round = 1; round <= rounds; round++) {
    for (const endpoint of endpoints) {
      for (const name of names) {
        const row = await measure(name, endpoint, seconds, intervalUs, nodeFlags)
        const key = `${endpoint} ${name}`
        rows.set(key, [...(rows.get(key) ?? []), row])
        process.stdout.write(`${[String(round).padStart(5), endpoint.padEnd(9), name.padEnd(19), ...COLUMNS.map((c) => row.perRequest[c].toFixed(3).padStart(7))].join(' ')}\n`)
      }
    }
  }
  process.stdout.write(`medians of ${rounds} round(s)\n`)
  for (const [key, measured] of rows) {
    const [endpoint, name] = key.split(' ')
    process.stdout.write(`${['  med'.padStart(5), endpoint.padEnd(9), name.padEnd(19), ...COLUMNS.map((c) => median(measured.map((r) => r.perRequest[c])).toFixed(3).padStart(7))].join(' ')}\n`)
    if (top > 0 && (topAll || measured.some((r) => r.account.enclaveFunctions.length > 0))) {
      const sums = new Map<string, number>()
      let requests = 0
      for (const r of measured) {
        requests += r.requests
        for (const [fn, us] of topAll ? r.account.allFunctions : r.account.enclaveFunctions) sums.set(fn, (sums.get(fn) ?? 0) + us)
      }
      for (const [fn, us] of [...sums].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`        ${(us / requests).toFixed(3)}  ${fn}\n`)
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
