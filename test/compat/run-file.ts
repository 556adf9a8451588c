// Child-process entry: runs ONE Fastify test file against Enclave, reporting each top-level
// test's result to the parent over IPC as it goes. One process per file, like tap: Fastify's
// files install process listeners, fake timers and servers, and none of that may leak into mocha
// or the next file. If a test starves the event loop, the parent kills this process and starts
// another that skips the tests before `startIndex` (run-all.ts).
//   fork(dist/test/compat/run-file.js, [<file name>, <startIndex>])
import path from 'node:path'
import { installRequireHook } from './require-hook'
import { fastifyTestDir } from './compat-files'
import type { ChildMessage, TestResult } from './results'
import { defaultTestTimeoutMs, maxTestTimeoutMs, quietMs } from './run-file-limits'

// Captured before any test file can install fake timers.
const realSetTimeout = setTimeout
const realClearTimeout = clearTimeout
const realSetImmediate = setImmediate

function send(message: ChildMessage): Promise<void> {
  return new Promise((resolve) => process.send!(message, undefined, undefined, () => resolve()))
}

async function main(): Promise<void> {
  const file = process.argv[2]
  const startIndex = Number(process.argv[3] ?? '0')
  if (file === undefined || process.send === undefined) throw new Error('run-file is started by run-all.ts with fork(): run-file <file> <startIndex>')
  installRequireHook(fastifyTestDir, { adapter: require.resolve('./fastify-entry'), tap: require.resolve('./tap-entry') })
  const root = require('./tap-entry') as import('./tap').TapRoot
  const { TapTest } = require('./tap') as typeof import('./tap')
  const { closeAll, takeLogged } = require('./fastify-adapter') as typeof import('./fastify-adapter')

  let loadError: string | null = null
  let current: import('./tap').TapTest | null = null
  const onUncaught = (error: unknown): void => {
    const message = `uncaught: ${describe(error)}`
    if (current !== null) current.failAndFinish(message)
    else loadError ??= message
  }
  process.on('uncaughtException', onUncaught)
  process.on('unhandledRejection', onUncaught)

  root.setRunner((entry, next) => {
    if (entry.index < startIndex) { next(); return }
    const test = new TapTest(entry.name, root)
    const result: TestResult = { name: entry.name, status: 'pass', failures: test.failures, logged: [] }
    if (Boolean(entry.options.skip) || Boolean(entry.options.todo) || entry.fn === undefined) {
      void send({ kind: 'result', index: entry.index, result: { ...result, status: 'skip' } })
      next()
      return
    }
    void send({ kind: 'start', index: entry.index, name: entry.name })
    const timeoutMs = Math.min(entry.options.timeout ?? defaultTestTimeoutMs, maxTestTimeoutMs)
    const timer = realSetTimeout(() => test.failAndFinish(`timed out after ${timeoutMs} ms (a planned assertion or end() never came)`), timeoutMs)
    test.onFinish(() => {
      realClearTimeout(timer)
      current = null
      // Reported a turn later, so that assertions arriving just after the plan was met still count.
      realSetImmediate(() => {
        result.logged = takeLogged()
        if (result.failures.length > 0) result.status = 'fail'
        void send({ kind: 'result', index: entry.index, result })
      })
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
  await send({ kind: 'loaded', names: root.collected.map((entry) => entry.name), loadError })
  // Files declare more tests from callbacks (inside listen(), after ready()): wait until no new
  // test has come for a moment, as tap waits for the process to go quiet.
  let declared = -1
  while (declared !== root.collected.length) {
    declared = root.collected.length
    await root.whenIdle()
    await new Promise((resolve) => realSetTimeout(resolve, quietMs))
  }
  // Servers of tests that failed before their teardown; the file's shared instances too.
  await withDeadline(closeAll(), 2000)
  await send({ kind: 'end' })
}

function withDeadline(promise: Promise<unknown>, ms: number): Promise<unknown> {
  return Promise.race([promise, new Promise((resolve) => realSetTimeout(resolve, ms).unref())])
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}

main().then(() => process.exit(0), (error: unknown) => { console.error(error); process.exit(2) })
