/**
 * The boot benchmark: time to ready and memory of an app with 1,000 routes that each have a body
 * and a response schema. Each measurement is a fresh process (bench/boot/<contender>.js), the
 * contenders alternate, medians are reported. Run by run.ts, or alone: `node dist/bench/boot.js`.
 */
import { join } from 'node:path'
import { tmpdir } from 'node:os'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { BOOT_PREFIX, BootMeasurement } from './boot/report'
import { pinned, detectPinning } from './harness/pinning'
import { runChild, errorSummary } from './harness/run-child'
import { median, rotate } from './harness/stats'
import { parseOptions, HELP } from './harness/options'
import { bootTable } from './harness/boot-table'
import { BOOT_SHAPES, type BootShape } from './boot/routes'
import { isCachedContender } from './boot/cache-directory'

// `raw` is the floor: the schemas compiled with ajv 6 and fast-json-stringify and nothing else.
// The `-lazy` rows are Enclave with schemaCompilation 'lazy'; the `-cached` rows read a schema
// cache (schemaCache option) that an unmeasured run of the same worker filled first.
export const BOOT_CONTENDERS: readonly string[] = [
  'enclave-runtime', 'enclave-runtime-cached', 'enclave-runtime-lazy', 'enclave-runtime-lazy-cached',
  'enclave-decorators', 'enclave-decorators-cached', 'enclave-decorators-lazy', 'fastify3', 'fastify5', 'raw',
]

/** The contender a `-lazy` / `-cached` row belongs to (what --only names). */
export function baseContender(name: string): string {
  return name.replace(/-cached$/, '').replace(/-lazy$/, '')
}
const RUN_TIMEOUT_MS = 120_000

/** The medians of a contender's boot runs: BootMeasurement's fields, each a median over `runs`. */
export interface BootSummary extends BootMeasurement {
  readonly runs: number
}

export interface BootReport {
  readonly routes: number
  readonly shape: BootShape
  readonly results: Record<string, { samples: BootMeasurement[]; median: BootSummary }>
  readonly skipped: Record<string, string>
}

export interface BootSettings {
  readonly contenders: readonly string[]
  readonly runs: number
  readonly routes: number
  readonly cpuList: string | null
  readonly log: (line: string) => void
}

async function bootOnce(name: string, routes: number, shape: BootShape, cpuList: string | null, cacheDirectory: string): Promise<BootMeasurement> {
  const script = join(__dirname, 'boot', `${name}.js`)
  if (!existsSync(script)) throw new Error(`${script} does not exist (did the build emit it?)`)
  const [command, args] = pinned(cpuList, process.execPath, ['--expose-gc', script, String(routes), shape, ...(isCachedContender(name) ? [cacheDirectory] : [])])
  const out = await runChild(command, args, RUN_TIMEOUT_MS)
  const line = out.stdout.split('\n').find((l) => l.startsWith(BOOT_PREFIX))
  if (out.code !== 0 || line === undefined) {
    throw new Error(`boot worker exited with code ${out.code}: ${errorSummary(out.stderr)}`)
  }
  return JSON.parse(line.slice(BOOT_PREFIX.length)) as BootMeasurement
}

function summarize(samples: readonly BootMeasurement[]): BootSummary {
  const m = (pick: (s: BootMeasurement) => number): number => median(samples.map(pick)) ?? 0
  const known = (values: (number | null)[]): number[] => values.filter((v): v is number => v !== null)
  return {
    runs: samples.length,
    readyMs: m((s) => s.readyMs),
    readyCpuMs: m((s) => s.readyCpuMs),
    sinceStartMs: m((s) => s.sinceStartMs),
    rssBytes: m((s) => s.rssBytes),
    heapUsedBytes: m((s) => s.heapUsedBytes),
    firstRequestMs: median(known(samples.map((s) => s.firstRequestMs))),
    firstRequestCpuMs: median(known(samples.map((s) => s.firstRequestCpuMs))),
    firstRequestServerCpuMs: median(known(samples.map((s) => s.firstRequestServerCpuMs))),
  }
}

/** Both shapes of the boot app, one report each. */
export async function runBoots(settings: BootSettings): Promise<BootReport[]> {
  const reports: BootReport[] = []
  for (const shape of BOOT_SHAPES) reports.push(await runBoot(settings, shape))
  return reports
}

export async function runBoot(settings: BootSettings, shape: BootShape): Promise<BootReport> {
  const samples: Record<string, BootMeasurement[]> = {}
  const skipped: Record<string, string> = {}
  // A `-lazy` row runs with its contender: --only=enclave-runtime brings enclave-runtime-lazy too.
  const names = BOOT_CONTENDERS.filter((n) => settings.contenders.includes(baseContender(n)))
  settings.log(`boot (${shape} schemas): ${settings.routes} schema routes, ${settings.runs} run(s) per contender`)
  // One cache directory per shape and layer (runtime API, decorators), shared by that layer's
  // -cached rows (the same app, the same entries), filled by one unmeasured run of the layer's
  // eager -cached worker before the first measured one.
  const cacheRoot = mkdtempSync(join(tmpdir(), `enclave-boot-cache-${shape}-`))
  const layerOf = (name: string): string => name.replace(/^enclave-/, '').replace(/-.*$/, '')
  const cacheDirectory = (name: string): string => join(cacheRoot, layerOf(name))
  const filled = new Set<string>()
  try {
    for (let run = 0; run < settings.runs; run++) {
      for (const name of rotate(names, run)) {
        if (skipped[name] !== undefined) continue
        try {
          if (isCachedContender(name) && !filled.has(layerOf(name))) {
            // The eager worker writes every route's functions (a lazy one would not).
            await bootOnce(`enclave-${layerOf(name)}-cached`, settings.routes, shape, settings.cpuList, cacheDirectory(name))
            filled.add(layerOf(name))
          }
          const sample = await bootOnce(name, settings.routes, shape, settings.cpuList, cacheDirectory(name))
          ;(samples[name] ??= []).push(sample)
          settings.log(`boot ${run + 1}/${settings.runs}  ${name.padEnd(27)} ready ${sample.readyMs.toFixed(0)} ms (CPU ${sample.readyCpuMs.toFixed(0)} ms)  rss ${(sample.rssBytes / 2 ** 20).toFixed(1)} MB`)
        } catch (error) {
          skipped[name] = (error as Error).message
          settings.log(`skip boot ${name}: ${(error as Error).message}`)
        }
      }
    }
  } finally {
    rmSync(cacheRoot, { recursive: true, force: true })
  }
  const results: BootReport['results'] = {}
  for (const name of names) if (samples[name] !== undefined) results[name] = { samples: samples[name], median: summarize(samples[name]) }
  return { routes: settings.routes, shape, results, skipped }
}

if (require.main === module) {
  const options = parseOptions(process.argv.slice(2))
  if (options === 'help') {
    console.log(HELP)
  } else {
    const { pinning } = detectPinning(options.pin)
    const log = (line: string): void => { process.stderr.write(`${line}\n`) }
    runBoots({ contenders: options.contenders, runs: options.bootRuns, routes: options.bootRoutes, cpuList: pinning?.serverCpus ?? null, log })
      .then((reports) => console.log(reports.map((report) => bootTable(report, 'fastify3')).join('\n\n')))
      .catch((error: Error) => {
        console.error(error.message)
        process.exitCode = 1
      })
  }
}
