import { expect } from 'chai'
import { parseOptions, type BenchOptions } from '../../bench/harness/options'

function options(argv: string[]): BenchOptions {
  const parsed = parseOptions(argv)
  if (parsed === 'help') throw new Error('unexpected help')
  return parsed
}

// The young generation V8 settles on differs between contenders (under load Enclave's stays at its
// 16 MB maximum; raw's is often 1-4 MB): the flag runs every load server with the same heap
// settings, to tell that difference from the framework's own work (bench/README.md, --node-flags).
describe('bench --node-flags', () => {
  it('starts load servers with no node flags by default', () => {
    expect(options([]).nodeFlags).to.deep.equal([])
  })

  it('splits the value into node flags, each passed to every load server', () => {
    expect(options(['--node-flags=--max-semi-space-size=1  --no-opt']).nodeFlags).to.deep.equal(['--max-semi-space-size=1', '--no-opt'])
  })

  it('refuses a word that is no node flag, before any server starts', () => {
    expect(() => options(['--node-flags=--max-semi-space-size=1 oops'])).to.throw(/--node-flags takes node flags .* got 'oops'/)
  })
})

// A server idle while the others are measured may take a major GC then, and its next measured run
// came out up to 3.5x its usual CPU per request (bench/README.md, session 21): --prerun absorbs it.
describe('bench --prerun', () => {
  it('measures without an unmeasured run before each one by default, as every recorded run did', () => {
    expect(options([]).prerun).to.equal(0)
  })

  it('takes whole seconds of unmeasured load before each measured run, range-checked', () => {
    expect(options(['--prerun=1']).prerun).to.equal(1)
    expect(() => options(['--prerun=11'])).to.throw(/prerun/)
  })
})
