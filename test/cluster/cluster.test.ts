// startCluster() over real processes on loopback (docs/operations.md, "Scale-out"): 2 workers under a bounded
// autocannon load; a worker killed mid-load is respawned and no request fails after that; a
// rolling restart (SIGHUP) fails no request at all; SIGTERM drains and exits 0.
import { expect } from 'chai'
import { spawn, type ChildProcess } from 'node:child_process'
import { request } from 'node:http'
import { join } from 'node:path'
import { freePort } from '../support/free-port'
import { within } from '../support/raw-http'
import { until as untilHeld } from '../support/until'

const fixture = join(__dirname, '..', 'fixtures', 'cluster-app.js')

interface LoadResult { ok: number; lastOkAt: number; failures: Array<{ at: number; what: string }> }
type Tracker = { on(event: string, fn: (...args: any[]) => void): void }
type Autocannon = (options: Record<string, unknown>, done: (error: Error | null) => void) => Tracker
// autocannon ships no type declarations; this is the part of its API used here.
const autocannon = require('autocannon') as Autocannon

/** Bounded load: `seconds` of 8 keep-alive connections; every error and non-200 with its time. */
function load(url: string, seconds: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const result: LoadResult = { ok: 0, lastOkAt: 0, failures: [] }
    const tracker = autocannon({ url, connections: 8, duration: seconds, timeout: 5 }, (error) => (error === null ? resolve(result) : reject(error)))
    tracker.on('response', (_client: unknown, status: number) => {
      if (status === 200) { result.ok++; result.lastOkAt = Date.now() }
      else result.failures.push({ at: Date.now(), what: `status ${status}` })
    })
    tracker.on('reqError', (error: Error) => result.failures.push({ at: Date.now(), what: error.message }))
  })
}

function getPid(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { agent: false }, (res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => { body += chunk.toString() })
      res.once('end', () => resolve((JSON.parse(body) as { pid: number }).pid))
    }).once('error', reject).end()
  })
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

describe('startCluster: 2 workers over real processes on loopback', function () {
  this.timeout(60_000)
  let primary: ChildProcess
  let url: string
  let output = ''
  let stdout = ''
  const seenPids = new Set<number>()
  let exited: Promise<number | null>

  /** The pids of the LISTENING lines printed so far. */
  const listened = (): number[] => [...output.matchAll(/LISTENING (\d+)/g)].map((m) => Number(m[1]))
  // 25 s, not 10: each worker is a fresh node loading the whole dist, and on a loaded 2-core machine
  // (load ~28 here) the first two took longer than 10 s to listen (the primary had logged their
  // start). What these tests prove is the respawn and the rolling restart, not how fast a worker boots.
  const until = (what: string, condition: () => boolean): Promise<void> =>
    untilHeld(condition, () => `${what}; output:\n${output}`, { ms: 25_000, every: 20 })

  before(async () => {
    const port = await freePort()
    url = `http://127.0.0.1:${port}/`
    primary = spawn(process.execPath, [fixture], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] })
    primary.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString(); stdout += chunk.toString() })
    primary.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString() })
    exited = new Promise((resolve) => primary.once('exit', (code) => resolve(code)))
    await until('two workers listening', () => listened().length >= 2)
    for (const pid of listened()) seenPids.add(pid)
  })

  after(async () => {
    // Stop only what this test started: the primary, and any worker pid it reported.
    if (primary.exitCode === null && primary.signalCode === null) {
      primary.kill('SIGTERM')
      await within(exited, 10_000, 'primary exit').catch(() => primary.kill('SIGKILL'))
    }
    for (const pid of seenPids) { try { process.kill(pid, 'SIGKILL') } catch { /* already gone */ } }
  })

  it('a worker killed mid-load is respawned with a new pid; no request fails after the respawn', async () => {
    const running = load(url, 2.5)
    await sleep(500)
    const victim = listened()[0]
    const before = listened().length
    const killedAt = Date.now()
    process.kill(victim, 'SIGKILL')
    await until('the respawned worker to listen', () => listened().length > before)
    const respawnedAt = Date.now()
    const replacement = listened()[before]
    seenPids.add(replacement)
    const result = await running
    expect(replacement).to.not.equal(victim)
    // How many requests fit in the window depends on the machine (83 at load 19 here): judge that
    // the load ran and was still answered once the victim was gone, not a count.
    expect(result.ok, 'requests answered 200').to.be.greaterThan(10)
    expect(result.lastOkAt, 'a request answered 200 after the kill').to.be.greaterThan(killedAt)
    expect(result.failures.filter((f) => f.at > respawnedAt), 'failures after the respawn').to.deep.equal([])
    expect(output).to.match(new RegExp(`worker ${victim} exited \\(SIGKILL\\); respawning in \\d+ ms`))
  })

  // Keep-alive clients that ignore Connection: close (autocannon does) are the hard case: the
  // stopping worker's lingering close (src/cluster/linger.ts) is what keeps them reset-free.
  it('SIGHUP replaces both workers one by one under keep-alive load, with zero failed requests', async () => {
    const old = new Set(await Promise.all([getPid(url), getPid(url), getPid(url), getPid(url)]))
    const before = listened().length
    const running = load(url, 3)
    await sleep(500)
    primary.kill('SIGHUP')
    await until('the rolling restart', () => output.includes('rolling restart done'))
    for (const pid of listened().slice(before)) seenPids.add(pid)
    const result = await running
    expect(listened().length - before, 'new workers').to.equal(2)
    expect(result.failures, 'failed requests').to.deep.equal([])
    expect(result.ok, 'requests answered 200').to.be.greaterThan(10)
    const now = new Set(await Promise.all([getPid(url), getPid(url), getPid(url), getPid(url)]))
    expect([...now].filter((pid) => old.has(pid)), 'old workers still answering').to.deep.equal([])
  })

  it('SIGTERM drains every worker and the primary exits 0; each worker logs that it is stopping and why', async () => {
    const live = listened().slice(-2)
    primary.kill('SIGTERM')
    expect(await within(exited, 10_000, 'primary exit')).to.equal(0)
    for (const pid of seenPids) expect(() => process.kill(pid, 0), `worker ${pid} still alive`).to.throw()
    const stopping = stdout.split('\n').filter((line) => line.includes('"worker stopping')).map((line) => JSON.parse(line) as { pid: number, reason: string, msg: string })
    for (const pid of live) {
      expect(stopping.find((line) => line.pid === pid), `worker ${pid}'s stopping line in:\n${stdout}`)
        .to.include({ reason: 'asked by the primary', msg: 'worker stopping (asked by the primary): finishing in-flight requests' })
    }
  })

  it('the primary writes its lines to stdout as JSON in the shape of pino lines (a respawn at warn), next to the workers\' lines', () => {
    // The fixture's own LISTENING lines are neither; every other stdout line must parse.
    const lines = stdout.split('\n').filter((line) => line !== '' && !line.startsWith('LISTENING '))
    const all = lines.map((line) => JSON.parse(line) as { level: number, time: number, pid: number, hostname: string, name?: string, msg: string })
    const parsed = all.filter((line) => line.pid === primary.pid)
    expect(parsed.length).to.be.at.least(4)
    for (const line of parsed) {
      expect(line).to.include({ pid: primary.pid, name: 'enclave-cluster' })
      expect(line.time).to.be.a('number')
      expect(line.hostname).to.be.a('string')
    }
    const levelOf = (pattern: RegExp): number | undefined => parsed.find((line) => pattern.test(line.msg))?.level
    expect(levelOf(/^started 2 worker\(s\) on 127\.0\.0\.1:\d+$/)).to.equal(30)
    expect(levelOf(/^worker \d+ exited \(SIGKILL\); respawning in \d+ ms$/)).to.equal(40)
    expect(levelOf(/^rolling restart done$/)).to.equal(30)
    expect(levelOf(/^SIGTERM received, draining \d+ worker\(s\)$/)).to.equal(30)
  })
})
