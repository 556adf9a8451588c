// A SIGTERM to the cluster while its workers still boot stops them at once: the STOP message used
// to reach a worker that listened for it only after booting, so it was lost, the worker went on to
// listen, and only the primary's stopTimeout (SIGKILL) ended it (src/cluster/worker.ts).
import { expect } from 'chai'
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { freePort } from '../support/free-port'

const fixture = join(__dirname, '..', 'fixtures', 'slow-boot-cluster-app.js')
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

describe('startCluster: SIGTERM while a worker boots', function () {
  this.timeout(90_000)

  it('the booting worker exits without listening and the primary exits 0, long before stopTimeout (60 s) or the boot (40 s) would end', async () => {
    const port = await freePort()
    const primary = spawn(process.execPath, [fixture], { env: { ...process.env, PORT: String(port), BOOT_MS: '40000' }, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    primary.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString() })
    primary.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString() })
    const exited = new Promise<number | null>((resolve) => primary.once('exit', (code) => resolve(code)))
    let worker = 0
    try {
      // Bounded: a fresh node loading the whole dist takes seconds on a loaded machine.
      for (let i = 0; i < 1_500 && worker === 0; i++) {
        worker = Number(/BOOTING (\d+)/.exec(output)?.[1] ?? 0)
        if (worker === 0) await sleep(20)
      }
      expect(worker, `the worker never started booting; output:\n${output}`).to.be.greaterThan(0)
      const asked = Date.now()
      primary.kill('SIGTERM')
      const code = await Promise.race([exited, sleep(20_000).then(() => 'still running' as const)])
      expect(code, output).to.equal(0)
      expect(Date.now() - asked, 'time to stop').to.be.below(20_000)
      expect(output).to.include(`worker ${worker} stopping (asked by the primary) before it listened`)
      expect(output).to.not.include('LISTENING')
      // The worker is gone too, not orphaned by its primary.
      expect(() => process.kill(worker, 0)).to.throw()
    } finally {
      if (primary.exitCode === null && primary.signalCode === null) primary.kill('SIGKILL')
      if (worker !== 0) { try { process.kill(worker, 'SIGKILL') } catch { /* already gone */ } }
    }
  })

  it('a worker built and still in listen() when asked to stop closes the app (its providers are disposed), never serves, and exits 0', async () => {
    const port = await freePort()
    const primary = spawn(process.execPath, [fixture], { env: { ...process.env, PORT: String(port), LISTEN_MS: '40000' }, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    primary.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString() })
    primary.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString() })
    const exited = new Promise<number | null>((resolve) => primary.once('exit', (code) => resolve(code)))
    let worker = 0
    try {
      for (let i = 0; i < 1_500 && worker === 0; i++) {
        worker = Number(/LISTENING_SOON (\d+)/.exec(output)?.[1] ?? 0)
        if (worker === 0) await sleep(20)
      }
      expect(worker, `the worker never reached listen(); output:\n${output}`).to.be.greaterThan(0)
      primary.kill('SIGTERM')
      const code = await Promise.race([exited, sleep(20_000).then(() => 'still running' as const)])
      expect(code, output).to.equal(0)
      expect(output).to.include(`worker ${worker} stopping (asked by the primary) before it listened: closing the app without serving`)
      expect(output).to.include(`CLOSED ${worker}`)
      expect(output).to.not.match(/^LISTENING \d+/m)
    } finally {
      if (primary.exitCode === null && primary.signalCode === null) primary.kill('SIGKILL')
      if (worker !== 0) { try { process.kill(worker, 'SIGKILL') } catch { /* already gone */ } }
    }
  })
})
