/**
 * Cold start as a serverless function feels it: a fresh `node` process per sample, from spawn to
 * the first request answered, for the 20-route app of bench/cold/app.ts (schemas, a logger, two
 * hooks, a plugin). Each worker (bench/cold/<contender>.js) marks node's own start, the framework's
 * require, listening and the first answer, in CPU time (what a busy machine does not inflate) and
 * wall clock; this driver sends the first request and measures spawn → answer on its own clock.
 * The contenders alternate, one sample each per round; medians are reported.
 *
 *   node dist/bench/cold-start.js [--runs=9] [--only=fastify3,enclave-runtime] [--base=<other build's dist/src>]
 *     [--node-flags="--cpu-prof --cpu-prof-dir=/tmp/cold"]
 *
 * `--base` adds an `@base` row for each Enclave contender (the same worker loading that build,
 * run right after or before it in each round, alternating) and the per-pair ratios of total CPU.
 */
import { spawn } from 'node:child_process'
import { request } from 'node:http'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { COLD_PREFIX, type ColdMarks } from './cold/marks'
import { PORT_PREFIX } from './cold/serve'
import { FIRST_REQUEST } from './cold/app'
import { median, rotate } from './harness/stats'
import { renderTable, fixed } from './harness/text-table'

export const COLD_CONTENDERS: readonly string[] = [
  'fastify3', 'fastify5', 'enclave-runtime', 'enclave-runtime-lazy', 'enclave-decorators', 'enclave-decorators-lazy',
]
const BASE_SUFFIX = '@base'
const RUN_TIMEOUT_MS = 30_000

export interface ColdSample extends ColdMarks {
  /** The driver's wall clock from spawn to the end of the first answer. */
  readonly spawnToAnswerMs: number
}

interface Settings {
  readonly runs: number
  readonly contenders: readonly string[]
  readonly base: string | null
  /** node flags every worker starts with (a profile of each cold start: `--cpu-prof`). */
  readonly nodeFlags: readonly string[]
  readonly log: (line: string) => void
}

/** One fresh process: spawn, wait for its port, send the first request, ask for its marks. */
function coldOnce(name: string, base: string | null, nodeFlags: readonly string[]): Promise<ColdSample> {
  const worker = name.replace(BASE_SUFFIX, '')
  const env = name.endsWith(BASE_SUFFIX) && base !== null ? { ...process.env, ENCLAVE_DIST: base } : process.env
  return new Promise((resolve, reject) => {
    const start = performance.now()
    const child = spawn(process.execPath, [...nodeFlags, join(__dirname, 'cold', `${worker}.js`)], { env, stdio: ['pipe', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    let answeredMs: number | null = null
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`${name}: no report within ${RUN_TIMEOUT_MS / 1000} s`)) }, RUN_TIMEOUT_MS)
    child.stderr.on('data', (chunk: Buffer) => { err += chunk.toString() })
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const port = /^COLD-PORT (\d+)$/m.exec(out)
      if (port !== null && answeredMs === null) {
        answeredMs = -1
        firstRequest(Number(port[1])).then(() => {
          answeredMs = performance.now() - start
          child.stdin.write('report\n')
        }, (error: Error) => { child.kill('SIGKILL'); reject(new Error(`${name}: ${error.message}`)) })
      }
    })
    child.on('exit', (code) => {
      clearTimeout(timer)
      const line = out.split('\n').find((l) => l.startsWith(COLD_PREFIX))
      if (code !== 0 || line === undefined || answeredMs === null || answeredMs < 0) {
        reject(new Error(`${name} exited with code ${code}: ${err.trim().split('\n').slice(0, 3).join(' | ')}`))
        return
      }
      resolve({ ...(JSON.parse(line.slice(COLD_PREFIX.length)) as ColdMarks), spawnToAnswerMs: answeredMs })
    })
  })
}

function firstRequest(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: FIRST_REQUEST.method, path: FIRST_REQUEST.path, agent: false,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(FIRST_REQUEST.body) } }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => { text += chunk })
      res.on('end', () => { if (res.statusCode === 200) resolve(); else reject(new Error(`first request answered ${res.statusCode}: ${text.slice(0, 200)}`)) })
    })
    req.setTimeout(10_000, () => req.destroy(new Error('first request: no answer within 10 s')))
    req.on('error', reject)
    req.end(FIRST_REQUEST.body)
  })
}

export async function runColdStarts(settings: Settings): Promise<Record<string, ColdSample[]>> {
  const names = settings.contenders.flatMap((n) => settings.base !== null && n.startsWith('enclave') ? [n, `${n}${BASE_SUFFIX}`] : [n])
  const samples: Record<string, ColdSample[]> = {}
  for (let run = 0; run < settings.runs; run++) {
    // A contender and its @base row run back to back, the first of them alternating by round.
    const units = settings.contenders.map((n) => names.includes(`${n}${BASE_SUFFIX}`) ? (run % 2 === 0 ? [n, `${n}${BASE_SUFFIX}`] : [`${n}${BASE_SUFFIX}`, n]) : [n])
    for (const name of rotate(units, run).flat()) {
      const sample = await coldOnce(name, settings.base, settings.nodeFlags)
      ;(samples[name] ??= []).push(sample)
      settings.log(`cold ${run + 1}/${settings.runs}  ${name.padEnd(30)} answered: CPU ${sample.answered.cpuMs.toFixed(0)} ms, wall ${sample.spawnToAnswerMs.toFixed(0)} ms`)
    }
  }
  return samples
}

/** The medians: each segment's CPU, the total CPU and wall clock, ×fastify 3 on total CPU, and the @base pairs' ratios. */
export function coldTable(samples: Record<string, ColdSample[]>): string {
  const m = (name: string, pick: (s: ColdSample) => number): number | null => median((samples[name] ?? []).map(pick))
  const reference = m('fastify3', (s) => s.answered.cpuMs)
  const rows = Object.keys(samples).map((name) => {
    const total = m(name, (s) => s.answered.cpuMs)
    const base = samples[`${name}${BASE_SUFFIX}`]
    const mine = samples[name]
    const pairs = base === undefined ? [] : mine.map((s, i) => base[i] === undefined ? null : s.answered.cpuMs / base[i].answered.cpuMs).filter((r): r is number => r !== null)
    return [
      name,
      fixed(m(name, (s) => s.started.cpuMs), 1),
      fixed(m(name, (s) => s.required.cpuMs - s.started.cpuMs), 1),
      fixed(m(name, (s) => s.listening.cpuMs - s.required.cpuMs), 1),
      fixed(m(name, (s) => s.answered.cpuMs - s.listening.cpuMs), 1),
      fixed(total, 1),
      fixed(m(name, (s) => s.spawnToAnswerMs), 1),
      total === null || reference === null ? '-' : `${(total / reference).toFixed(2)}x`,
      fixed(m(name, (s) => s.modules), 0),
      pairs.length === 0 ? '' : `${(median(pairs) ?? 0).toFixed(3)} [${Math.min(...pairs).toFixed(3)}–${Math.max(...pairs).toFixed(3)}]`,
    ]
  })
  return renderTable(['contender', 'node start', 'require', 'build+listen', '1st request', 'CPU total', 'wall spawn→answer', '×fastify3 CPU', 'modules', 'after÷@base CPU'], rows, 1)
}

if (require.main === module) {
  const arg = (flag: string): string | undefined => process.argv.slice(2).find((a) => a.startsWith(`--${flag}=`))?.slice(flag.length + 3)
  const runs = Number(arg('runs') ?? 9)
  const only = arg('only')?.split(',') ?? COLD_CONTENDERS
  const unknown = only.filter((n) => !COLD_CONTENDERS.includes(n))
  if (unknown.length > 0 || !Number.isInteger(runs) || runs < 1) {
    console.error(`usage: node dist/bench/cold-start.js [--runs=<n ≥ 1>] [--only=${COLD_CONTENDERS.join(',')}] [--base=<dist/src of another build>]`)
    process.exitCode = 2
  } else {
    const log = (line: string): void => { process.stderr.write(`${line}\n`) }
    runColdStarts({ runs, contenders: only, base: arg('base') ?? null, nodeFlags: arg('node-flags')?.split(' ').filter((f) => f !== '') ?? [], log })
      .then((samples) => console.log(`cold start (ms, medians of ${runs} fresh processes; CPU is user + system since the process began)\n${coldTable(samples)}`))
      .catch((error: Error) => { console.error(error.message); process.exitCode = 1 })
  }
}
