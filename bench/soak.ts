/**
 * `npm run soak -- --seconds=600`: a long mixed valid/invalid load on an Enclave server in its
 * own process, to show that it keeps working and keeps nothing. The server (bench/soak/server.ts)
 * runs in a child process; this process drives the load on loopback with bounded concurrency
 * (bench/soak/load.ts), samples the child's RSS once a second, and prints start/peak/end RSS,
 * growth, requests, status counts and every error. Flags: --seconds=60 --concurrency=32 --seed=1.
 * Exit code 1 when any request hung, got an unexpected status, or the server did not close cleanly.
 */
import { fork, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { runLoad, type LoadTally } from './soak/load'
import { mib, procRss, signedMib, summarizeMemory, type MemorySample } from './soak/memory'
import type { SoakMessage } from './soak/server'

interface SoakOptions { seconds: number; concurrency: number; seed: number }

function parseOptions(argv: readonly string[]): SoakOptions {
  const options: SoakOptions = { seconds: 60, concurrency: 32, seed: 1 }
  const ranges: Record<keyof SoakOptions, readonly [number, number]> = { seconds: [1, 86_400], concurrency: [1, 1024], seed: [0, 2 ** 31] }
  for (const arg of argv) {
    const match = /^--(seconds|concurrency|seed)=(\d+)$/.exec(arg)
    if (match === null) throw new Error(`soak: unexpected argument '${arg}'; flags: --seconds=60 --concurrency=32 --seed=1`)
    const name = match[1] as keyof SoakOptions
    const value = Number(match[2])
    const [min, max] = ranges[name]
    if (value < min || value > max) throw new Error(`soak: --${name} must be from ${min} to ${max}, got ${value}`)
    options[name] = value
  }
  return options
}

/** The child's next message of `type`; rejects after `ms` or when the child exits first. */
function nextMessage(child: ChildProcess, type: SoakMessage['type'], ms: number): Promise<SoakMessage> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { cleanup(); reject(new Error(`soak: no '${type}' message from the server within ${ms} ms`)) }, ms)
    const onMessage = (message: SoakMessage): void => { if (message.type === type) { cleanup(); resolve(message) } }
    const onExit = (code: number | null): void => { cleanup(); reject(new Error(`soak: the server exited (${code}) while waiting for '${type}'`)) }
    const cleanup = (): void => { clearTimeout(timer); child.removeListener('message', onMessage); child.removeListener('exit', onExit) }
    child.on('message', onMessage)
    child.once('exit', onExit)
  })
}

async function memoryOf(child: ChildProcess, gc: boolean): Promise<SoakMessage> {
  const reply = nextMessage(child, 'memory', 10_000)
  child.send({ type: 'memory', gc })
  return reply
}

function counts(map: Record<string, number>): string {
  const entries = Object.entries(map).sort(([a], [b]) => a.localeCompare(b))
  return entries.length === 0 ? 'none' : entries.map(([key, n]) => `${key}: ${n.toLocaleString('en-US')}`).join(', ')
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2))
  const log = (line: string): void => { process.stdout.write(`${line}\n`) }
  const child = fork(join(__dirname, 'soak', 'server.js'), [], { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  try {
    const ready = await nextMessage(child, 'ready', 30_000)
    const pid = child.pid as number
    log(`soak: ${options.seconds} s, ${options.concurrency} connections, seed ${options.seed}; server pid ${pid} on 127.0.0.1:${ready.port}; node ${process.version}`)
    const before = await memoryOf(child, true)
    const samples: MemorySample[] = []
    const started = Date.now()
    let nextProgress = 60
    const sample = async (): Promise<void> => {
      const second = Math.round((Date.now() - started) / 1000)
      const rss = procRss(pid) ?? (await memoryOf(child, false)).memory?.rss ?? 0
      samples.push({ second, rssBytes: rss })
      // Timers drift: a progress line on crossing each minute, not on an exact second.
      if (second >= nextProgress) { log(`  ${second} s: RSS ${mib(rss)} MiB`); nextProgress += 60 }
    }
    await sample()
    const sampler = setInterval(() => { sample().catch((error: Error) => log(`  sample failed: ${error.message}`)) }, 1000)
    let tally: LoadTally
    try {
      tally = await runLoad({ port: ready.port as number, concurrency: options.concurrency, deadline: started + options.seconds * 1000, seed: options.seed, hangMs: 10_000 })
    } finally {
      clearInterval(sampler)
    }
    await sample()
    const after = await memoryOf(child, true)
    const elapsed = (Date.now() - started) / 1000
    const memory = summarizeMemory(samples, Math.min(30, Math.floor(options.seconds / 4)))
    log(`RSS (MiB): start ${mib(memory.start)}, after warm-up (${memory.warmSecond} s) ${mib(memory.warm)}, peak ${mib(memory.peak)} at ${memory.peakSecond} s, end ${mib(memory.end)}`)
    log(`growth (MiB): end - start ${signedMib(memory.end - memory.start)}, end - warm ${signedMib(memory.end - memory.warm)}; second-half slope ${signedMib(memory.secondHalfSlope)} MiB/min`)
    log(`heap used after GC (MiB): before the load ${mib(before.memory?.heapUsed ?? 0)}, after ${mib(after.memory?.heapUsed ?? 0)}; RSS after GC ${mib(after.memory?.rss ?? 0)}`)
    log(`requests answered: ${tally.done.toLocaleString('en-US')} in ${elapsed.toFixed(0)} s (${Math.round(tally.done / elapsed).toLocaleString('en-US')}/s); aborted on purpose: ${tally.aborted.toLocaleString('en-US')}; hangs: ${tally.hangs}`)
    log(`statuses: ${counts(tally.statuses)}`)
    log(`unexpected statuses: ${counts(tally.unexpected)}`)
    log(`errors: ${counts(tally.errors)}`)
    log(`requests in flight after the load (onRequest minus onResponse/onRequestAbort): ${after.inFlight}`)
    const closed = nextMessage(child, 'closed', 15_000).then(() => true, () => false)
    child.send({ type: 'close' })
    const clean = await closed
    if (!clean) child.kill('SIGKILL')
    log(`server close: ${clean ? 'closed cleanly' : 'did NOT close within 15 s (killed)'}, exit code ${await exited}`)
    if (!clean || tally.hangs > 0 || Object.keys(tally.unexpected).length > 0 || Object.keys(tally.errors).length > 0 || after.inFlight !== 0) process.exitCode = 1
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  }
}

main().catch((error: Error) => {
  process.stderr.write(`${error.stack ?? error.message}\n`)
  process.exitCode = 1
})
