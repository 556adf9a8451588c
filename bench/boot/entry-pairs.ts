/**
 * The boot table's app booted from different builds of Enclave, alternating, in fresh processes:
 * which build a user loads changes what booting costs, even where the code that runs is the same.
 *
 *   node dist/bench/boot/entry-pairs.js --entries=<file>,<file>[,...] [--pairs=10] [--shape=shared] [--eager] [--stub-compilers]
 *
 * Each entry is a file exporting `createServer`: this repo's `dist/src/runtime/index.js` (what the
 * boot table's workers load), the package's `dist/src/index.js` per file (tsc), or the bundled
 * package (`npm run build:package`, what `require('enclave')` loads from the tarball). Per entry:
 * CPU to listening and the first request's CPU (as the boot table measures them) with medians, each
 * entry's ratio to the first entry per round (median and range), and how many garbage collections
 * ran inside the window from creating the app to listening (scavenges, mark-compacts), since that is
 * where loading more code shows (session 19): a mark-compact that lands inside the window costs a
 * lazy `shared` boot 10-25 ms of CPU, and whether it lands there depends on what was allocated
 * while modules loaded, not on the work the window does.
 *
 * `--stub-compilers` (session 20): ajv 6's `compile` and fast-json-stringify, as each entry
 * resolves them, return trivial functions, so the window holds Enclave's own boot work (copies,
 * checks, warnings, cache keys, glue, routing) and ajv's instance: a change of 10 ms there is
 * ~6% of it instead of ~1.5% of an eager `distinct` boot, inside this machine's pair noise.
 */
import { execFileSync } from 'node:child_process'
import { constants, PerformanceObserver } from 'node:perf_hooks'
import { dirname, resolve } from 'node:path'
import { median } from '../harness/stats'
import { bootApp, bootReply, type BootShape } from './routes'
import { firstRequest } from './first-request'

interface Sample {
  readonly readyCpuMs: number
  readonly firstRequestCpuMs: number
  readonly scavenges: number
  readonly markCompacts: number
}

function flag(name: string, fallback: string): string {
  const arg = process.argv.find((a) => a.startsWith(`--${name}=`))
  return arg === undefined ? fallback : arg.slice(name.length + 3)
}

/** One fresh process: the lazy (or eager) app from `entry`, to listening, then its first request. */
async function worker(entry: string, shape: BootShape, eager: boolean, stub: boolean): Promise<Sample> {
  if (stub) stubCompilers(entry)
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createServer } = require(entry) as typeof import('../../src/runtime')
  const app = bootApp(1000, shape)
  let counting = false
  let scavenges = 0
  let markCompacts = 0
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (!counting) continue
      const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) scavenges++
      else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) markCompacts++
    }
  })
  observer.observe({ entryTypes: ['gc'] })
  counting = true
  const cpuStart = process.cpuUsage()
  const server = createServer({ logger: false, schemaCompilation: eager ? 'eager' : 'lazy' })
  for (const schema of app.shared) server.addSchema(schema as never)
  for (const r of app.routes) server.post(r.url, { schema: { body: r.body, response: { 200: r.response } } }, () => bootReply)
  await server.listen({ port: 0, host: '127.0.0.1' })
  const cpu = process.cpuUsage(cpuStart)
  // GC entries are delivered asynchronously: let those of the window arrive before counting stops.
  await new Promise((done) => setTimeout(done, 20))
  counting = false
  observer.disconnect()
  const first = await firstRequest(server.server, app)
  await server.close()
  return { readyCpuMs: (cpu.user + cpu.system) / 1000, firstRequestCpuMs: first.cpuMs, scavenges, markCompacts }
}

/**
 * ajv 6 and fast-json-stringify as `entry` resolves them, their compilers made trivial before
 * the entry loads them: the validator accepts everything, the serializer writes `{}`.
 */
function stubCompilers(entry: string): void {
  const paths = [dirname(entry)]
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Ajv = require(require.resolve('ajv', { paths })) as { prototype: { compile: (schema: unknown) => unknown } }
  Ajv.prototype.compile = () => function validate(): boolean { return true }
  const fjs = require.resolve('fast-json-stringify', { paths })
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  require(fjs)
  const serialize = (): string => '{}'
  require.cache[fjs]!.exports = Object.assign(() => serialize, { default: () => serialize })
}

function main(): void {
  const shape = flag('shape', 'shared') as BootShape
  const eager = process.argv.includes('--eager')
  const stub = process.argv.includes('--stub-compilers')
  if (process.argv.includes('--worker')) {
    worker(flag('entry', ''), shape, eager, stub).then((sample) => { process.stdout.write(`${JSON.stringify(sample)}\n`) }, (error: unknown) => {
      process.stderr.write(`${String(error)}\n`)
      process.exit(1)
    })
    return
  }
  const entries = flag('entries', '').split(',').filter((e) => e !== '').map((e) => resolve(e))
  if (entries.length === 0) throw new Error('give --entries=<file>[,<file>...]: files exporting createServer')
  const pairs = Number(flag('pairs', '10'))
  const samples: Sample[][] = entries.map(() => [])
  for (let round = 0; round < pairs; round++) {
    const order = entries.map((_, i) => i)
    if (round % 2 === 1) order.reverse()
    for (const i of order) {
      const out = execFileSync(process.execPath, [__filename, '--worker', `--entry=${entries[i]}`, `--shape=${shape}`, ...(eager ? ['--eager'] : []), ...(stub ? ['--stub-compilers'] : [])],
        { encoding: 'utf8', timeout: 120_000 })
      samples[i].push(JSON.parse(out.trim().split('\n').pop()!) as Sample)
    }
  }
  const fixed = (n: number | null, digits: number): string => (n === null ? '-' : n.toFixed(digits))
  process.stdout.write(`${eager ? 'eager' : 'lazy'} ${shape}${stub ? ' (compilers stubbed)' : ''}, ${pairs} alternating rounds of fresh processes; CPU ms, medians\n`)
  entries.forEach((entry, i) => {
    const s = samples[i]
    const ratios = s.map((x, k) => x.readyCpuMs / samples[0][k].readyCpuMs).sort((a, b) => a - b)
    const vsFirst = i === 0 ? '' : `  ÷first ${fixed(median(ratios), 3)} [${fixed(ratios[0], 3)}-${fixed(ratios[ratios.length - 1], 3)}]`
    process.stdout.write(`  ${entry}\n    to listening ${fixed(median(s.map((x) => x.readyCpuMs)), 1)}  first request ${fixed(median(s.map((x) => x.firstRequestCpuMs)), 2)}` +
      `  in the window: mark-compacts ${s.map((x) => x.markCompacts).join('')}, scavenges ${fixed(median(s.map((x) => x.scavenges)), 0)}${vsFirst}\n`)
  })
}

main()
