import { expect } from 'chai'
import { summarize } from '../../bench/harness/summary'
import { ENDPOINTS } from '../../bench/harness/endpoints'
import type { RoundSample, Samples } from '../../bench/harness/rounds'

function sample(round: number, rps: number, cpuUsPerRequest: number | null): RoundSample {
  return { round, rps, cpuUsPerRequest, requests: rps, seconds: 1, p99Ms: 1, errorStatuses: 0, socketErrors: 0, flag: null } as RoundSample
}

const two = ENDPOINTS.filter((e) => e.id === 'two')

describe('bench summary: ratios are paired by round', () => {
  it('a ratio is the median of the per-round ratios, so drift between rounds cancels out', () => {
    // The machine got twice as slow in round 1 for both contenders: within each round, ours is 1.25x.
    const samples: Samples = { two: {
      ours: [sample(0, 100, 8), sample(1, 50, 16), sample(2, 100, 8)],
      theirs: [sample(0, 80, 10), sample(1, 40, 20), sample(2, 80, 10)],
    } }
    const [row] = summarize(samples, two, ['ours'], ['theirs'])
    expect(row.vs.theirs.cpu).to.equal(1.25)
    expect(row.vs.theirs.rps).to.equal(1.25)
    // The absolute columns stay medians over the rounds.
    expect(row.cpuUs).to.equal(8)
  })

  it('a paired ratio carries its own noise: half the interquartile range of its per-round values, which one odd round does not widen', () => {
    const samples: Samples = { two: {
      ours: [sample(0, 100, 10), sample(1, 100, 10), sample(2, 100, 10)],
      theirs: [sample(0, 100, 9), sample(1, 100, 11), sample(2, 100, 10)],
    } }
    const [row] = summarize(samples, two, ['ours'], ['theirs'])
    expect(row.vs.theirs.cpu).to.equal(1)
    expect(row.vs.theirs.cpuSpread).to.be.closeTo(0.1, 1e-9)
    // Seven rounds, one of them far off: the range would be 2.0, the quartiles stay near the rest.
    const cpus = [10, 10, 10, 10, 10, 10, 10]
    const theirs = [9.8, 9.9, 10, 10, 10.1, 10.2, 30]
    const outlier: Samples = { two: { ours: cpus.map((c, i) => sample(i, 100, c)), theirs: theirs.map((c, i) => sample(i, 100, c)) } }
    const [odd] = summarize(outlier, two, ['ours'], ['theirs'])
    expect(odd.vs.theirs.cpuSpread).to.be.closeTo((1.02 - 0.99) / 2, 1e-9)
  })

  it('a round one contender is missing from is left out of the pairs', () => {
    const samples: Samples = { two: {
      ours: [sample(0, 100, 10), sample(1, 100, 10), sample(2, 100, 10)],
      theirs: [sample(0, 100, 20), sample(2, 100, 30)],
    } }
    const [row] = summarize(samples, two, ['ours'], ['theirs'])
    expect(row.vs.theirs.cpu).to.equal(2.5)
  })

  it('without CPU figures (not Linux) the CPU ratio is null and req/s still pairs', () => {
    const samples: Samples = { two: { ours: [sample(0, 120, null)], theirs: [sample(0, 100, null)] } }
    const [row] = summarize(samples, two, ['ours'], ['theirs'])
    expect(row.vs.theirs).to.deep.equal({ rps: 1.2, cpu: null, cpuSpread: null })
  })

  it('a contender not measured has no ratios', () => {
    const samples: Samples = { two: { ours: [sample(0, 100, 10)] } }
    const [row] = summarize(samples, two, ['ours'], ['theirs'])
    expect(row.vs.theirs).to.deep.equal({ rps: null, cpu: null, cpuSpread: null })
  })
})
