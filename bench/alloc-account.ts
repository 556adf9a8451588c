/**
 * What each contender allocates per request, and where (issue 16's small endpoints, seen as
 * garbage rather than CPU): each server runs with V8's sampling heap profiler (objects already
 * collected counted too: harness/heap-sampling-preload.ts) under the same wrk load as `npm run
 * bench`, and the sampled bytes of the measured run are summed per owner and per allocating site.
 *
 *   node dist/bench/alloc-account.js [--only=raw,enclave-runtime] [--endpoints=items] [--seconds=3]
 *     [--interval=64] [--top=20]
 *
 * One fresh process per contender and endpoint, a 2 s warm-up, then the measured run. Columns, in
 * bytes per request: total; by the function that allocated (enclave = dist/src, node = its JS
 * internals, deps, app = the bench server, native = builtins and bindings with no JS frame); and
 * `under enclave`: allocated anywhere below an Enclave frame (Node internals Enclave called
 * included). Sampling is statistical (one sample per `interval` bytes on average): rows of a few
 * tens of bytes are noise. `--top` lists the sites (function:line:column, with its two callers)
 * under an Enclave frame by bytes per request.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Endpoint } from './harness/endpoints'
import { endpointsFlag, flag, list } from './harness/tool-flags'
import { CONTENDER_NAMES, serverScript, type BenchApp } from './harness/contenders'
import { detectPinning, pinned } from './harness/pinning'
import { runWrk } from './harness/wrk'
import { readyPort } from './harness/ready-port'
import { accountAllocations, ALLOCATION_OWNERS as OWNERS, type SamplingNode } from './harness/heap-profile-account'


interface Server { readonly port: number; readonly pid: number; readonly waitFor: (line: string) => Promise<void>; readonly stop: () => void }

function startSampled(name: string, app: BenchApp, cpuList: string | null, profilePath: string, interval: number): Promise<Server> {
  const preload = join(__dirname, 'harness', 'heap-sampling-preload.js')
  const [command, args] = pinned(cpuList, process.execPath, ['-r', preload, serverScript(name, app), '0'])
  const env = { ...process.env, ENCLAVE_HEAP_PROFILE_OUT: profilePath, ENCLAVE_HEAP_SAMPLING_INTERVAL: String(interval) }
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'], env })
  let out = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => { out += chunk })
  const waitFor = (line: string): Promise<void> => new Promise((resolve, reject) => {
    const timer = setTimeout(() => { clearInterval(poll); reject(new Error(`${name}: no '${line}' line within 30 s`)) }, 30_000)
    const poll = setInterval(() => {
      if (!out.split('\n').includes(line)) return
      clearInterval(poll)
      clearTimeout(timer)
      resolve()
    }, 50)
  })
  return readyPort(child, name, () => out).then((port) => ({ port, pid: child.pid!, waitFor, stop: () => { child.kill('SIGTERM') } }))
}

async function measure(name: string, endpoint: Endpoint, seconds: number, interval: number, top: number): Promise<string> {
  const { pinning } = detectPinning(true)
  const dir = mkdtempSync(join(tmpdir(), 'enclave-alloc-'))
  const profilePath = join(dir, 'profile.json')
  const server = await startSampled(name, endpoint.app, pinning?.serverCpus ?? null, profilePath, interval)
  try {
    const load = { port: server.port, endpoint, connections: 50, pipelining: 1, cpuList: pinning?.loadCpus ?? null, threads: pinning?.loadCores ?? 1 }
    await runWrk({ ...load, seconds: 2 })
    process.kill(server.pid, 'SIGUSR2')
    await server.waitFor('HEAP-SAMPLING')
    const result = await runWrk({ ...load, seconds })
    process.kill(server.pid, 'SIGUSR1')
    await server.waitFor('HEAP-PROFILE')
    const account = accountAllocations((JSON.parse(readFileSync(profilePath, 'utf8')) as { head: SamplingNode }).head)
    const perRequest = (bytes: number): string => (bytes / Math.max(1, result.requests)).toFixed(0)
    const row = [endpoint.id.padEnd(10), name.padEnd(19), perRequest(account.total).padStart(7),
      ...OWNERS.map((owner) => perRequest(account.byOwner[owner]).padStart(7)), perRequest(account.underEnclave).padStart(9)].join(' ')
    const sites = [...account.sites].sort((a, b) => b[1] - a[1]).slice(0, top)
      .map(([key, bytes]) => `${perRequest(bytes).padStart(8)}  ${key}`)
    return [row, ...sites].join('\n')
  } finally {
    server.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

async function main(): Promise<void> {
  const names = list(flag('only'), CONTENDER_NAMES)
  const endpoints = endpointsFlag()
  const seconds = Number(flag('seconds') ?? 3)
  const interval = Number(flag('interval') ?? 64)
  const top = Number(flag('top') ?? 20)
  process.stdout.write(`allocated bytes per request (sampled every ${interval} B on average, collected objects included)\n`)
  process.stdout.write(`${['endpoint'.padEnd(10), 'contender'.padEnd(19), '  total', ...OWNERS.map((o) => o.padStart(7)), 'u.enclave'].join(' ')}\n`)
  for (const endpoint of endpoints) {
    for (const name of names) process.stdout.write(`${await measure(name, endpoint, seconds, interval, name.startsWith('enclave') ? top : 0)}\n`)
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  })
}
