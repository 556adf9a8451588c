// bootProfile()'s CPU clock on an eager boot: the queued builds run back to back, so one reading ends
// a build and starts the next (boot/lap-clock.ts). The figures must keep their meaning: each route is
// charged what its own builds cost, never a warning logged between two of them.
import { expect } from 'chai'
import { recordingLogger, server } from '../support/servers'
import type { Scope } from '../../src'

type Usage = { user: number; system: number }
const proc = process as unknown as { cpuUsage: (previous?: Usage) => Usage; threadCpuUsage?: () => Usage }

/** Runs `boot` with a CPU clock that only `advance` moves, counting its reads. */
async function withFakeCpuClock(boot: (advance: (ms: number) => void) => Promise<void>): Promise<{ reads: number }> {
  let micros = 1_000_000
  let reads = 0
  const clock = (): Usage => { reads++; return { user: micros, system: 0 } }
  const ownCpuUsage = Object.getOwnPropertyDescriptor(proc, 'cpuUsage')
  const ownThread = Object.getOwnPropertyDescriptor(proc, 'threadCpuUsage')
  proc.cpuUsage = clock
  if (proc.threadCpuUsage !== undefined) proc.threadCpuUsage = clock
  try {
    await boot((ms) => { micros += ms * 1000 })
  } finally {
    if (ownCpuUsage === undefined) delete (proc as { cpuUsage?: unknown }).cpuUsage
    else Object.defineProperty(proc, 'cpuUsage', ownCpuUsage)
    if (ownThread !== undefined) Object.defineProperty(proc, 'threadCpuUsage', ownThread)
  }
  return { reads }
}

const response = { 200: { type: 'object', properties: { id: { type: 'integer' } } } }
const handler = async (): Promise<Record<string, unknown>> => ({ id: 1 })

/** An ajv 6 keyword whose compile moves the fake clock by its value, in ms. */
function costKeyword(advance: () => (ms: number) => void): (ajv: unknown) => void {
  return (ajv) => {
    (ajv as { addKeyword: (name: string, def: unknown) => void }).addKeyword('costMs', {
      compile: (ms: number) => { advance()(ms); return () => true },
    })
  }
}

describe('bootProfile() CPU clock on an eager boot (issue 16)', () => {
  it('reads the CPU clock once per queued build, not twice', async () => {
    let app!: Scope
    const { reads } = await withFakeCpuClock(async () => {
      app = server()
      for (const url of ['/a', '/b', '/c']) {
        app.post(url, { schema: { body: { type: 'object', properties: { [url.slice(1)]: { type: 'string' } } }, response } }, handler)
      }
      await app.ready()
    })
    // Per route two reads around its own first-pass work; then six queued builds (a validator and a
    // serializer per route) back to back: one read to start, one at the end of each. Route by route
    // with two reads per build this was 3 x 2 + 6 x 2 = 18.
    expect(reads).to.equal(3 * 2 + 6 + 1)
    expect(app.bootProfile()).to.include({ compiledRoutes: 3 })
  })

  it('charges each route what its own queued builds cost, read by the shared readings', async () => {
    let advance: (ms: number) => void = () => {}
    let app!: Scope
    await withFakeCpuClock(async (move) => {
      advance = move
      app = server({ validator: { plugins: [costKeyword(() => advance)] } })
      app.post('/forty', { schema: { body: { type: 'object', costMs: 40 }, response } }, handler)
      app.post('/seven', { schema: { body: { type: 'object', costMs: 7 }, response } }, handler)
      app.post('/none', { schema: { body: { type: 'object', costMs: 0 }, response } }, handler)
      await app.ready()
    })
    const byUrl = Object.fromEntries(app.bootProfile().slowestRoutes.map((r) => [r.url, r.cpuMs]))
    expect(byUrl).to.deep.equal({ '/forty': 40, '/seven': 7, '/none': 0 })
    expect(app.bootProfile().totalCpuMs).to.equal(47)
  })

  it('does not charge the next route for a boot warning logged between two queued builds', async () => {
    const logger = recordingLogger()
    let advance: (ms: number) => void = () => {}
    const warn = logger.warn
    // Logging the warning costs 1,000 ms of fake CPU: no route compiled anything that moves the clock.
    logger.warn = (obj: unknown, msg?: string) => { advance(1000); warn(obj, msg) }
    let app!: Scope
    await withFakeCpuClock(async (move) => {
      advance = move
      app = server({ logger })
      app.post('/first', { schema: { body: { type: 'object', properties: { a: { type: 'string' } } }, response } }, handler)
      // Logs ENC_WARN_SCHEMA_UNIQUE_ITEMS_UNBOUNDED, queued between /first's and its own serializer.
      app.post('/warns', { schema: { body: { type: 'object', properties: { tags: { type: 'array', uniqueItems: true } } }, response } }, handler)
      app.post('/last', { schema: { body: { type: 'object', properties: { b: { type: 'string' } } }, response } }, handler)
      await app.ready()
    })
    expect(logger.entries.some((e) => e.level === 'warn' && e.obj.code === 'ENC_WARN_SCHEMA_UNIQUE_ITEMS_UNBOUNDED')).to.equal(true)
    const profile = app.bootProfile()
    expect(profile.slowestRoutes.map((r) => r.cpuMs)).to.deep.equal([0, 0, 0])
    expect(profile.totalCpuMs).to.equal(0)
  })
})
