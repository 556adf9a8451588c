// A rolling deploy as Kubernetes runs one: SIGTERM reaches a real process (createApp with
// closeOnSignals and health) while a bounded load loop keeps requests in flight over keep-alive
// sockets (docs/operations.md, "Shutdown", docs/deploy.md "Kubernetes"). What a client must never see is a
// failure it cannot retry: an accepted request cut, or a 5xx other than 503.
import { expect } from 'chai'
import type { ChildProcess } from 'node:child_process'
import { get } from 'node:http'
import { join } from 'node:path'
import { keepAliveLoad, tally, type Outcome } from '../support/keep-alive-load'
import { within } from '../support/raw-http'
import { startListening, type ListeningChild } from '../support/listening-child'

const fixture = join(__dirname, '..', 'fixtures', 'rolling-app.js')
const started: ChildProcess[] = []

type Running = ListeningChild

const start = (env: Record<string, string>): Promise<Running> => startListening(fixture, env, started)

/** GET /health/ready on a fresh connection every 50 ms until `stop` settles (at most 400 probes). */
function probeReadiness(address: string, stop: Promise<unknown>): Promise<Array<{ result: number | string, at: number }>> {
  const seen: Array<{ result: number | string, at: number }> = []
  let done = false
  void stop.then(() => { done = true })
  return (async () => {
    for (let i = 0; i < 400 && !done; i++) {
      const result = await new Promise<number | string>((resolve) => {
        get(`${address}/health/ready`, { agent: false }, (res) => { res.resume(); res.once('end', () => resolve(res.statusCode ?? 0)) })
          .once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
      })
      seen.push({ result, at: Date.now() })
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    return seen
  })()
}

/** The `time` of the child's pino line whose msg contains `text`. */
function logTime(output: string, text: string): number {
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue
    const entry = JSON.parse(line) as { time: number, msg: string }
    if (entry.msg.includes(text)) return entry.time
  }
  throw new Error(`no log line with '${text}' in: ${output}`)
}

/**
 * No request the server read was lost: it answered every request it started (its own counts,
 * printed at close), and the clients got each of those answers. Every other outcome is a
 * connection error on a request the server never read: ECONNREFUSED once the listener has
 * closed, ECONNRESET on a kept-alive socket closed as the client reused it (Node's docs:
 * retry when `request.reusedSocket`), or ECONNRESET on a new connection still in the
 * listener's accept queue when it closed (the kernel resets those; as with Fastify or nginx,
 * shutdownDelay is what keeps a balancer from sending them).
 */
function expectNothingLost(outcomes: readonly Outcome[], output: string): void {
  const summary = JSON.stringify(tally(outcomes))
  const counts = /COUNTS (\d+) (\d+)/.exec(output)
  expect(counts, output).to.not.equal(null)
  const [started, completed] = [Number(counts![1]), Number(counts![2])]
  expect(completed, `the server started ${started} requests and answered ${completed}`).to.equal(started)
  const answered = outcomes.filter((o) => o.status !== undefined)
  expect(answered.length, summary).to.equal(completed)
  expect(answered.filter((o) => o.status !== 200 && o.status !== 503), summary).to.deep.equal([])
  expect(outcomes.filter((o) => o.error !== undefined && o.error !== 'ECONNREFUSED' && o.error !== 'ECONNRESET'), summary).to.deep.equal([])
}

describe('rolling shutdown: SIGTERM under keep-alive load in a real process (docs/operations.md, "Shutdown")', function () {
  this.timeout(60_000)

  afterEach(() => {
    // Only what this file started, by pid; normally every child has exited already.
    for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGKILL')
  })

  it('without shutdownDelay: in-flight requests finish with Connection: close, no request the server read is lost, new connections are refused, exit 0', async () => {
    const app = await start({ WORK_MS: '100' })
    let signalledAt = 0
    const outcomes = await keepAliveLoad({
      url: `${app.address}/work`, total: 200, concurrency: 8, deadlineMs: 15_000,
      after: { count: 24, run: () => { signalledAt = Date.now(); app.child.kill('SIGTERM') } },
    })
    expect(await within(app.exited, 10_000, 'exit after SIGTERM')).to.equal(0)
    const summary = tally(outcomes)
    expectNothingLost(outcomes, app.output())
    // The requests in flight at the signal were answered, and told to leave the connection.
    expect(outcomes.filter((o) => o.at >= signalledAt && o.status === 200 && o.connection === 'close').length, JSON.stringify(summary)).to.be.greaterThan(0)
    // Once the listener is closed, new connections are refused (the balancer retries elsewhere).
    expect(summary.ECONNREFUSED ?? 0, JSON.stringify(summary)).to.be.greaterThan(0)
  })

  it('with shutdownDelay: readiness fails at once while every request is still served, on new connections too; then the listener closes and the process exits 0', async () => {
    const delay = 1_500
    const app = await start({ WORK_MS: '20', SHUTDOWN_DELAY: String(delay) })
    let readiness: ReturnType<typeof probeReadiness> = Promise.resolve([])
    const outcomes = await keepAliveLoad({
      url: `${app.address}/work`, total: 800, concurrency: 8, deadlineMs: 15_000,
      after: { count: 40, run: () => { app.child.kill('SIGTERM'); readiness = probeReadiness(app.address, app.exited) } },
    })
    expect(await within(app.exited, 10_000, 'exit after SIGTERM')).to.equal(0)
    const summary = tally(outcomes)
    expectNothingLost(outcomes, app.output())
    const drainingFrom = logTime(app.output(), 'readiness fails now')
    // close() cannot start before the delay is over: until then nothing fails, not even a refused connection.
    const duringDelay = outcomes.filter((o: Outcome) => o.at < drainingFrom + delay)
    expect(duringDelay.filter((o) => o.status !== 200), JSON.stringify(summary)).to.deep.equal([])
    // Answers written while draining close their connection, so the next request opens a new one, which is served.
    const drained = duringDelay.filter((o) => o.at > drainingFrom && o.connection === 'close')
    expect(drained.filter((o) => !o.reused).length, JSON.stringify(summary)).to.be.greaterThan(0)
    // The readiness probe, on fresh connections, answers 503 during the delay (the listener still accepts).
    // (A probe sent with the signal may still be answered 200: the child has not handled it yet.)
    const probes = await readiness
    const firstFailing = probes.findIndex((p) => p.result === 503)
    expect(firstFailing, JSON.stringify(probes)).to.be.within(0, 1)
    const afterwards = probes.slice(firstFailing)
    expect(afterwards.filter((p) => p.result === 200), JSON.stringify(probes)).to.deep.equal([])
    expect(afterwards.filter((p) => p.at < drainingFrom + delay && p.result !== 503), JSON.stringify(probes)).to.deep.equal([])
  })
})
