import { expect } from 'chai'
import { targetLines } from '../../bench/harness/targets'
import { ENDPOINTS } from '../../bench/harness/endpoints'
import type { Row } from '../../bench/harness/summary'

const two = ENDPOINTS.find((e) => e.id === 'two')!

function row(contender: string, vs: Row['vs']): Row {
  return { endpoint: two, contender, runs: 3, rps: 1, p99Ms: 1, cpuUs: 10, cpuSpread: 0, flagged: { count: 0, reason: null }, vs }
}

describe('bench targets', () => {
  it('a miss against fastify3 is told apart from a ceiling: the line says how far raw itself is ahead', () => {
    const rows = [
      row('raw', { fastify3: { rps: 1.05, cpu: 1.04 } }),
      row('enclave-runtime', { fastify3: { rps: 1.02, cpu: 1.02 }, raw: { rps: 0.98, cpu: 0.98 } }),
    ]
    const text = targetLines(rows, [], 'fastify3', 'raw')
    expect(text).to.contain('two       ceiling: raw is 1.040x fastify3 on CPU, under 1.10x')
    expect(text).to.match(/MISS {2}two +enclave-runtime +CPU 1\.020x fastify3/)
  })

  it('with raw well ahead, the ceiling line carries no warning and a met target reads met', () => {
    const rows = [
      row('raw', { fastify3: { rps: 1.3, cpu: 1.25 } }),
      row('enclave-runtime', { fastify3: { rps: 1.15, cpu: 1.15 }, raw: { rps: 0.92, cpu: 0.92 } }),
    ]
    const text = targetLines(rows, [], 'fastify3', 'raw')
    expect(text).to.contain('ceiling: raw is 1.250x fastify3 on CPU\n')
    expect(text).to.match(/met {3}two +enclave-runtime/)
  })

  it('the decorator overhead is read from the paired ratio to the runtime API', () => {
    const rows = [
      row('enclave-runtime', {}),
      row('enclave-decorators', { 'enclave-runtime': { rps: 0.95, cpu: 0.95 } }),
    ]
    expect(targetLines(rows, [], 'fastify3', 'raw')).to.contain('MISS  two       decorators vs runtime: +5.3% CPU/req (<= +3%)')
  })
})

describe('bench boot targets', () => {
  const median = (readyCpuMs: number, rssBytes = 100) => ({ runs: 3, readyMs: readyCpuMs, readyCpuMs, sinceStartMs: readyCpuMs, rssBytes, heapUsedBytes: 1 })
  const report = (results: Record<string, number>) => ({
    routes: 1000, shape: 'distinct' as const, skipped: {},
    results: Object.fromEntries(Object.entries(results).map(([name, cpu]) => [name, { samples: [], median: median(cpu) }])),
  })

  it('the floor line says when compiling the schemas alone is already over the 0.5x target', () => {
    const text = targetLines([], [report({ fastify3: 800, raw: 560, 'enclave-runtime': 780 })], 'fastify3', 'raw')
    expect(text).to.contain('info  boot distinct floor: compiling the schemas alone (raw) is 0.700x fastify3 on CPU, over 0.50')
    expect(text).to.match(/MISS {2}boot distinct enclave-runtime +CPU 0\.975x fastify3/)
  })

  it('under the floor warning threshold the floor line is plain, and a met target reads met', () => {
    const text = targetLines([], [report({ fastify3: 800, raw: 80, 'enclave-runtime': 300 })], 'fastify3', 'raw')
    expect(text).to.contain('floor: compiling the schemas alone (raw) is 0.100x fastify3 on CPU\n')
    expect(text).to.match(/met {3}boot distinct enclave-runtime +CPU 0\.375x/)
  })
})
