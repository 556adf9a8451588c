/**
 * Runs inside a boot worker: builds the app (`build` returns once it is ready), then prints one
 * `BOOT <json>` line with the time from creating the app to ready (wall clock, and CPU time,
 * which a busy machine does not inflate), the time since the process started (module loading
 * included), and memory after a full GC.
 */
import { performance } from 'node:perf_hooks'
import { bootApp, BootApp, BootShape } from './routes'

export const BOOT_PREFIX = 'BOOT '

export interface BootMeasurement {
  readonly readyMs: number
  /** CPU time (user + system, all threads) from creating the app to ready. */
  readonly readyCpuMs: number
  readonly sinceStartMs: number
  readonly rssBytes: number
  readonly heapUsedBytes: number
}

export function measureBoot(build: (app: BootApp) => Promise<unknown>): void {
  const count = Number(process.argv[2] ?? 1000)
  const routes = bootApp(count, (process.argv[3] ?? 'distinct') as BootShape)
  const start = performance.now()
  const cpuStart = process.cpuUsage()
  build(routes).then(() => {
    const ready = performance.now()
    const cpu = process.cpuUsage(cpuStart)
    const gc = (globalThis as { gc?: () => void }).gc
    if (gc !== undefined) gc()
    const memory = process.memoryUsage()
    const result: BootMeasurement = { readyMs: ready - start, readyCpuMs: (cpu.user + cpu.system) / 1000, sinceStartMs: ready, rssBytes: memory.rss, heapUsedBytes: memory.heapUsed }
    process.stdout.write(`${BOOT_PREFIX}${JSON.stringify(result)}\n`)
    process.exit(0)
  }, (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`)
    process.exit(1)
  })
}
