// Child-process entry: runs ONE Fastify test file against Enclave, appending each top-level
// test's start and result to a journal file as it goes. One process per file, like tap: Fastify's
// files install process listeners, fake timers and servers, and none of that may leak into mocha
// or the next file. If a test starves the event loop, the parent kills this process and starts
// another that skips the tests before `startIndex` (run-all.ts).
//   node dist/test/compat/run-file.js <file name> <startIndex> <journal path>
import path from 'node:path'
import { appendFileSync } from 'node:fs'
import { installRequireHook } from './require-hook'
import { fastifyTestDir } from './compat-files'
import type { ChildMessage, TestResult } from './results'
import { defaultTestTimeoutMs, heartbeatMs, maxTestTimeoutMs, quietMs } from './run-file-limits'

// Captured before any test file can install fake timers.
const realSetTimeout = setTimeout
const realClearTimeout = clearTimeout
const realSetImmediate = setImmediate
const realSetInterval = setInterval

let journal = ''

/** Appends one line to the journal synchronously: it must be on disk even if the next test starves the event loop. */
function send(message: ChildMessage): void {
  appendFileSync(journal, JSON.stringify(message) + '\n')
}

async function main(): Promise<void> {
  const [file, start, journalPath] = process.argv.slice(2)
  if (file === undefined || start === undefined || journalPath === undefined) throw new Error('usage: run-file <file> <startIndex> <journal path>')
  const startIndex = Number(start)
  journal = journalPath
  // Proof of life for the parent's watchdog: stops only if a test starves the event loop.
  realSetInterval(() => send({ kind: 'beat' }), heartbeatMs).unref()
  installRequireHook(fastifyTestDir, {
    adapter: require.resolve('./fastify-entry'),
    tap: require.resolve('./tap-entry'),
    h2url: require.resolve('./h2url-entry'),
    certificate: require.resolve('./certificate-entry'),
  })
  const root = require('./tap-entry') as import('./tap').TapRoot
  const { TapTest, progressSoFar } = require('./tap') as typeof import('./tap')
  const { closeAll, takeLogged } = require('./fastify-adapter') as typeof import('./fastify-adapter')

  let loadError: string | null = null
  let current: import('./tap').TapTest | null = null
  // A burst of uncaught errors in one turn (several callbacks of one boot throwing, say) belongs to
  // the test the first one failed: the next test starts at once and must not inherit the rest.
  let burst: import('./tap').TapTest | null = null
  const onUncaught = (error: unknown): void => {
    const message = `uncaught: ${describe(error)}`
    if (burst !== null) { burst.failAndFinish(message); return }
    if (current !== null) {
      burst = current
      realSetImmediate(() => { burst = null })
      current.failAndFinish(message)
    } else loadError ??= message
  }
  process.on('uncaughtException', onUncaught)
  process.on('unhandledRejection', onUncaught)

  root.setRunner((entry, next) => {
    if (entry.index < startIndex) { next(); return }
    const test = new TapTest(entry.name, root)
    const result: TestResult = { name: entry.name, status: 'pass', failures: test.failures, logged: [] }
    if (Boolean(entry.options.skip) || Boolean(entry.options.todo) || entry.fn === undefined) {
      send({ kind: 'result', index: entry.index, result: { ...result, status: 'skip' } })
      next()
      return
    }
    send({ kind: 'start', index: entry.index, name: entry.name })
    const timeoutMs = Math.min(entry.options.timeout ?? defaultTestTimeoutMs, maxTestTimeoutMs)
    // A test with many subtests may take longer than timeoutMs in all (route.test.js's 'route' on a
    // loaded machine): it times out only once timeoutMs pass with no assertion and no subtest ending.
    let seen = progressSoFar()
    const expire = (): void => {
      if (progressSoFar() === seen) { test.failAndFinish(`timed out after ${timeoutMs} ms without an assertion (a planned assertion or end() never came)`); return }
      seen = progressSoFar()
      timer = realSetTimeout(expire, timeoutMs)
    }
    let timer = realSetTimeout(expire, timeoutMs)
    test.onFinish(() => {
      realClearTimeout(timer)
      current = null
      const report = (): void => {
        result.logged.push(...takeLogged())
        result.status = result.failures.length > 0 ? 'fail' : 'pass'
        send({ kind: 'result', index: entry.index, result })
      }
      report()
      // Again a turn later if assertions arrived just after the plan was met (they count too).
      const failuresNow = result.failures.length
      realSetImmediate(() => { if (result.failures.length !== failuresNow) report() })
      // The next test starts at once, as in tap: files that call listen() at load time declare
      // their routes in consecutive synchronous tests, before the server boots.
      next()
    })
    current = test
    test.run(entry.fn)
  })

  try {
    require(path.join(fastifyTestDir, file))
  } catch (error) {
    loadError = `loading the file threw: ${describe(error)}`
  }
  send({ kind: 'loaded', names: root.collected.map((entry) => entry.name), loadError })
  // Files declare more tests from callbacks (inside listen(), after ready()): wait until no new
  // test has come for a moment, as tap waits for the process to go quiet.
  let declared = -1
  while (declared !== root.collected.length) {
    declared = root.collected.length
    await root.whenIdle()
    await new Promise((resolve) => realSetTimeout(resolve, quietMs))
  }
  // A file that declares no test() and asserts on tap's root object itself (als.test.js: its
  // assertions come from listen()'s callback) gets one result, `(file)`, once the root ends.
  if (root.collected.length === 0 && loadError === null) {
    await withDeadline(root.done, defaultTestTimeoutMs)
    if (root.count > 0 || root.failures.length > 0 || !root.isFinished) {
      if (!root.isFinished) root.failures.push(`the file's own assertions never ended (after ${root.count}; timed out after ${defaultTestTimeoutMs} ms)`)
      send({ kind: 'result', index: 0, result: { name: '(file)', status: root.failures.length > 0 ? 'fail' : 'pass', failures: root.failures, logged: takeLogged() } })
    }
  }
  // Servers of tests that failed before their teardown; the file's shared instances too.
  await withDeadline(closeAll(), 2000)
  send({ kind: 'end' })
}

function withDeadline(promise: Promise<unknown>, ms: number): Promise<unknown> {
  return Promise.race([promise, new Promise((resolve) => realSetTimeout(resolve, ms).unref())])
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}

main().then(() => process.exit(0), (error: unknown) => { console.error(error); process.exit(2) })
