// One tap test (tap 15 semantics, only what Fastify's test files use): assertions, plan/end,
// sequential subtests, teardown. A test finishes when its plan is met, when end() is called, or
// when its async function settles without a plan; pending subtests always finish first.
import { sep } from 'node:path'
import { deepSame, matches, has, isType, show } from './compare'

export type TestFn = (t: TapTest) => unknown
export interface TestOptions { skip?: unknown; todo?: unknown; timeout?: number; only?: boolean }

let assertionsAndSubtests = 0
/** Assertions made and subtests finished so far, in every test: the runner's timeout is for a test that stops moving, not for a long one. */
export function progressSoFar(): number { return assertionsAndSubtests }

export class TapTest {
  readonly name: string
  readonly parent: TapTest | null
  readonly failures: string[] = []
  readonly context: Record<string, unknown> = {}
  count = 0
  private planned: number | null = null
  private endCalled = false
  private fnSettled = false
  private finished = false
  private readonly queue: Array<() => void> = []
  private running = 0
  private readonly teardowns: Array<() => unknown> = []
  private readonly finishListeners: Array<() => void> = []
  private resolveDone!: () => void
  readonly done: Promise<void> = new Promise((resolve) => { this.resolveDone = resolve })

  constructor(name: string, parent: TapTest | null) {
    this.name = name
    this.parent = parent
    // Fastify's files take `const test = t.test` unbound, and pass `t.end` or `t.error` as a callback
    // (`fastify.ready(t.error)`); tap binds its methods, so these work there.
    for (const key of ['test', 'end', 'skip', 'todo', 'only', 'teardown', 'pass', 'fail', 'plan', 'error', 'threw'] as const) {
      (this as Record<string, unknown>)[key] = (this[key] as Function).bind(this)
    }
  }

  get isFinished(): boolean { return this.finished }

  fullName(): string {
    return this.parent === null || this.parent.parent === null ? this.name : `${this.parent.fullName()} > ${this.name}`
  }

  /** Runs `fn` as this test's body (called by the parent when the test's turn comes). */
  run(fn: TestFn | undefined): void {
    if (fn === undefined) { this.fnSettled = true; this.endCalled = true; this.check(); return }
    let result: unknown
    try {
      result = fn(this)
    } catch (error) {
      this.failAndFinish(`threw: ${describeError(error)}`)
      return
    }
    if (result !== null && typeof result === 'object' && typeof (result as Promise<unknown>).then === 'function') {
      (result as Promise<unknown>).then(
        () => { this.fnSettled = true; this.check() },
        (error: unknown) => { this.fnSettled = true; this.failAndFinish(`rejected: ${describeError(error)}`) },
      )
    }
  }

  // ---- lifecycle -------------------------------------------------------------------------
  plan(count: number): void {
    this.planned = count
    this.check()
  }

  end(): void {
    if (this.finished || this.endCalled) return
    this.endCalled = true
    this.check()
  }

  teardown(fn: () => unknown): void { this.teardowns.push(fn) }
  tearDown(fn: () => unknown): void { this.teardowns.push(fn) }
  autoend(): void { this.fnSettled = true; this.endCalled = true; this.check() }
  setTimeout(): void { /* one timeout per top-level test, set by the runner */ }
  comment(): void {}

  test(name: string, optionsOrFn?: TestOptions | TestFn, maybeFn?: TestFn): Promise<void> {
    const options = typeof optionsOrFn === 'object' && optionsOrFn !== null ? optionsOrFn : {}
    const fn = typeof optionsOrFn === 'function' ? optionsOrFn : maybeFn
    const child = new TapTest(typeof name === 'string' ? name : '(unnamed)', this)
    if (this.finished) {
      this.failures.push(`subtest "${child.name}" started after the test ended`)
      return Promise.resolve()
    }
    const skipped = Boolean(options.skip) || Boolean(options.todo) || fn === undefined
    this.running++
    const start = (): void => {
      if (skipped) child.run(undefined)
      else child.run(fn)
    }
    child.onFinish(() => {
      this.running--
      this.count++
      assertionsAndSubtests++
      if (!skipped && child.failures.length > 0) this.failures.push(...child.failures)
      const next = this.queue.shift()
      if (next !== undefined) next()
      this.check()
    })
    if (this.running === 1) start()
    else this.queue.push(start)
    return child.done
  }

  skip(name: string, optionsOrFn?: TestOptions | TestFn, maybeFn?: TestFn): Promise<void> {
    const options = typeof optionsOrFn === 'object' && optionsOrFn !== null ? optionsOrFn : {}
    return this.test(name, { ...options, skip: true }, typeof optionsOrFn === 'function' ? optionsOrFn : maybeFn)
  }

  todo(name: string, optionsOrFn?: TestOptions | TestFn, maybeFn?: TestFn): Promise<void> {
    const options = typeof optionsOrFn === 'object' && optionsOrFn !== null ? optionsOrFn : {}
    return this.test(name, { ...options, todo: true }, typeof optionsOrFn === 'function' ? optionsOrFn : maybeFn)
  }

  only(name: string, optionsOrFn?: TestOptions | TestFn, maybeFn?: TestFn): Promise<void> {
    return this.test(name, optionsOrFn, maybeFn)
  }

  /** Ends the test now with a failure (timeout, uncaught error), finishing its open subtests. */
  failAndFinish(message: string): void {
    if (this.finished) { this.lateFailure(message); return }
    this.failures.push(`${this.label()}${message}`)
    this.forceFinish()
  }

  forceFinish(): void {
    this.queue.length = 0
    this.endCalled = true
    this.fnSettled = true
    this.planned = null
    this.finish()
  }

  private check(): void {
    if (this.finished || this.running > 0) return
    const planMet = this.planned !== null && this.count >= this.planned
    const autoEnded = this.planned === null && this.fnSettled && this.parent !== null
    if (!planMet && !this.endCalled && !autoEnded) return
    if (this.planned !== null && this.count < this.planned) {
      this.failures.push(`${this.label()}ended after ${this.count} of ${this.planned} planned assertions`)
    }
    this.finish()
  }

  /** `fn` runs as soon as the test is over: synchronously when it has no teardown, as in tap. */
  onFinish(fn: () => void): void { this.finishListeners.push(fn) }

  private finish(): void {
    if (this.finished) return
    this.finished = true
    const teardowns = this.teardowns.splice(0)
    const over = (): void => {
      this.resolveDone()
      for (const fn of this.finishListeners.splice(0)) fn()
    }
    if (teardowns.length === 0) { over(); return }
    void (async () => {
      for (const fn of teardowns) {
        try { await fn() } catch (error) { this.failures.push(`${this.label()}teardown threw: ${describeError(error)}`) }
      }
      over()
    })()
  }

  // ---- assertions ------------------------------------------------------------------------
  private record(ok: boolean, message: string | undefined, detail: () => string): boolean {
    if (this.finished) {
      this.lateFailure(`assertion after the test ended: ${message ?? detail()}`)
      return ok
    }
    this.count++
    assertionsAndSubtests++
    if (!ok) this.failures.push(`${this.label()}${message !== undefined && typeof message === 'string' ? message + ': ' : ''}${detail()}${whereInTestFile()}`)
    if (this.planned !== null && this.count > this.planned) this.failures.push(`${this.label()}more assertions than the plan of ${this.planned}`)
    this.check()
    return ok
  }

  private lateFailure(message: string): void {
    let root: TapTest = this
    while (root.parent !== null && root.parent.parent !== null) root = root.parent
    root.failures.push(`${this.label()}${message}`)
  }

  private label(): string { return this.parent === null ? '' : `[${this.fullName()}] ` }

  ok(value: unknown, message?: string): boolean { return this.record(Boolean(value), message, () => `expected truthy, got ${show(value)}`) }
  notOk(value: unknown, message?: string): boolean { return this.record(!value, message, () => `expected falsy, got ${show(value)}`) }
  pass(message?: string): boolean { return this.record(true, message, () => '') }
  fail(message?: unknown): boolean { return this.record(false, undefined, () => `fail(${show(message)})`) }
  /** tap's `threw(error)`: an error that must not happen (handler-context.test.js passes it as a callback). */
  threw(error: unknown): boolean { return this.record(false, undefined, () => `threw: ${describeError(error)}`) }
  error(error: unknown, message?: string): boolean { return this.record(!error, message, () => `unexpected error: ${describeError(error)}`) }
  equal(found: unknown, wanted: unknown, message?: string): boolean {
    return this.record(found === wanted || (Number.isNaN(found) && Number.isNaN(wanted)), message, () => `expected ${show(wanted)}, got ${show(found)}`)
  }

  not(found: unknown, wanted: unknown, message?: string): boolean { return this.record(found !== wanted, message, () => `expected not ${show(wanted)}`) }
  same(found: unknown, wanted: unknown, message?: string): boolean {
    return this.record(deepSame(found, wanted, false), message, () => `not same: expected ${show(wanted)}, got ${show(found)}`)
  }

  notSame(found: unknown, wanted: unknown, message?: string): boolean { return this.record(!deepSame(found, wanted, false), message, () => `expected a difference from ${show(wanted)}`) }
  strictSame(found: unknown, wanted: unknown, message?: string): boolean {
    return this.record(deepSame(found, wanted, true), message, () => `not strictly same: expected ${show(wanted)}, got ${show(found)}`)
  }

  match(found: unknown, pattern: unknown, message?: string): boolean { return this.record(matches(found, pattern), message, () => `${show(found)} does not match ${show(pattern)}`) }
  notMatch(found: unknown, pattern: unknown, message?: string): boolean { return this.record(!matches(found, pattern), message, () => `${show(found)} matches ${show(pattern)}`) }
  has(found: unknown, pattern: unknown, message?: string): boolean { return this.record(has(found, pattern, false), message, () => `${show(found)} does not have ${show(pattern)}`) }
  hasStrict(found: unknown, pattern: unknown, message?: string): boolean { return this.record(has(found, pattern, true), message, () => `${show(found)} does not strictly have ${show(pattern)}`) }
  type(found: unknown, type: unknown, message?: string): boolean {
    return this.record(isType(found, type), message, () => `expected type ${typeof type === 'function' ? type.name : String(type)}, got ${show(found)}`)
  }

  throws(fn: () => unknown, wantedOrMessage?: unknown, message?: string): unknown {
    const wanted = typeof wantedOrMessage === 'string' ? undefined : wantedOrMessage
    const label = typeof wantedOrMessage === 'string' ? wantedOrMessage : message
    try {
      fn()
    } catch (error) {
      this.record(wanted === undefined || matches(error, wanted), label, () => `threw ${describeError(error)}, expected ${show(wanted)}`)
      return error
    }
    this.record(false, label, () => 'expected to throw')
    return undefined
  }

  doesNotThrow(fn: () => unknown, message?: string): boolean {
    try { fn() } catch (error) { return this.record(false, message, () => `threw ${describeError(error)}`) }
    return this.record(true, message, () => '')
  }

  async rejects(promiseOrFn: unknown, wantedOrMessage?: unknown, message?: string): Promise<void> {
    const wanted = typeof wantedOrMessage === 'string' ? undefined : wantedOrMessage
    const label = typeof wantedOrMessage === 'string' ? wantedOrMessage : message
    try {
      await (typeof promiseOrFn === 'function' ? (promiseOrFn as () => unknown)() : promiseOrFn)
    } catch (error) {
      this.record(wanted === undefined || matches(error, wanted), label, () => `rejected with ${describeError(error)}, expected ${show(wanted)}`)
      return
    }
    this.record(false, label, () => 'expected to reject')
  }

  async resolves(promiseOrFn: unknown, message?: string): Promise<void> {
    try {
      await (typeof promiseOrFn === 'function' ? (promiseOrFn as () => unknown)() : promiseOrFn)
      this.record(true, message, () => '')
    } catch (error) {
      this.record(false, message, () => `rejected with ${describeError(error)}`)
    }
  }
}

// tap's aliases, under the names Fastify's files (and plugins' files) call.
const aliases: Record<string, keyof TapTest> = {
  equals: 'equal', strictEqual: 'equal', strictEquals: 'equal', is: 'equal',
  notEqual: 'not', notStrictEqual: 'not', isNot: 'not', notEquals: 'not',
  deepEqual: 'same', deepEquals: 'same', isEquivalent: 'same', looseEqual: 'same',
  notDeepEqual: 'notSame', strictDeepEqual: 'strictSame', deepStrictEqual: 'strictSame', sameStrict: 'strictSame',
  true: 'ok', assert: 'ok', false: 'notOk', ifError: 'error', ifErr: 'error', done: 'end', similar: 'match', isa: 'type',
}
for (const [alias, target] of Object.entries(aliases)) {
  Object.defineProperty(TapTest.prototype, alias, { value: TapTest.prototype[target], writable: true, configurable: true })
}

/** ` (hooks.test.js:123)`: the line of the test file that made the failing call. */
function whereInTestFile(): string {
  const frame = (new Error().stack ?? '').split('\n').find((line) => line.includes(`${sep}fastify3${sep}test${sep}`))
  const match = frame === undefined ? null : /([\w.-]+\.js):(\d+)/.exec(frame)
  return match === null ? '' : ` (${match[1]}:${match[2]})`
}

export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code
    const frame = (error.stack ?? '').split('\n').slice(1, 3).map((line) => line.trim()).join(' | ')
    return `${error.name}${code !== undefined ? ` [${String(code)}]` : ''}: ${error.message}${frame ? ` (${frame})` : ''}`
  }
  return show(error)
}
