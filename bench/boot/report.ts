/**
 * Runs inside a boot worker: builds the app (`build` resolves once it listens, with its server,
 * or with null for the compile floor, which does not serve), then prints one `BOOT <json>` line
 * with the time from creating the app to listening (wall clock, and CPU time, which a busy
 * machine does not inflate), the time since the process started (module loading included),
 * memory after a full GC, and how long the first request to the last route took: under lazy
 * compilation that request compiles its route.
 */
import type { Server } from 'node:http'
import { performance } from 'node:perf_hooks'
import { bootApp, BootApp, BootShape } from './routes'
import { firstRequest, serveExternalClient } from './first-request'

export const BOOT_PREFIX = 'BOOT '

export interface BootMeasurement {
  /** Wall clock from creating the app to listening. */
  readonly readyMs: number
  /** CPU time (user + system, all threads) over the same span. */
  readonly readyCpuMs: number
  readonly sinceStartMs: number
  readonly rssBytes: number
  readonly heapUsedBytes: number
  /** Wall clock of the first request to the last route (status checked), null when nothing listens. */
  readonly firstRequestMs: number | null
  /** CPU time of the process over that request (the in-process client's included). */
  readonly firstRequestCpuMs: number | null
  /** The server's own share of it: CPU from node's 'request' event to end() returning. */
  readonly firstRequestServerCpuMs: number | null
}

/**
 * BOOT_CLIENT=external (first-request-spread.ts): the worker prints `PORT <n>` once it listens
 * and another process sends the two requests; only the server's share is measured here.
 */
const EXTERNAL_CLIENT = process.env.BOOT_CLIENT === 'external'

export function measureBoot(build: (app: BootApp) => Promise<Server | null>): void {
  const count = Number(process.argv[2] ?? 1000)
  const app = bootApp(count, (process.argv[3] ?? 'distinct') as BootShape)
  const start = performance.now()
  const cpuStart = process.cpuUsage()
  const run = async (): Promise<BootMeasurement> => {
    const server = await build(app)
    const ready = performance.now()
    const cpu = process.cpuUsage(cpuStart)
    const gc = (globalThis as { gc?: () => void }).gc
    if (gc !== undefined) gc()
    const memory = process.memoryUsage()
    const first = server === null || EXTERNAL_CLIENT ? null : await firstRequest(server, app)
    const serverCpuMs = server === null ? null : first?.serverCpuMs ?? await serveExternalClient(server)
    server?.close()
    return { readyMs: ready - start, readyCpuMs: (cpu.user + cpu.system) / 1000, sinceStartMs: ready, rssBytes: memory.rss, heapUsedBytes: memory.heapUsed,
      firstRequestMs: first?.ms ?? null, firstRequestCpuMs: first?.cpuMs ?? null,
      firstRequestServerCpuMs: serverCpuMs }
  }
  run().then((result) => {
    process.stdout.write(`${BOOT_PREFIX}${JSON.stringify(result)}\n`)
    process.exit(0)
  }, (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack ?? error.message : String(error)}\n`)
    process.exit(1)
  })
}
