/**
 * Benchmark options: `--name=value` flags, each with a `BENCH_<NAME>` environment fallback
 * (`--only=raw,fastify3` or `BENCH_ONLY=raw,fastify3`). Every number is range-checked so a
 * typo cannot start an hour-long run.
 */
import { CONTENDER_NAMES } from './contenders'
import { ENDPOINT_IDS } from './endpoints'

export type LoadTool = 'auto' | 'wrk' | 'autocannon'

export interface BenchOptions {
  duration: number
  warmup: number
  /** Seconds of unmeasured load right before each measured run (0: none, the default). */
  prerun: number
  rounds: number
  connections: number
  pipelining: number
  contenders: string[]
  endpoints: string[]
  tool: LoadTool
  pin: boolean
  skipBoot: boolean
  skipLoad: boolean
  bootRuns: number
  bootRoutes: number
  /** Node/V8 flags every load server starts with (`--node-flags="--max-semi-space-size=1"`); none by default. */
  nodeFlags: string[]
}

export const HELP = `npm run bench -- [flags]      (every flag also reads BENCH_<NAME>, e.g. BENCH_ROUNDS=5)
  --duration=2        seconds per measured run             --warmup=2       seconds of warm-up per contender and endpoint
  --rounds=7          rounds (contenders alternate)        --connections=50 --pipelining=1
  --prerun=0          seconds of unmeasured load before each measured run (a process slowed after an idle-time GC warms up again)
  --only=a,b          contenders: ${CONTENDER_NAMES.join(', ')}
  --endpoints=a,b     endpoints: ${ENDPOINT_IDS.join(', ')}
  --tool=auto         wrk | autocannon | auto (wrk when installed)
  --no-pin            do not pin server and load generator to different cores with taskset
  --skip-boot         no boot benchmark                    --skip-load      boot benchmark only
  --boot-runs=5       boot measurements per contender      --boot-routes=1000
  --node-flags="--a --b"  node flags for every load server (e.g. --max-semi-space-size=1: same young generation for all)
  --quick             duration 1, warmup 1, boot-runs 3 (explicit flags still win)`

type Raw = Map<string, string | true>

function readFlags(argv: readonly string[]): Raw {
  const flags: Raw = new Map()
  for (const arg of argv) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg)
    if (match === null) throw new Error(`bench: unexpected argument '${arg}'. Flags look like --rounds=3.\n${HELP}`)
    flags.set(match[1], match[2] ?? true)
  }
  return flags
}

/** The flag's value, else its BENCH_<NAME> variable; consumed, so leftovers are unknown flags. */
function take(flags: Raw, name: string): string | true | undefined {
  const value = flags.get(name)
  flags.delete(name)
  if (value !== undefined) return value
  const env = process.env[`BENCH_${name.toUpperCase().replace(/-/g, '_')}`]
  return env === undefined || env === '' ? undefined : env
}

function num(flags: Raw, name: string, fallback: number, min: number, max: number): number {
  const value = take(flags, name)
  if (value === undefined) return fallback
  const n = Number(value)
  if (!Number.isFinite(n) || n < min || n > max) throw new Error(`bench: --${name} must be a number from ${min} to ${max}, got '${value}'`)
  return n
}

function list(flags: Raw, name: string, known: readonly string[]): string[] {
  const value = take(flags, name)
  if (value === undefined || value === true) return [...known]
  const items = value.split(',').map((s) => s.trim()).filter((s) => s.length > 0)
  const unknown = items.filter((s) => !known.includes(s))
  if (unknown.length > 0) throw new Error(`bench: unknown --${name} '${unknown.join(', ')}'; choose from ${known.join(', ')}`)
  return known.filter((k) => items.includes(k))
}

/** Space-separated node flags; each must look like one (`--name` or `--name=value`), so a stray word fails here, not in every server. */
function nodeFlags(flags: Raw): string[] {
  const value = take(flags, 'node-flags')
  if (value === undefined || value === true) return []
  const items = value.split(' ').filter((s) => s.length > 0)
  const bad = items.filter((s) => !/^--[a-z0-9][a-z0-9_-]*(=\S+)?$/i.test(s))
  if (bad.length > 0) throw new Error(`bench: --node-flags takes node flags such as --max-semi-space-size=1, got '${bad.join(' ')}'`)
  return items
}

function bool(flags: Raw, name: string): boolean {
  const value = take(flags, name)
  return value !== undefined && value !== 'false' && value !== '0'
}

export function parseOptions(argv: readonly string[]): BenchOptions | 'help' {
  const flags = readFlags(argv)
  if (flags.has('help')) return 'help'
  const quick = bool(flags, 'quick')
  const tool = take(flags, 'tool') ?? 'auto'
  if (tool !== 'auto' && tool !== 'wrk' && tool !== 'autocannon') throw new Error(`bench: --tool must be wrk, autocannon or auto, got '${tool}'`)
  const options: BenchOptions = {
    duration: num(flags, 'duration', quick ? 1 : 2, 1, 120),
    warmup: num(flags, 'warmup', quick ? 1 : 2, 0, 60),
    // Whole seconds: wrk's -d takes no fractions.
    prerun: Math.round(num(flags, 'prerun', 0, 0, 10)),
    rounds: Math.round(num(flags, 'rounds', quick ? 3 : 7, 1, 20)),
    connections: Math.round(num(flags, 'connections', 50, 1, 1000)),
    pipelining: Math.round(num(flags, 'pipelining', 1, 1, 16)),
    contenders: list(flags, 'only', CONTENDER_NAMES),
    endpoints: list(flags, 'endpoints', ENDPOINT_IDS),
    tool,
    pin: !bool(flags, 'no-pin'),
    skipBoot: bool(flags, 'skip-boot'),
    skipLoad: bool(flags, 'skip-load'),
    bootRuns: Math.round(num(flags, 'boot-runs', quick ? 3 : 5, 1, 20)),
    bootRoutes: Math.round(num(flags, 'boot-routes', 1000, 10, 10000)),
    nodeFlags: nodeFlags(flags),
  }
  const leftover = [...flags.keys()]
  if (leftover.length > 0) throw new Error(`bench: unknown flag --${leftover.join(', --')}\n${HELP}`)
  return options
}
