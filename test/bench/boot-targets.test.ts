import { expect } from 'chai'
import { targetLines } from '../../bench/harness/targets'
import type { BootReport, BootSummary } from '../../bench/boot'

const MB = 2 ** 20

function median(readyCpuMs: number, extra: Partial<BootSummary> = {}): BootSummary {
  return { runs: 3, readyMs: readyCpuMs, readyCpuMs, sinceStartMs: readyCpuMs, rssBytes: 100 * MB, heapUsedBytes: 1, firstRequestMs: 0.5, firstRequestCpuMs: 0.5,
    firstRequestServerCpuMs: null, ...extra }
}

function report(results: Record<string, BootSummary>): BootReport {
  return { routes: 1000, shape: 'distinct', skipped: {}, results: Object.fromEntries(Object.entries(results).map(([name, m]) => [name, { samples: [], median: m }])) }
}

// Issue 16's boot targets: eager <= 1.05x the raw compile floor, lazy <= 0.3x fastify 3 with a
// first request <= 3 ms, RSS at listen <= fastify 3's in both modes.
describe('bench boot targets (issue 16)', () => {
  it('eager is judged against the compile floor, not against fastify3', () => {
    const text = targetLines([], [report({ fastify3: median(800), raw: median(560), 'enclave-runtime': median(580) })], 'fastify3', 'raw')
    expect(text).to.contain('info  boot distinct floor: compiling the schemas alone (raw) is 0.700x fastify3 on CPU')
    expect(text).to.match(/met {3}boot distinct enclave-runtime +CPU 1\.036x floor \(<= 1\.05\), 0\.725x fastify3/)
  })

  it('eager more than 5% over the floor is a miss', () => {
    const text = targetLines([], [report({ fastify3: median(800), raw: median(500), 'enclave-runtime': median(540) })], 'fastify3', 'raw')
    expect(text).to.match(/MISS {2}boot distinct enclave-runtime +CPU 1\.080x floor/)
  })

  it('lazy is met at <= 0.3x fastify3 with a first request within 3 ms of CPU (whatever the wall clock), and missed when it takes more', () => {
    const fast = targetLines([], [report({ fastify3: median(1000), 'enclave-runtime-lazy': median(250, { firstRequestCpuMs: 2.5, firstRequestMs: 6 }) })], 'fastify3', 'raw')
    expect(fast).to.match(/met {3}boot distinct enclave-runtime-lazy +CPU 0\.250x fastify3 \(<= 0\.30\), first request <= 3 ms CPU; .*first request 2\.50 ms CPU \(6\.00 ms wall clock\)/)
    const slow = targetLines([], [report({ fastify3: median(1000), 'enclave-runtime-lazy': median(250, { firstRequestCpuMs: 4 }) })], 'fastify3', 'raw')
    expect(slow).to.match(/MISS {2}boot distinct enclave-runtime-lazy/)
  })

  it('the lazy first request is judged on the server\'s own CPU where the worker measured it, with the process\'s CPU (in-process client included) printed beside it', () => {
    const met = targetLines([], [report({ fastify3: median(1000), 'enclave-runtime-lazy': median(250, { firstRequestServerCpuMs: 2.1, firstRequestCpuMs: 4.3, firstRequestMs: 9 }) })], 'fastify3', 'raw')
    expect(met).to.match(/met {3}boot distinct enclave-runtime-lazy +CPU 0\.250x fastify3 \(<= 0\.30\), first request <= 3 ms server CPU; .*first request server 2\.10 ms CPU, process 4\.30 ms CPU \(9\.00 ms wall clock\)/)
    const missed = targetLines([], [report({ fastify3: median(1000), 'enclave-runtime-lazy': median(250, { firstRequestServerCpuMs: 3.2, firstRequestCpuMs: 2.9 }) })], 'fastify3', 'raw')
    expect(missed).to.match(/MISS {2}boot distinct enclave-runtime-lazy .*first request server 3\.20 ms CPU, process 2\.90 ms CPU/)
  })

  it('RSS above fastify3 at listen misses in either mode', () => {
    const text = targetLines([], [report({
      fastify3: median(1000), raw: median(600),
      'enclave-runtime': median(610, { rssBytes: 120 * MB }),
      'enclave-runtime-lazy': median(200, { rssBytes: 101 * MB }),
    })], 'fastify3', 'raw')
    expect(text).to.match(/MISS {2}boot distinct enclave-runtime +CPU .* RSS 1\.200x fastify3/)
    expect(text).to.match(/MISS {2}boot distinct enclave-runtime-lazy +CPU .* RSS 1\.010x fastify3/)
  })

  it('the -cached rows (schemaCache) are judged like their mode: eager-cached against the floor, lazy-cached against fastify3', () => {
    const text = targetLines([], [report({
      fastify3: median(1000), raw: median(600),
      'enclave-runtime': median(800), 'enclave-runtime-cached': median(420),
      'enclave-runtime-lazy-cached': median(70, { firstRequestCpuMs: 2.7 }),
    })], 'fastify3', 'raw')
    expect(text).to.match(/MISS {2}boot distinct enclave-runtime +CPU 1\.333x floor/)
    expect(text).to.match(/met {3}boot distinct enclave-runtime-cached +CPU 0\.700x floor \(<= 1\.05\)/)
    expect(text).to.match(/met {3}boot distinct enclave-runtime-lazy-cached +CPU 0\.070x fastify3 \(<= 0\.30\)/)
  })

  it('the decorator rows are information only, never met or missed', () => {
    const text = targetLines([], [report({ fastify3: median(1000), raw: median(600), 'enclave-decorators': median(2000), 'enclave-decorators-lazy': median(900) })], 'fastify3', 'raw')
    expect(text).to.match(/n\/a {3}boot distinct enclave-decorators +CPU .*\(information\)/)
    expect(text).to.match(/n\/a {3}boot distinct enclave-decorators-lazy +CPU 0\.900x fastify3 .*\(information\)/)
  })
})
