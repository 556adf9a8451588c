/**
 * The lazy first request, measured so that one build gives one figure (issue 16: "its first request
 * to a route <= 3 ms"; boot21). Fresh boot workers (bench/boot/<contender>.js, the boot table's),
 * one per sample, the contenders and client modes alternating, each figure with its median,
 * interquartile range and extremes:
 *
 *   node dist/bench/boot/first-request-spread.js [--runs=10] [--shape=distinct]
 *     [--contenders=enclave-runtime-lazy,enclave-runtime,fastify3] [--modes=in-process,external]
 *     [--base=<another build's dist/src>]
 *
 * Modes: `in-process` is the boot table's way (the worker is its own client, for the second time);
 * `external` has this process, a warm client, send both requests, and the worker measures only its
 * side. Figures: `client wall` (ms from sending to the answer), `process CPU` (the table's "its CPU
 * ms": the worker's CPU over the exchange, its client included) and `server CPU` (the worker's CPU
 * from node's 'request' event to the response's end(): the framework's own work, the same in both
 * modes). `--node-flags="..."` passes flags to the workers. `--base` runs `<contender>@base`, the same workers against another
 * build's dist/src (a temporary directory links this bench to it), alternating with this build, and
 * prints the paired ratios (this ÷ base, by run).
 */
import { spawn } from 'node:child_process'
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { performance } from 'node:perf_hooks'
import { BOOT_PREFIX, type BootMeasurement } from './report'
import { bootApp, exampleBody, type BootApp, type BootRoute, type BootShape } from './routes'
import { median } from '../harness/stats'

type Mode = 'in-process' | 'external'
interface Sample { wallMs: number | null; processCpuMs: number | null; serverCpuMs: number | null }
const FIGURES: ReadonlyArray<[keyof Sample, string]> = [['wallMs', 'client wall'], ['processCpuMs', 'process CPU'], ['serverCpuMs', 'server CPU']]
const WORKER_TIMEOUT_MS = 120_000

function flag(name: string, fallback: string): string {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`))
  return arg === undefined ? fallback : arg.slice(name.length + 3)
}

/** The q-quantile by linear interpolation (q in [0, 1]). */
function quantile(values: readonly number[], q: number): number | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  const at = (sorted.length - 1) * q
  const low = Math.floor(at)
  return sorted[low] + (sorted[Math.min(low + 1, sorted.length - 1)] - sorted[low]) * (at - low)
}

function post(port: number, app: BootApp, route: BootRoute): Promise<number> {
  const body = JSON.stringify(exampleBody(route.body, app.shared))
  return new Promise((done, fail) => {
    const start = performance.now()
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: route.url, agent: false,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume()
      res.on('end', () => res.statusCode === 200 ? done(performance.now() - start) : fail(new Error(`${route.url} answered ${res.statusCode}`)))
    })
    req.setTimeout(10_000, () => req.destroy(new Error(`${route.url}: no answer within 10 s`)))
    req.on('error', fail)
    req.end(body)
  })
}

/** One fresh worker: its BOOT line, and in external mode the client wall clock of the timed request. */
function runWorker(script: string, shape: BootShape, mode: Mode, app: BootApp, nodeFlags: readonly string[]): Promise<Sample> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...nodeFlags, '--expose-gc', script, String(app.routes.length), shape], {
      stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, BOOT_CLIENT: mode === 'external' ? 'external' : '' },
    })
    let stdout = ''
    let stderr = ''
    let wallMs: number | null = null
    // The worker may exit before this process has read the end of its answer: close waits for it.
    let exchange: Promise<unknown> = Promise.resolve()
    let sent = false
    const timer = setTimeout(() => { child.kill('SIGKILL'); fail(new Error(`${script}: killed after ${WORKER_TIMEOUT_MS / 1000} s`)) }, WORKER_TIMEOUT_MS)
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr = (stderr + chunk).slice(-4000) })
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk
      const port = /^PORT (\d+)$/m.exec(stdout)
      if (port !== null && !sent) {
        sent = true
        exchange = post(Number(port[1]), app, app.routes[0])
          .then(() => post(Number(port[1]), app, app.routes[app.routes.length - 1]))
          .then((ms) => { wallMs = ms }, (error: unknown) => { child.kill('SIGKILL'); fail(error) })
      }
    })
    child.once('error', fail)
    const closed = (code: number | null): void => {
      clearTimeout(timer)
      const line = stdout.split('\n').find((l) => l.startsWith(BOOT_PREFIX))
      if (code !== 0 || line === undefined) { fail(new Error(`${script} exited with ${code}: ${stderr.trim().split('\n').pop() ?? ''}`)); return }
      const m = JSON.parse(line.slice(BOOT_PREFIX.length)) as BootMeasurement
      done({ wallMs: mode === 'external' ? wallMs : m.firstRequestMs, processCpuMs: m.firstRequestCpuMs, serverCpuMs: m.firstRequestServerCpuMs })
    }
    child.once('close', (code) => { exchange.then(() => closed(code), () => closed(code)) })
  })
}

/**
 * A directory with a copy of this build's bench/ and links to the base's src/ and this repo's
 * node_modules: the workers require ../../src, which node resolves from the script's real path
 * (so bench/ is copied, not linked).
 */
function baseDirectory(baseSrc: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'first-request-base-'))
  cpSync(resolve(__dirname, '..'), join(dir, 'bench'), { recursive: true })
  symlinkSync(resolve(baseSrc), join(dir, 'src'))
  symlinkSync(resolve(__dirname, '..', '..', '..', 'node_modules'), join(dir, 'node_modules'))
  return dir
}

const fmt = (v: number | null): string => v === null ? '-' : v.toFixed(2)

async function main(): Promise<void> {
  const runs = Number(flag('runs', '10'))
  const shape = flag('shape', 'distinct') as BootShape
  const contenders = flag('contenders', 'enclave-runtime-lazy').split(',')
  const modes = flag('modes', 'in-process,external').split(',') as Mode[]
  const base = flag('base', '')
  const nodeFlags = flag('node-flags', '').split(' ').filter((f) => f !== '')
  const app = bootApp(1000, shape)
  const baseDir = base === '' ? null : baseDirectory(base)
  const builds = baseDir === null ? [''] : ['', '@base']
  const scriptOf = (contender: string, build: string): string =>
    build === '' ? join(__dirname, `${contender}.js`) : join(baseDir!, 'bench', 'boot', `${contender}.js`)
  const samples = new Map<string, Sample[]>()
  try {
    // Warms this process's client (the external mode's) on one unrecorded worker.
    if (modes.includes('external')) await runWorker(scriptOf(contenders[0], ''), shape, 'external', app, nodeFlags)
    for (let run = 0; run < runs; run++) {
      const order = contenders.flatMap((c) => modes.flatMap((m) => builds.map((b) => [c, m, b] as const)))
      const k = run % order.length
      for (const [contender, mode, build] of [...order.slice(k), ...order.slice(0, k)]) {
        const key = `${contender}${build} ${mode}`
        const sample = await runWorker(scriptOf(contender, build), shape, mode, app, nodeFlags)
        ;(samples.get(key) ?? samples.set(key, []).get(key)!).push(sample)
        process.stderr.write(`${run + 1}/${runs} ${key.padEnd(40)} server CPU ${fmt(sample.serverCpuMs)}  process CPU ${fmt(sample.processCpuMs)}  wall ${fmt(sample.wallMs)}\n`)
      }
    }
  } finally {
    if (baseDir !== null) rmSync(baseDir, { recursive: true, force: true })
  }
  process.stdout.write(`first request to a further route, ${shape}, ms: median [q1-q3] (min-max) over ${runs} fresh processes each\n`)
  for (const [key, list] of samples) {
    process.stdout.write(`${key}\n`)
    for (const [field, label] of FIGURES) {
      const values = list.map((s) => s[field]).filter((v): v is number => v !== null)
      if (values.length === 0) continue
      process.stdout.write(`  ${label.padEnd(19)} ${fmt(median(values)).padStart(6)} [${fmt(quantile(values, 0.25))}-${fmt(quantile(values, 0.75))}] (${fmt(Math.min(...values))}-${fmt(Math.max(...values))})\n`)
    }
  }
  if (baseDir === null) return
  process.stdout.write('this build ÷ base, paired by run: median (min-max)\n')
  for (const contender of contenders) for (const mode of modes) for (const [field, label] of FIGURES) {
    const mine = samples.get(`${contender} ${mode}`) ?? []
    const theirs = samples.get(`${contender}@base ${mode}`) ?? []
    const ratios = mine.map((s, i) => (s[field] ?? NaN) / (theirs[i]?.[field] ?? NaN)).filter((r) => Number.isFinite(r))
    if (ratios.length > 0) process.stdout.write(`  ${`${contender} ${mode}`.padEnd(36)} ${label.padEnd(19)} ${median(ratios)!.toFixed(3)} (${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)})\n`)
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
  process.exitCode = 1
})
