/**
 * Starts one contender's server as a child process and waits for its READY line. A server that
 * exits or stays silent is a failed start, reported with the tail of its stderr so the cause
 * (say, a module that does not compile yet) is visible in the benchmark output.
 */
import { spawn, ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { serverScript, type BenchApp } from './contenders'
import { pinned } from './pinning'
import { READY_PREFIX } from '../servers/ready-line'
import { errorSummary } from './run-child'

const START_TIMEOUT_MS = 20_000
const STOP_TIMEOUT_MS = 5_000

export interface ServerHandle {
  readonly name: string
  readonly pid: number
  readonly port: number
  readonly alive: () => boolean
  readonly stop: () => Promise<void>
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () => new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS)
    child.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    child.kill('SIGTERM')
  })
}

/** `nodeFlags` go before the script (`--max-semi-space-size=1`): every contender gets the same ones. */
export function startServer(name: string, cpuList: string | null, nodeFlags: readonly string[] = [], app: BenchApp = 'minimal'): Promise<ServerHandle> {
  const script = serverScript(name, app)
  if (!existsSync(script)) return Promise.reject(new Error(`${script} does not exist (did the build emit it?)`))
  const [command, args] = pinned(cpuList, process.execPath, [...nodeFlags, script, '0'])
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => { stderr = (stderr + chunk).slice(-8000) })
  return new Promise((resolve, reject) => {
    const fail = (why: string): void => {
      clearTimeout(timer)
      child.kill('SIGKILL')
      reject(new Error(`${why}${stderr.trim() ? `: ${errorSummary(stderr)}` : ''}`))
    }
    const timer = setTimeout(() => fail(`no ${READY_PREFIX.trim()} line within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS)
    child.once('error', (error) => fail(`could not spawn: ${error.message}`))
    child.once('exit', (code, signal) => fail(`exited before ready (${signal ?? `code ${code}`})`))
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk
      const line = stdout.split('\n').find((l) => l.startsWith(READY_PREFIX))
      if (line === undefined) return
      clearTimeout(timer)
      child.removeAllListeners('exit')
      child.stdout!.removeAllListeners('data').resume()
      resolve({
        name,
        pid: child.pid!,
        port: Number(line.slice(READY_PREFIX.length)),
        alive: () => child.exitCode === null && child.signalCode === null,
        stop: stopper(child),
      })
    })
  })
}
