// The `tap` module as Fastify's test files see it: the root test object. Its `test()` does not
// run anything at once; it records the file's top-level tests for the runner (run-file.ts), which
// runs them one at a time with a timeout each, as tap runs one file.
import { TapTest } from './tap-test'
import type { TestFn, TestOptions } from './tap-test'

export interface TopLevelTest { name: string; options: TestOptions; fn: TestFn | undefined }

export class TapRoot extends TapTest {
  readonly collected: TopLevelTest[] = []

  constructor() {
    super('(file)', null)
  }

  override test(name: string, optionsOrFn?: TestOptions | TestFn, maybeFn?: TestFn): Promise<void> {
    const options = typeof optionsOrFn === 'object' && optionsOrFn !== null ? optionsOrFn : {}
    const fn = typeof optionsOrFn === 'function' ? optionsOrFn : maybeFn
    this.collected.push({ name: typeof name === 'string' ? name : '(unnamed)', options, fn })
    return Promise.resolve()
  }

  override skip(name: string, optionsOrFn?: TestOptions | TestFn, maybeFn?: TestFn): Promise<void> {
    const options = typeof optionsOrFn === 'object' && optionsOrFn !== null ? optionsOrFn : {}
    return this.test(name, { ...options, skip: true }, typeof optionsOrFn === 'function' ? optionsOrFn : maybeFn)
  }
}

export { TapTest }
