// The feature fuzz: a fixed seed, a few hundred generated sessions (fuzz-traffic.ts) written as
// raw bytes over loopback to the sample plus many features at once (fuzz-app.ts), pipelined,
// fragmented, slow, half-closed or cut. Every answer is judged against the error contract
// (fuzz-run.ts); after the run the server answers a normal request and has grown no listener,
// connection or file descriptor, and nothing was logged as an unhandled failure.
// The same sessions go over TLS too. `npm run fuzz -- --seeds=N --from=S [--tls=1]` runs more
// seeds on demand (bench/fuzz.ts).
import { readdirSync } from 'node:fs'
import { expect } from 'chai'
import { track, recordingLogger } from '../support/servers'
import { tlsCert, tlsKey } from '../support/tls'
import { FUZZ_SERVER_OPTIONS, fuzzApp } from './fuzz-app'
import { exchange, judge, notOurs } from './fuzz-run'
import { fuzzSession } from './fuzz-traffic'

const SEED = 0xf12_0000
const SESSIONS = 400
const TLS_SESSIONS = 120
const PARALLEL = 12


const fds = (): number => readdirSync('/proc/self/fd').length
const listenerCounts = (emitter: NodeJS.EventEmitter): Record<string, number> =>
  Object.fromEntries(emitter.eventNames().map((name) => [String(name), emitter.listenerCount(name)]))
const PROCESS_EVENTS = ['uncaughtException', 'unhandledRejection', 'warning', 'exit', 'SIGTERM', 'SIGINT']

describe('hardening: feature fuzz over raw TCP (seeded, bounded)', function () {
  this.timeout(60_000)

  it(`${SESSIONS} generated sessions against the sample and every feature: each answer keeps the error contract, and the process stays healthy`, () => fuzzRun(SESSIONS, false))

  // The same grammar over TLS: the mutations reach Node's HTTP parser through the TLS layer
  // (records split and merged anew), and the connection accounting is that of TLS sockets.
  it(`${TLS_SESSIONS} more over TLS (https): the same contract, the same health afterwards`, () => fuzzRun(TLS_SESSIONS, true))
})

async function fuzzRun(sessions: number, secure: boolean): Promise<void> {
  {
    const logger = recordingLogger()
    const { app, port } = await fuzzApp({ ...FUZZ_SERVER_OPTIONS, logger, ...(secure ? { https: { key: tlsKey, cert: tlsCert } } : {}) })
    track(app)
    const processListeners = PROCESS_EVENTS.map((e) => process.listenerCount(e))
    const unhandled: unknown[] = []
    const record = (error: unknown): void => { unhandled.push(error) }
    process.on('unhandledRejection', record)
    // Warm the process (first compiles, lazy requires) before taking the resource baseline.
    await exchange(port, fuzzSession(SEED - 1), secure)
    const before = { fds: fds(), server: listenerCounts(app.server), process: processListeners }
    const failures: string[] = []
    const statuses = new Map<number, number>()
    let next = 0
    let pipelined = 0
    let upgraded = 0
    try {
      await Promise.all(Array.from({ length: PARALLEL }, async () => {
        while (next < sessions) {
          const session = fuzzSession(SEED + (secure ? 100_000 : 0) + next++)
          const verdict = judge(session, await exchange(port, session, secure))
          for (const answer of verdict.answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
          if (verdict.answers.length > 1) pipelined++
          if (verdict.upgraded) upgraded++
          // judge() leaves a first request closed on without an answer out of its violations (it is
          // counted by npm run fuzz): none happens under these seeds, so one is a regression.
          if (verdict.silentClose && failures.length < 10) failures.push(`seed ${session.seed} ${session.delivery} ${JSON.stringify(session.bytes.subarray(0, 160).toString('latin1'))}: the first request was closed on without an answer`)
          if (verdict.violations.length > 0 && failures.length < 10) failures.push(`seed ${session.seed} ${session.delivery} ${JSON.stringify(session.bytes.subarray(0, 160).toString('latin1'))}: ${verdict.violations.join('; ')}`)
        }
      }))
    } finally {
      process.off('unhandledRejection', record)
    }
    expect(failures, failures.join('\n')).to.deep.equal([])
    expect(unhandled, String(unhandled[0])).to.deep.equal([])

    // Still serving, with nothing left over from the run.
    const after = await exchange(port, fuzzSession(SEED - 1), secure)
    expect(after.received.toString('latin1')).to.match(/^HTTP\/1\.1 /)
    let connections = -1
    // Up to 5 s for the server to see the clients' closes: a loaded CI machine may take more than 1 s.
    for (let i = 0; i < 250 && connections !== 0; i++) {
      connections = await new Promise<number>((resolve) => app.server.getConnections((_e, n) => resolve(n)))
      if (connections !== 0) await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(connections, 'open connections after the run').to.equal(0)
    expect(listenerCounts(app.server)).to.deep.equal(before.server)
    expect(PROCESS_EVENTS.map((e) => process.listenerCount(e))).to.deep.equal(before.process)
    expect(fds(), 'file descriptors after the run').to.be.at.most(before.fds + 2)
    // Nothing logged at error level but what is not the framework's (fuzz-run.ts).
    const errors = logger.entries.filter((e) => e.level === 'error' && !notOurs((e.obj?.err ?? e.obj) as Error & { code?: string }))
    expect(errors.map((e) => e.msg ?? JSON.stringify(e.obj).slice(0, 200))).to.deep.equal([])

    // The grammar reached handlers, refusals, pipelines and upgrades.
    const seen = [...statuses.keys()].sort()
    expect(seen.filter((s) => s < 300).length, seen.join(',')).to.be.at.least(3)
    expect(seen.filter((s) => s >= 400).length, seen.join(',')).to.be.at.least(8)
    expect(pipelined, 'sessions with several answers').to.be.above(sessions / 10)
    expect(upgraded, 'websocket upgrades').to.be.above(0)
  }
}
