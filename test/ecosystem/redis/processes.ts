// Child processes for the Redis tests: a real redis-server on a free loopback port, and the app;
// every wait bounded, every process stopped by its pid.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { freePort } from '../../support/free-port'

const startLimitMs = 10_000

/** The redis-server binary, or a failure that says how to install it: this test never skips. */
export function redisServerBinary(): string {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' })
  const path = found.stdout.trim()
  if (found.status !== 0 || path === '') {
    throw new Error('redis-server is not installed, so the two-process rate-limit test cannot run. ' +
      'Install it from the OS packages (Debian: apt-get update && apt-get install -y redis-server); .ci/run does this on CI.')
  }
  return path
}

export interface Child { process: ChildProcess; output: { text: string } }

export function start(command: string, args: string[]): Child {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  const output = { text: '' }
  child.stdout?.on('data', (chunk: Buffer) => { output.text += chunk.toString() })
  child.stderr?.on('data', (chunk: Buffer) => { output.text += chunk.toString() })
  return { process: child, output }
}

/** Resolves with the first match of `pattern` in the child's output; rejects on exit or after the limit. */
export function waitForOutput(child: Child, pattern: RegExp, what: string): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const finish = (): void => { clearTimeout(timer); child.process.stdout?.removeListener('data', check); child.process.stderr?.removeListener('data', check); child.process.removeListener('exit', onExit) }
    const timer = setTimeout(() => { finish(); reject(new Error(`${what}: nothing within ${startLimitMs} ms; output:\n${child.output.text}`)) }, startLimitMs)
    const check = (): void => {
      const match = pattern.exec(child.output.text)
      if (match !== null) { finish(); resolve(match) }
    }
    const onExit = (code: number | null): void => { finish(); reject(new Error(`${what}: the process exited (${code}); output:\n${child.output.text}`)) }
    child.process.stdout?.on('data', check)
    child.process.stderr?.on('data', check)   // postgres (postgres/processes.ts) logs to stderr
    child.process.once('exit', onExit)
    check()
  })
}

/**
 * A redis-server of this test's own on a free loopback port, once it says it accepts connections.
 * The port was free a moment before redis-server binds it: when another process (another test
 * run on the machine) takes it first, this redis-server exits and another port is tried, where
 * waiting for the port alone would have used the other process's server.
 */
export async function startRedis(): Promise<{ child: Child; port: number }> {
  const binary = redisServerBinary()
  let lastError: unknown
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort()
    const child = start(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'])
    try {
      await waitForOutput(child, /Ready to accept connections/, `redis-server on 127.0.0.1:${port}`)
      return { child, port }
    } catch (error) {
      lastError = error
      await stop(child)
    }
  }
  throw lastError
}

/** SIGTERM by pid, then SIGKILL if it has not exited after the limit. */
export async function stop(child: Child | undefined): Promise<void> {
  if (child === undefined) return
  const proc = child.process
  if (proc.exitCode !== null || proc.signalCode !== null || proc.pid === undefined) return
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()))
  process.kill(proc.pid, 'SIGTERM')
  const timer = setTimeout(() => { if (proc.exitCode === null && proc.signalCode === null && proc.pid !== undefined) process.kill(proc.pid, 'SIGKILL') }, startLimitMs)
  await exited
  clearTimeout(timer)
}
