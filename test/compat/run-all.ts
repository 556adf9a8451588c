// Runs the chosen Fastify test files, each in its own child process (run-file.ts), six at a
// time. Each child appends to a journal file; a watchdog kills a child whose journal stops growing (a test that starved the event loop):
// that test is failed as "hung", and a new child resumes the file at the next test.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { ChildMessage, FileResult, TestResult } from './results'
import { loadLimitMs, silenceLimitMs } from './run-file-limits'
import { fastifyTestDir } from './compat-files'


export async function runFile(file: string): Promise<FileResult> {
  const result: FileResult = { file, loadError: null, tests: [] }
  let start = 0
  for (;;) {
    const outcome = await runChild(file, start)
    result.loadError ??= outcome.loadError
    for (const [index, test] of outcome.results) result.tests[index] = test
    if (outcome.finished) break
    if (outcome.running === null) {
      result.loadError ??= `the runner stopped outside any test (exit ${String(outcome.exit)}): ${outcome.stderr.slice(0, 1000)}`
      break
    }
    const { index, name } = outcome.running
    result.tests[index] = { name, status: 'fail', failures: [`[${name}] hung the process (no event-loop turn for ${silenceLimitMs} ms); killed`], logged: [] }
    start = index + 1
  }
  result.tests = result.tests.filter((test) => test !== undefined)
  return result
}

interface ChildOutcome {
  loadError: string | null
  results: Map<number, TestResult>
  running: { index: number; name: string } | null
  finished: boolean
  stderr: string
  exit: string | number | null
}

function runChild(file: string, startIndex: number): Promise<ChildOutcome> {
  const outcome: ChildOutcome = { loadError: null, results: new Map(), running: null, finished: false, stderr: '', exit: null }
  const dir = mkdtempSync(path.join(tmpdir(), 'enclave-compat-'))
  const journal = path.join(dir, 'journal.jsonl')
  writeFileSync(journal, '')
  return new Promise((resolve) => {
    // Fastify's .taprc gives every file `node-arg: --allow-natives-syntax` (same-shape.test.js calls %HaveSameMap).
    const child = spawn(process.execPath, ['--allow-natives-syntax', path.join(__dirname, 'run-file.js'), file, String(startIndex), journal], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, NODE_ENV: 'test' },
      // Fastify's files read their own sources relative to the package root (`process.cwd() + '/test/...'`), as `npm test` runs them.
      cwd: path.dirname(fastifyTestDir),
    })
    child.stderr.on('data', (chunk: Buffer) => { if (outcome.stderr.length < 2000) outcome.stderr += chunk.toString() })
    // The watchdog: once the file has loaded (requiring it is synchronous and may be slow on a
    // loaded machine), the journal must grow at least once per silenceLimitMs; before, loadLimitMs.
    let size = 0
    let lastGrowth = Date.now()
    let loaded = false
    const poll = setInterval(() => {
      const now = statSync(journal).size
      if (now !== size) {
        size = now
        lastGrowth = Date.now()
        loaded ||= readFileSync(journal, 'utf8').includes('"kind":"loaded"')
      } else if (Date.now() - lastGrowth > (loaded ? silenceLimitMs : loadLimitMs)) {
        child.kill('SIGKILL')
      }
    }, 250)
    child.on('close', (code, signal) => {
      clearInterval(poll)
      outcome.exit = signal ?? code
      for (const line of readFileSync(journal, 'utf8').split('\n')) {
        if (line === '') continue
        const message = JSON.parse(line) as ChildMessage
        if (message.kind === 'loaded') outcome.loadError = message.loadError
        if (message.kind === 'start') outcome.running = { index: message.index, name: message.name }
        if (message.kind === 'result') {
          outcome.results.set(message.index, message.result)
          if (outcome.running?.index === message.index) outcome.running = null
        }
        if (message.kind === 'end') outcome.finished = true
      }
      rmSync(dir, { recursive: true, force: true })
      resolve(outcome)
    })
  })
}

/** Runs at most `concurrency` files at a time; one promise per file, in the given order. */
export function runFiles(files: readonly string[], concurrency = 6): Map<string, Promise<FileResult>> {
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
