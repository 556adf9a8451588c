import { expect } from 'chai'
import { callgrindTotal, summarizeCounts, medianRatio } from '../../bench/harness/callgrind-count'

describe('bench instruction counts (bench/instructions.ts)', () => {
  it('reads the instructions of a callgrind dump from its totals line, else its summary line', () => {
    const dump = ['# callgrind format', 'version: 1', 'events: Ir', 'summary: 1234', 'fn=(1) main', '3 10', 'totals: 987654321', ''].join('\n')
    expect(callgrindTotal(dump)).to.equal(987654321)
    expect(callgrindTotal('events: Ir\nsummary: 42\n')).to.equal(42)
  })

  it('refuses a dump without a count rather than reading 0 (an empty file from a killed run)', () => {
    expect(() => callgrindTotal('')).to.throw(/no totals or summary line/)
  })

  it('summarizes a build: median, extremes, spread over the median, and run-by-run ratios to the first build', () => {
    const first = summarizeCounts([100, 110, 90], null)
    expect(first).to.deep.equal({ median: 100, min: 90, max: 110, spread: 0.2, ratios: null })
    const other = summarizeCounts([105, 110, 99], [100, 110, 90])
    expect(other.ratios).to.deep.equal([1.05, 1, 1.1])
    expect(medianRatio(other.ratios!)).to.equal(1.05)
    expect(summarizeCounts([4, 2], null).median).to.equal(3)
  })
})
