// The `tap` module as Fastify's test files see it: the root test object. As in tap, the first
// top-level test starts at once, inside the test() call, and the others run one at a time after
// it (files like get.test.js rely on this: they declare routes in tests and call listen() at
// load time). How each top-level test is run (timeout, reporting) is the runner's (run-file.ts).
import { TapTest } from './tap-test'
export { progressSoFar } from './tap-test'
import type { TestFn, TestOptions } from './tap-test'

export interface TopLevelTest { index: number; name: string; options: TestOptions; fn: TestFn | undefined }
/** Runs one top-level test and calls `next` when it is over (synchronously if it ended synchronously). */
export type TopLevelRunner = (entry: TopLevelTest, next: () => void) => void

export class TapRoot extends TapTest {
  readonly collected: TopLevelTest[] = []
  private readonly waiting: TopLevelTest[] = []
  private busy = false
  private runner: TopLevelRunner | null = null
  private idle: (() => void) | null = null
  private readonly names = new Map<string, number>()
  // tap's `before(fn)`: the tests declared after it wait until fn has settled (trust-proxy.test.js
  // resolves localhost's address in one before its first test).
  private gate: Promise<void> | null = null

  constructor() {
    super('(file)', null)
    this.before = this.before.bind(this)
  }

  before(fn: () => unknown): void {
    const previous = this.gate ?? Promise.resolve()
    const gate: Promise<void> = previous.then(() => fn()).then(
      () => undefined,
      (error: unknown) => { this.failures.push(`before() failed: ${error instanceof Error ? error.message : String(error)}`) },
    ).then(() => { if (this.gate === gate) this.gate = null })
    this.gate = gate
  }

  /** Set before the test file is loaded. */
  setRunner(runner: TopLevelRunner): void { this.runner = runner }

  /** Resolves once every top-level test declared so far has run. */
  whenIdle(): Promise<void> {
    if (!this.busy && this.waiting.length === 0) return Promise.resolve()
    return new Promise((resolve) => { this.idle = resolve })
  }

  override test(name: string, optionsOrFn?: TestOptions | TestFn, maybeFn?: TestFn): Promise<void> {
    const options = typeof optionsOrFn === 'object' && optionsOrFn !== null ? optionsOrFn : {}
    const fn = typeof optionsOrFn === 'function' ? optionsOrFn : maybeFn
    const entry: TopLevelTest = { index: this.collected.length, name: this.uniqueName(typeof name === 'string' ? name : '(unnamed)'), options, fn }
    this.collected.push(entry)
    this.waiting.push(entry)
    this.next()
    return Promise.resolve()
  }

  override skip(name: string, optionsOrFn?: TestOptions | TestFn, maybeFn?: TestFn): Promise<void> {
    const options = typeof optionsOrFn === 'object' && optionsOrFn !== null ? optionsOrFn : {}
    return this.test(name, { ...options, skip: true }, typeof optionsOrFn === 'function' ? optionsOrFn : maybeFn)
  }

  private next(): void {
    if (this.busy || this.runner === null) return
    const gate = this.gate
    if (gate !== null && this.waiting.length > 0) {
      this.busy = true
      void gate.then(() => { this.busy = false; this.next() })
      return
    }
    const entry = this.waiting.shift()
    if (entry === undefined) {
      const idle = this.idle
      this.idle = null
      if (idle !== null) idle()
      return
    }
    this.busy = true
    this.runner(entry, () => { this.busy = false; this.next() })
  }

  /** Two top-level tests with one name become `name` and `name (2)`, so each has a stable key. */
  private uniqueName(name: string): string {
    const times = (this.names.get(name) ?? 0) + 1
    this.names.set(name, times)
    return times === 1 ? name : `${name} (${times})`
  }
}

export { TapTest }
