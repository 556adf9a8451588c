/**
 * Who is measured. Each contender is a server file in bench/servers/ started as its own process;
 * ratios are taken against REFERENCE (what Enclave must beat) and BASELINE (the practical limit).
 */
import { join } from 'node:path'

export interface Contender {
  readonly name: string
  /** True for the contenders the targets apply to. */
  readonly enclave: boolean
}

export const CONTENDERS: readonly Contender[] = [
  { name: 'enclave-decorators', enclave: true },
  { name: 'enclave-runtime', enclave: true },
  { name: 'fastify3', enclave: false },
  { name: 'fastify5', enclave: false },
  { name: 'express', enclave: false },
  { name: 'raw', enclave: false },
]

export const CONTENDER_NAMES: readonly string[] = CONTENDERS.map((c) => c.name)
export const REFERENCE = 'fastify3'
/** Shown next to the reference: what a new project picks today. */
export const SECOND_REFERENCE = 'fastify5'
export const BASELINE = 'raw'
/** What the decorator layer is compared with (its target: at most 3% more CPU per request). */
export const RUNTIME_API = 'enclave-runtime'

/**
 * Which app a contender's process serves: `minimal`, the nine endpoints' routes with the logger
 * off; `service`, a logged app with hooks (bench/servers/service/). An endpoint names its app,
 * and the harness starts one process per contender and app.
 */
export type BenchApp = 'minimal' | 'service'
export const BENCH_APPS: readonly BenchApp[] = ['minimal', 'service']

/** Who runs the service app: not express (no hooks of these kinds), not raw (no logger or hooks to compare). */
export const SERVICE_CONTENDERS: readonly string[] = ['enclave-decorators', 'enclave-runtime', 'fastify3', 'fastify5']

/** The compiled server file (dist/bench/servers/[service/]<name>.js), next to this compiled file's folder. */
export function serverScript(name: string, app: BenchApp = 'minimal'): string {
  return app === 'minimal' ? join(__dirname, '..', 'servers', `${name}.js`) : join(__dirname, '..', 'servers', app, `${name}.js`)
}

/** The contenders that serve `app`, in `names`' order. */
export function contendersOf(app: BenchApp, names: readonly string[]): string[] {
  return app === 'minimal' ? [...names] : names.filter((n) => SERVICE_CONTENDERS.includes(n))
}
