import { expect } from 'chai'
import { summarizeGcTrace } from '../../bench/harness/gc-trace-summary'

const scavenge = (ms: number, allocated: number, survived: number, promoted: number, pause = 1.5): string =>
  `[123:0x55d0]   ${ms} ms: pause=${pause} mutator=20.1 gc=s reduce_memory=0 scavenge=1.2 allocated=${allocated} promoted=${promoted} new_space_survived=${survived} promotion_ratio=0.0% new_space_survive_rate_=0.1%`

describe('bench gc trace summary', () => {
  it('sums what survived and was promoted over the scavenges, medians per scavenge, and counts full collections apart', () => {
    const text = [
      'READY 4000',
      scavenge(100, 8_000_000, 10_000, 0),
      scavenge(200, 9_000_000, 12_000, 2_000),
      '[123:0x55d0]   250 ms: pause=12.0 mutator=30.0 gc=mc reduce_memory=0 allocated=100 promoted=0',
      scavenge(300, 7_000_000, 11_000, 500),
    ].join('\n')
    const summary = summarizeGcTrace(text)
    expect(summary.scavenges).to.equal(3)
    expect(summary.markCompacts).to.equal(1)
    expect(summary.survivedBytes).to.equal(10_000 + 12_000 + 2_000 + 11_000 + 500)
    expect(summary.promotedBytes).to.equal(2_500)
    expect(summary.allocatedBytes).to.equal(24_000_000)
    expect(summary.medianAllocatedPerScavenge).to.equal(8_000_000)
    expect(summary.medianSurvivedPerScavenge).to.equal(11_500)
    expect(summary.scavengePauseMs).to.equal(4.5)
  })

  it('leaves out the leading scavenges it is told to skip (what a warm-up left behind is promoted there once)', () => {
    const text = [scavenge(1, 8_000_000, 900_000, 1_800_000), scavenge(2, 8_000_000, 10_000, 0), scavenge(3, 8_000_000, 10_000, 0)].join('\n')
    const summary = summarizeGcTrace(text, 1)
    expect(summary.scavenges).to.equal(2)
    expect(summary.promotedBytes).to.equal(0)
    expect(summary.survivedBytes).to.equal(20_000)
  })

  it('an empty or unrelated text gives no scavenges and null medians, not a throw', () => {
    const summary = summarizeGcTrace('READY 4000\nsomething else\n')
    expect(summary.scavenges).to.equal(0)
    expect(summary.medianAllocatedPerScavenge).to.equal(null)
    expect(summary.survivedBytes).to.equal(0)
  })
})
