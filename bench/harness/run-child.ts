/**
 * Runs a helper program (wrk, the autocannon worker, a boot worker) to completion with a hard
 * time limit, and hands back what it printed. Every child the harness waits on goes through
 * here, so no run can hang the benchmark.
 */
import { spawn } from 'node:child_process'

export interface ChildOutput { code: number | null; stdout: string; stderr: string }

export function runChild(command: string, args: readonly string[], timeoutMs: number): Promise<ChildOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr = (stderr + chunk).slice(-8000) })
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${command} ${args.join(' ')}: killed after ${Math.round(timeoutMs / 1000)} s`))
    }, timeoutMs)
    child.once('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.once('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

/** The line of a crashed node process's stderr that says what went wrong (`Error: Cannot find module ...`). */
export function errorSummary(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l.length > 0)
  const thrown = lines.find((l) => /^([A-Z]\w*)?Error\b.*:/.test(l) || /^\[?ENC_ERR_/.test(l))
  return thrown ?? lines[lines.length - 1] ?? 'no output on stderr'
}
