/**
 * `npm run bench`: the boot benchmark, then every contender under load, then one table of
 * medians with ratios to fastify 3.27.4 and to the raw node:http baseline, the targets, and a
 * JSON file of everything in bench/results/. Flags: `npm run bench -- --help`; reading the
 * table: bench/README.md.
 */
import { cpus } from 'node:os'
import { parseOptions, HELP, BenchOptions } from './harness/options'
import { CONTENDER_NAMES, REFERENCE, BASELINE, RUNTIME_API, SECOND_REFERENCE, BENCH_APPS, contendersOf } from './harness/contenders'
import { ENDPOINTS } from './harness/endpoints'
import { detectPinning } from './harness/pinning'
import { chooseRunner } from './harness/load'
import { startContenders, stopContenders, Lineup } from './harness/start-contenders'
import { runRounds, Samples } from './harness/rounds'
import { summarize, Row } from './harness/summary'
import { loadTable } from './harness/load-table'
import { bootTable } from './harness/boot-table'
import { targetLines } from './harness/targets'
import { writeResults } from './harness/results-file'
import { runBoots, BootReport } from './boot'

const log = (line: string): void => { process.stderr.write(`${line}\n`) }

/**
 * Each app's endpoints against its own processes (contenders.ts, BenchApp): the minimal app's
 * first, then the service app's; the lineups' skips and wrong answers are kept together.
 */
async function loadBench(options: BenchOptions, tool: ReturnType<typeof chooseRunner>, serverCpus: string | null,
  pinning: ReturnType<typeof detectPinning>['pinning']): Promise<{ lineup: Lineup; samples: Samples }> {
  const lineup: Lineup = { servers: [], skipped: {}, wrong: {} }
  const samples: Samples = {}
  for (const app of BENCH_APPS) {
    const endpoints = ENDPOINTS.filter((e) => e.app === app && options.endpoints.includes(e.id))
    const names = contendersOf(app, options.contenders)
    if (endpoints.length === 0 || names.length === 0) continue
    const part = await startContenders(names, endpoints, serverCpus, log, options.nodeFlags, app)
    try {
      Object.assign(samples, await runRounds(part, {
        endpoints,
        rounds: options.rounds,
        seconds: options.duration,
        warmupSeconds: options.warmup,
        prerunSeconds: options.prerun,
        settings: { runner: tool.run, pinning, connections: options.connections, pipelining: options.pipelining },
        log,
      }))
    } finally {
      await stopContenders(part)
      lineup.servers.push(...part.servers)
      for (const [name, why] of Object.entries(part.skipped)) lineup.skipped[app === 'minimal' ? name : `${name} (${app} app)`] = why
      Object.assign(lineup.wrong, part.wrong)
    }
  }
  return { lineup, samples }
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2))
  if (options === 'help') return console.log(HELP)
  const { pinning, note } = detectPinning(options.pin)
  const tool = options.skipLoad ? null : chooseRunner(options.tool)
  const setup = `node ${process.version}, ${cpus().length} CPU(s) ${cpus()[0]?.model.trim() ?? ''}; ${note}; ` +
    (tool === null ? 'no load runs' : `${tool.name}, ${options.connections} connections, pipelining ${options.pipelining}, ` +
      `${options.duration} s × ${options.rounds} round(s) after ${options.warmup} s warm-up` +
      (options.nodeFlags.length > 0 ? `; servers run with ${options.nodeFlags.join(' ')}` : ''))
  log(`Enclave benchmark: ${setup}`)

  const boot: BootReport[] = options.skipBoot ? []
    : await runBoots({ contenders: options.contenders, runs: options.bootRuns, routes: options.bootRoutes, cpuList: pinning?.serverCpus ?? null, log })
  let rows: Row[] = []
  let load: { lineup: Lineup; samples: Samples } | null = null
  if (tool !== null) {
    load = await loadBench(options, tool, pinning?.serverCpus ?? null, pinning)
    rows = summarize(load.samples, ENDPOINTS, CONTENDER_NAMES, [REFERENCE, SECOND_REFERENCE, BASELINE, RUNTIME_API])
  }

  const out: string[] = ['', `Enclave benchmark: ${setup}`, '']
  if (load !== null) {
    out.push(loadTable(rows, REFERENCE, SECOND_REFERENCE, BASELINE))
    for (const [name, why] of Object.entries(load.lineup.skipped)) out.push(`skipped ${name}: ${why.split('\n')[0]}`)
    for (const [key, why] of Object.entries(load.lineup.wrong)) out.push(`not measured ${key}: wrong answer: ${why}`)
    out.push('')
  }
  for (const report of boot) out.push(bootTable(report, REFERENCE), '')
  out.push(targetLines(rows, boot, REFERENCE, BASELINE))
  const file = writeResults({ date: new Date().toISOString(), setup, options, boot, load, medians: rows })
  out.push('', `full results: ${file}`)
  console.log(out.join('\n'))
}

main().catch((error: Error) => {
  console.error(error.message)
  process.exitCode = 1
})
