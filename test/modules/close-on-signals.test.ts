// createApp(Root, { closeOnSignals: true }) in a real child process: SIGTERM/SIGINT close once
// and exit 0; a second signal while closing exits 128 + signal number (docs/operations.md, "Shutdown").
import { expect } from 'chai'
import type { ChildProcess } from 'node:child_process'
import { request } from 'node:http'
import { join } from 'node:path'
import 'reflect-metadata'
import { Get, Module, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { within } from '../support/raw-http'
import { until } from '../support/until'
import { startListening, type ListeningChild } from '../support/listening-child'

const fixture = join(__dirname, '..', 'fixtures', 'signal-app.js')

type Running = ListeningChild

const start = (env: Record<string, string> = {}): Promise<Running> => startListening(fixture, env, started)

function get(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, (res) => { res.resume(); res.once('end', () => resolve(res.statusCode ?? 0)) }).once('error', reject).end()
  })
}

const started: ChildProcess[] = []

describe('closeOnSignals: a real process (docs/operations.md, "Shutdown")', function () {
  this.timeout(60_000)

  afterEach(() => {
    // Only what this file started, by pid; normally every child has exited already.
    for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGKILL')
  })

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal}: lets the in-flight request finish, runs onClose and dispose once, exits 0`, async () => {
      const app = await start({ SLOW_MS: '300' })
      const slow = get(`${app.address}/slow`)
      await until(() => app.output().includes('EVENT slow started'), 'the slow request started', { ms: 10_000 })
      app.child.kill(signal)
      expect(await slow).to.equal(200)
      expect(await within(app.exited, 10_000, 'exit')).to.equal(0)
      const events = app.output().split('\n').filter((line) => line.startsWith('EVENT'))
      expect(events).to.deep.equal(['EVENT slow started', 'EVENT onClose', 'EVENT pool disposed'])
    })
  }

  it('a second signal while closing exits at once: 143 after SIGTERM, 130 after SIGINT', async () => {
    for (const [second, code] of [['SIGTERM', 143], ['SIGINT', 130]] as const) {
      const app = await start({ SLOW_MS: '20000' })
      const slow = get(`${app.address}/slow`).catch(() => 'reset')
      await until(() => app.output().includes('EVENT slow started'), 'the slow request started', { ms: 10_000 })
      app.child.kill('SIGTERM')
      // The first signal's close() is now waiting for /slow (20 s); the second must not wait.
      await new Promise((resolve) => setTimeout(resolve, 100))
      app.child.kill(second)
      expect(await within(app.exited, 5_000, 'exit after the second signal')).to.equal(code)
      expect(app.output()).to.not.contain('EVENT onClose')
      await slow
    }
  })
})

describe('closeOnSignals: in process', () => {
  it('adds one listener per signal while the app runs and removes them once it has closed', async () => {
    @Module({}) class Root {}
    const before = [process.listenerCount('SIGTERM'), process.listenerCount('SIGINT'), process.listenerCount('SIGHUP')]
    const app = await createApp(Root, { closeOnSignals: { signals: ['SIGTERM', 'SIGINT', 'SIGHUP'], exit: () => undefined } })
    expect([process.listenerCount('SIGTERM'), process.listenerCount('SIGINT'), process.listenerCount('SIGHUP')]).to.deep.equal(before.map((n) => n + 1))
    await app.close()
    expect([process.listenerCount('SIGTERM'), process.listenerCount('SIGINT'), process.listenerCount('SIGHUP')]).to.deep.equal(before)
  })

  it('calls the exit option with 0 once close() settled, instead of process.exit', async () => {
    @Module({}) class Root {}
    const codes: number[] = []
    let exited!: () => void
    const done = new Promise<void>((resolve) => { exited = resolve })
    await createApp(Root, { closeOnSignals: { signals: ['SIGUSR2'], exit: (code) => { codes.push(code); exited() } } })
    process.kill(process.pid, 'SIGUSR2')
    await within(done, 5_000, 'exit callback')
    expect(codes).to.deep.equal([0])
    expect(process.listenerCount('SIGUSR2')).to.equal(0)
  })

  it('shutdownDelay: the signal makes readiness fail at once while routes are still served; close() and the exit come after the delay', async () => {
    @Route() class Work { @Get('/work') work() { return { done: true } } }
    @Module({ controllers: [Work] }) class Root {}
    const codes: number[] = []
    let exited!: () => void
    const done = new Promise<void>((resolve) => { exited = resolve })
    const app = await createApp(Root, { health: true, return503OnClosing: true, closeOnSignals: { signals: ['SIGUSR2'], shutdownDelay: 2_000, exit: (code) => { codes.push(code); exited() } } })
    expect((await app.inject('/health/ready')).statusCode).to.equal(200)
    process.kill(process.pid, 'SIGUSR2')
    for (let i = 0; i < 200 && !app.closing; i++) await new Promise((resolve) => setTimeout(resolve, 5))
    expect((await app.inject('/health/ready')).json()).to.include({ statusCode: 503, code: 'ENC_ERR_HEALTH_CLOSING' })
    const work = await app.inject('/work')
    expect([work.statusCode, work.headers.connection]).to.deep.equal([200, 'close'])
    // close() has not begun: a request is not refused with 503 even where return503OnClosing is on.
    expect(codes).to.deep.equal([])
    await within(done, 10_000, 'exit callback')
    expect(codes).to.deep.equal([0])
    expect(process.listenerCount('SIGUSR2')).to.equal(0)
  })

  it('refuses closeOnSignals options it would silently ignore or misread: ENC_ERR_MODULE_SIGNAL_OPTIONS naming the root module', async () => {
    @Module({}) class Root {}
    const bad: Array<[unknown, string]> = [
      [{ shutdownDelai: 5_000 }, "unknown option 'shutdownDelai' (did you mean 'shutdownDelay'?)"],
      [{ shutdownDelay: '5s' }, 'shutdownDelay must be a whole number of milliseconds'],
      [{ shutdownDelay: -1 }, 'shutdownDelay must be a whole number of milliseconds'],
      [{ shutdownDelay: 1.5 }, 'shutdownDelay must be a whole number of milliseconds'],
      [{ shutdownDelay: 2 ** 31 }, 'shutdownDelay must be a whole number of milliseconds'],
      [{ signals: ['SIGTERMM'] }, 'signals must be a list of signal names'],
      [{ signals: 'SIGTERM' }, 'signals must be a list of signal names'],
    ]
    const listeners = process.listenerCount('SIGTERM')
    for (const [given, problem] of bad) {
      const error = await createApp(Root, { closeOnSignals: given as never }).then(() => null, (e: Error & { code?: string }) => e)
      expect(error?.code, JSON.stringify(given)).to.equal('ENC_ERR_MODULE_SIGNAL_OPTIONS')
      expect(error?.message).to.contain('createApp(Root, { closeOnSignals })').and.to.contain(problem)
    }
    expect(process.listenerCount('SIGTERM')).to.equal(listeners)
  })
})
