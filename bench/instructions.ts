/**
 * Instructions per request, or per boot, counted by valgrind (callgrind) instead of timed: a count
 * does not move with a neighbour stealing the CPU, so two builds can be compared on a noisy host
 * (session 26, where an A/A rotation of CPU per request read 0.69 [0.53-1.11]).
 *
 *   node dist/bench/instructions.js --endpoint=items [--warmup=2000] [--requests=5000] [--runs=3]
 *     [--node-flags="..."] name=path/to/server.js name2=path/to/other.js ...
 *   node dist/bench/instructions.js --boot [--runs=3] [--boot-args="1000 distinct"] name=dist/bench/boot/raw.js ...
 *
 * Requests: each server (a bench server: servers/ready-line.ts) runs under callgrind; one client
 * connection sends `warmup` requests one at a time, callgrind's counters are zeroed
 * (`callgrind_control -z`), `requests` more are sent, and the counters are dumped. So the figure
 * is the server process's instructions, every thread (V8's compiler and GC threads too), between
 * the two points, divided by `requests`: nothing of boot or exit is in it. Boot: each worker
 * (boot/*.ts) runs to its exit under callgrind, and the figure is the whole process's count
 * (node's own start, the requires, the build, its first request). Builds and servers alternate
 * within every run. The kernel's side of a syscall is not counted, and valgrind runs the threads
 * one at a time, so the count is the code's work, not its parallelism. valgrind runs node ~50x
 * slower: a run of 7,000 requests takes about a minute on an idle core.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { request, Agent } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { callgrindTotal, medianRatio, summarizeCounts } from './harness/callgrind-count'
import { ENDPOINTS, type Endpoint } from './harness/endpoints'
import { READY_PREFIX } from './servers/ready-line'

interface Spec { readonly name: string; readonly script: string }

const READY_WAIT_MS = 600_000

function flag(args: readonly string[], name: string, fallback: string): string {
  const given = args.find((a) => a.startsWith(`--${name}=`))
  return given === undefined ? fallback : given.slice(name.length + 3)
}

function bounded(text: string, min: number, max: number, what: string): number {
  const n = Number(text)
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`instructions: --${what} must be an integer ${min}-${max}, got '${text}'`)
  return n
}

function valgrindArgs(outFile: string, nodeFlags: readonly string[], script: string, scriptArgs: readonly string[]): string[] {
  // all-non-file: V8 writes and rewrites its JIT code in anonymous memory, which valgrind must re-translate.
  return ['--tool=callgrind', `--callgrind-out-file=${outFile}`, '--smc-check=all-non-file', '--vgdb=yes',
    process.execPath, ...nodeFlags, script, ...scriptArgs]
}

function callgrindControl(option: string, pid: number): void {
  const done = spawnSync('callgrind_control', [option, String(pid)], { encoding: 'utf8', timeout: 300_000 })
  if (done.status !== 0) throw new Error(`instructions: callgrind_control ${option} ${pid} failed: ${done.stderr || done.stdout}`)
}

function waitReady(child: ChildProcess, name: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = ''
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`${name}: no ready line within ${READY_WAIT_MS / 1000} s`)) }, READY_WAIT_MS)
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
      const ready = new RegExp(`^${READY_PREFIX}(\\d+)$`, 'm').exec(out)
      if (ready === null) return
      clearTimeout(timer)
      child.removeAllListeners('exit')
      resolve(Number(ready[1]))
    })
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`${name} exited before ready (code ${code})`)) })
  })
}

/** `count` requests, one at a time over one keep-alive connection; the first answer is checked. */
async function send(port: number, endpoint: Endpoint, count: number, agent: Agent): Promise<void> {
  const body = endpoint.body === null ? null : Buffer.from(endpoint.body)
  const headers: Record<string, string> = { ...endpoint.headers }
  if (body !== null) { headers['content-type'] = 'application/json'; headers['content-length'] = String(body.length) }
  for (let i = 0; i < count; i++) {
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method: endpoint.method, path: endpoint.path, headers, agent }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }))
        res.on('error', reject)
      })
      req.setTimeout(120_000, () => req.destroy(new Error('no answer within 120 s')))
      req.on('error', reject)
      req.end(body ?? undefined)
    })
    if (answer.status !== endpoint.status) throw new Error(`instructions: ${endpoint.id} answered ${answer.status}, expected ${endpoint.status}`)
    if (i === 0) {
      const wrong = endpoint.check(JSON.parse(answer.text))
      if (wrong !== null) throw new Error(`instructions: ${endpoint.id}'s answer is wrong: ${wrong}`)
    }
  }
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) { resolve(); return }
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

async function countRequests(spec: Spec, endpoint: Endpoint, warmup: number, requests: number, nodeFlags: readonly string[]): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'enc-instr-'))
  const outFile = join(dir, 'cg.out')
  const child = spawn('valgrind', valgrindArgs(outFile, nodeFlags, spec.script, ['0']), { stdio: ['pipe', 'pipe', 'pipe'] })
  let stderr = ''
  child.stderr!.setEncoding('utf8').on('data', (c: string) => { stderr = (stderr + c).slice(-4000) })
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  try {
    const port = await waitReady(child, spec.name)
    await send(port, endpoint, warmup, agent)
    callgrindControl('-z', child.pid!)
    await send(port, endpoint, requests, agent)
    callgrindControl('-d', child.pid!)
    const dumps = readdirSync(dir).filter((f) => f !== 'cg.out' && f.startsWith('cg.out'))
    if (dumps.length !== 1) throw new Error(`instructions: expected one dump in ${dir}, found ${dumps.join(', ') || 'none'}`)
    return callgrindTotal(readFileSync(join(dir, dumps[0]), 'utf8')) / requests
  } catch (error) {
    process.stderr.write(`${spec.name}'s valgrind said:\n${stderr}\n`)
    throw error
  } finally {
    agent.destroy()
    await stop(child)
    rmSync(dir, { recursive: true, force: true })
  }
}

async function countBoot(spec: Spec, bootArgs: readonly string[], nodeFlags: readonly string[]): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'enc-instr-'))
  const outFile = join(dir, 'cg.out')
  const child = spawn('valgrind', valgrindArgs(outFile, nodeFlags, spec.script, bootArgs), { stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout!.setEncoding('utf8').on('data', (c: string) => { stdout += c })
  child.stderr!.setEncoding('utf8').on('data', (c: string) => { stderr = (stderr + c).slice(-4000) })
  try {
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), READY_WAIT_MS * 2)
      child.once('exit', (c) => { clearTimeout(timer); resolve(c) })
    })
    if (code !== 0 || !stdout.includes('BOOT ')) throw new Error(`instructions: ${spec.name} exited ${code} without a BOOT line`)
    return callgrindTotal(readFileSync(outFile, 'utf8'))
  } catch (error) {
    process.stderr.write(`${spec.name}'s valgrind said:\n${stderr}\n`)
    throw error
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

function formatted(n: number, boot: boolean): string {
  return boot ? `${(n / 1e6).toFixed(1)} M` : n.toFixed(0)
}

async function main(): Promise<void> {
  const args = process.argv.slice(2)
  const boot = args.includes('--boot')
  const runs = bounded(flag(args, 'runs', '3'), 1, 20, 'runs')
  const nodeFlags = flag(args, 'node-flags', '').split(' ').filter((f) => f !== '')
  const specs: Spec[] = args.filter((a) => !a.startsWith('--')).map((a) => {
    const at = a.indexOf('=')
    if (at <= 0) throw new Error(`instructions: '${a}' is not name=path/to/script.js`)
    return { name: a.slice(0, at), script: a.slice(at + 1) }
  })
  if (specs.length === 0) throw new Error('instructions: give one or more name=path/to/script.js')
  const spawned = spawnSync('valgrind', ['--version'], { encoding: 'utf8' })
  if (spawned.status !== 0) throw new Error('instructions: valgrind is not installed')
  let measure: (spec: Spec) => Promise<number>
  let unit: string
  if (boot) {
    const bootArgs = flag(args, 'boot-args', '1000 distinct').split(' ').filter((a) => a !== '')
    measure = (spec) => countBoot(spec, bootArgs, nodeFlags)
    unit = `instructions per boot process (${bootArgs.join(' ')})`
  } else {
    const endpoint = ENDPOINTS.find((e) => e.id === flag(args, 'endpoint', 'items'))
    if (endpoint === undefined) throw new Error(`instructions: unknown --endpoint; choose from ${ENDPOINTS.map((e) => e.id).join(', ')}`)
    const warmup = bounded(flag(args, 'warmup', '2000'), 0, 1_000_000, 'warmup')
    const requests = bounded(flag(args, 'requests', '5000'), 1, 1_000_000, 'requests')
    measure = (spec) => countRequests(spec, endpoint, warmup, requests, nodeFlags)
    unit = `instructions per request on ${endpoint.id} (${requests} after ${warmup})`
  }
  process.stdout.write(`${unit}, ${runs} runs, order rotated each run\n`)
  const counts = new Map<string, number[]>(specs.map((s) => [s.name, []]))
  for (let run = 0; run < runs; run++) {
    const order = specs.map((_, i) => specs[(i + run) % specs.length])
    for (const spec of order) {
      const n = await measure(spec)
      counts.get(spec.name)!.push(n)
      // Each count as it comes: a run of several servers under valgrind takes minutes on a busy host.
      process.stdout.write(`run ${run + 1}: ${spec.name} ${formatted(n, boot)}\n`)
    }
  }
  const first = counts.get(specs[0].name)!
  for (const spec of specs) {
    const s = summarizeCounts(counts.get(spec.name)!, spec === specs[0] ? null : first)
    const vsFirst = s.ratios === null ? '' : `, ÷ ${specs[0].name} ${medianRatio(s.ratios).toFixed(4)} [${Math.min(...s.ratios).toFixed(4)}-${Math.max(...s.ratios).toFixed(4)}]`
    process.stdout.write(`${spec.name}: median ${formatted(s.median, boot)} [${formatted(s.min, boot)}-${formatted(s.max, boot)}], spread ${(s.spread * 100).toFixed(2)}%${vsFirst}\n`)
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`)
  process.exit(1)
})
