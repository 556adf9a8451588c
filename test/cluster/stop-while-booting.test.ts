// A SIGTERM to the cluster while its workers still boot stops them at once: the STOP message used
// to reach a worker that listened for it only after booting, so it was lost, the worker went on to
// listen, and only the primary's stopTimeout (SIGKILL) ended it (src/cluster/worker.ts).
import { expect } from 'chai'
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { freePort } from '../support/free-port'

const fixture = join(__dirname, '..', 'fixtures', 'slow-boot-cluster-app.js')
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** The fixture's primary on a free port with `env`, its output collected, and how to find and stop its worker. */
async function startPrimary(env: Record<string, string>) {
  const port = await freePort()
  const primary = spawn(process.execPath, [fixture], { env: { ...process.env, PORT: String(port), ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  primary.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString() })
  primary.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString() })
  const exited = new Promise<number | null>((resolve) => primary.once('exit', (code) => resolve(code)))
  /** The worker's pid once the fixture printed `marker` with it; 0 if it never did (bounded: a fresh node loading the whole dist takes seconds on a loaded machine). */
  const workerAt = async (marker: RegExp): Promise<number> => {
    for (let i = 0; i < 1_500; i++) {
      const pid = Number(marker.exec(output)?.[1] ?? 0)
      if (pid !== 0) return pid
      await sleep(20)
    }
    return 0
  }
  const stopAll = (worker: number): void => {
    if (primary.exitCode === null && primary.signalCode === null) primary.kill('SIGKILL')
    if (worker !== 0) { try { process.kill(worker, 'SIGKILL') } catch { /* already gone */ } }
  }
  return { primary, output: () => output, exited, workerAt, stopAll }
}

describe('startCluster: SIGTERM while a worker boots', function () {
  this.timeout(90_000)

  it('the booting worker exits without listening and the primary exits 0, long before stopTimeout (60 s) or the boot (40 s) would end', async () => {
    const { primary, output, exited, workerAt, stopAll } = await startPrimary({ BOOT_MS: '40000' })
    let worker = 0
    try {
      worker = await workerAt(/BOOTING (\d+)/)
      expect(worker, `the worker never started booting; output:\n${output()}`).to.be.greaterThan(0)
      const asked = Date.now()
      primary.kill('SIGTERM')
      const code = await Promise.race([exited, sleep(20_000).then(() => 'still running' as const)])
      const said = output()
      expect(code, said).to.equal(0)
      expect(Date.now() - asked, 'time to stop').to.be.below(20_000)
      expect(said).to.include(`worker ${worker} stopping (asked by the primary) before it listened`)
      expect(said).to.not.include('LISTENING')
      // The worker is gone too, not orphaned by its primary.
      expect(() => process.kill(worker, 0)).to.throw()
    } finally {
      stopAll(worker)
    }
  })

  it('a worker built and still in listen() when asked to stop closes the app (its providers are disposed), never serves, and exits 0', async () => {
    const { primary, output, exited, workerAt, stopAll } = await startPrimary({ LISTEN_MS: '40000' })
    let worker = 0
    try {
      worker = await workerAt(/LISTENING_SOON (\d+)/)
      expect(worker, `the worker never reached listen(); output:\n${output()}`).to.be.greaterThan(0)
      primary.kill('SIGTERM')
      const code = await Promise.race([exited, sleep(20_000).then(() => 'still running' as const)])
      const said = output()
      expect(code, said).to.equal(0)
      expect(said).to.include(`worker ${worker} stopping (asked by the primary) before it listened: closing the app without serving`)
      expect(said).to.include(`CLOSED ${worker}`)
      expect(said).to.not.match(/^LISTENING \d+/m)
    } finally {
      stopAll(worker)
    }
  })
})
