// Runs the chosen Fastify test files, each in its own child process (run-file.ts), two at a
// time, each killed if it outlives its deadline. Used by the mocha suite and the report script.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { FileResult } from './results'

/** A file whose tests all time out would take tests x 3 s; no chosen file comes near this. */
const fileDeadlineMs = 90_000

export function runFile(file: string): Promise<FileResult> {
  const dir = mkdtempSync(path.join(tmpdir(), 'enclave-compat-'))
  const resultPath = path.join(dir, 'result.json')
  return new Promise<FileResult>((resolve) => {
    const child = spawn(process.execPath, [path.join(__dirname, 'run-file.js'), file, resultPath], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, NODE_ENV: 'test' },
    })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => { if (stderr.length < 4000) stderr += chunk.toString() })
    const timer = setTimeout(() => child.kill('SIGKILL'), fileDeadlineMs)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      let result: FileResult
      try {
        result = JSON.parse(readFileSync(resultPath, 'utf8')) as FileResult
      } catch {
        result = { file, loadError: `the runner wrote no result (exit ${String(code ?? signal)}): ${stderr.slice(0, 1000)}`, tests: [] }
      }
      rmSync(dir, { recursive: true, force: true })
      resolve(result)
    })
  })
}

/** Starts every file at once but runs at most `concurrency` children at a time; one promise per file. */
export function runFiles(files: readonly string[], concurrency = 2): Map<string, Promise<FileResult>> {
  const results = new Map<string, Promise<FileResult>>()
  const lanes: Array<Promise<unknown>> = Array.from({ length: concurrency }, () => Promise.resolve())
  files.forEach((file, index) => {
    const lane = index % concurrency
    const run = lanes[lane]!.then(() => runFile(file))
    lanes[lane] = run
    results.set(file, run)
  })
  return results
}
