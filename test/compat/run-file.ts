// Child-process entry: runs ONE Fastify test file against Enclave and writes its per-test results
// as JSON to the path given. One process per file, like tap: Fastify's files install process
// listeners, fake timers and servers, and none of that may leak into mocha or the next file.
//   node dist/test/compat/run-file.js <file name> <result path>
import path from 'node:path'
import { writeFileSync } from 'node:fs'
import { installRequireHook } from './require-hook'
import { fastifyTestDir } from './compat-files'
import type { FileResult, TestResult } from './results'

// Captured before any test file can install fake timers.
const realSetTimeout = setTimeout
const realClearTimeout = clearTimeout

const defaultTimeoutMs = 3000
const maxTimeoutMs = 10000

async function main(): Promise<void> {
  const [file, resultPath] = process.argv.slice(2)
  if (file === undefined || resultPath === undefined) throw new Error('usage: run-file <file> <result path>')
  installRequireHook(fastifyTestDir, { adapter: require.resolve('./fastify-entry'), tap: require.resolve('./tap-entry') })
  // Loaded through the hook's own path so the test file and the runner share one root.
  const root = require('./tap-entry') as import('./tap').TapRoot
  const { TapTest } = require('./tap') as typeof import('./tap')
  const { closeAll } = require('./fastify-adapter') as typeof import('./fastify-adapter')

  const result: FileResult = { file, loadError: null, tests: [] }
  let current: import('./tap').TapTest | null = null
  const onUncaught = (error: unknown): void => {
    const message = `uncaught: ${describe(error)}`
    if (current !== null) current.failAndFinish(message)
    else (result.loadError ??= message)
  }
  process.on('uncaughtException', onUncaught)
  process.on('unhandledRejection', onUncaught)

  try {
    require(path.join(fastifyTestDir, file))
  } catch (error) {
    result.loadError = `loading the file threw: ${describe(error)}`
  }

  const seen = new Map<string, number>()
  for (const entry of root.collected) {
    const times = (seen.get(entry.name) ?? 0) + 1
    seen.set(entry.name, times)
    const name = times === 1 ? entry.name : `${entry.name} (${times})`
    const test = new TapTest(name, root)
    const record: TestResult = { name, status: 'pass', failures: test.failures }
    result.tests.push(record)
    if (Boolean(entry.options.skip) || Boolean(entry.options.todo) || entry.fn === undefined) { record.status = 'skip'; continue }
    const timeoutMs = Math.min(entry.options.timeout ?? defaultTimeoutMs, maxTimeoutMs)
    const timer = realSetTimeout(() => test.failAndFinish(`timed out after ${timeoutMs} ms (a planned assertion or end() never came)`), timeoutMs)
    current = test
    test.run(entry.fn)
    await test.done
    realClearTimeout(timer)
    await withDeadline(closeAll(), 2000)
    current = null
  }
  await new Promise((resolve) => setImmediate(resolve))
  for (const record of result.tests) if (record.status !== 'skip' && record.failures.length > 0) record.status = 'fail'
  writeFileSync(resultPath, JSON.stringify(result))
}

function withDeadline(promise: Promise<unknown>, ms: number): Promise<unknown> {
  return Promise.race([promise, new Promise((resolve) => realSetTimeout(resolve, ms).unref())])
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
}

main().then(() => process.exit(0), (error: unknown) => { console.error(error); process.exit(2) })
