// The boot table: medians per contender, and time and RSS as fractions of the reference's.
import type { BootReport } from '../boot'
import { renderTable, fixed, ratio } from './text-table'

const MB = 2 ** 20

export function bootTable(report: BootReport, reference: string): string {
  const ref = report.results[reference]?.median
  const rows = Object.entries(report.results).map(([name, { median: m }]) => [
    name,
    fixed(m.readyMs, 0),
    fixed(m.readyCpuMs, 0),
    fixed(m.sinceStartMs, 0),
    fixed(m.rssBytes / MB, 1),
    fixed(m.heapUsedBytes / MB, 1),
    fixed(m.firstRequestMs, 2),
    fixed(m.firstRequestCpuMs, 2),
    fixed(m.firstRequestServerCpuMs, 2),
    ratio(ref === undefined ? null : m.readyMs / ref.readyMs),
    ratio(ref === undefined ? null : m.readyCpuMs / ref.readyCpuMs),
    ratio(ref === undefined ? null : m.rssBytes / ref.rssBytes),
  ])
  const headers = [`boot, ${report.routes} routes, ${report.shape} schemas`, 'to listening ms', 'CPU ms', 'from process start ms', 'RSS MB', 'heap MB', 'first request ms', 'its CPU ms', 'server CPU ms',
    `time ÷${reference}`, `CPU ÷${reference}`, `RSS ÷${reference}`]
  const runs = Math.max(0, ...Object.values(report.results).map((r) => r.median.runs))
  const skipped = Object.entries(report.skipped).map(([name, why]) => `skipped ${name}: ${why.split('\n')[0]}`)
  return [renderTable(headers, rows, 1),
    `Medians of ${runs} fresh process(es). "to listening": from creating the app to listening, wall clock (raw: to its schemas compiled); CPU: the CPU time of that span. ` +
      'RSS and heap at listen, after a full GC. First request: wall clock of the first request to the last route (lazy: includes compiling it), ' +
      'the process\'s CPU over it (its in-process client included), and the server\'s own main-thread CPU from node\'s request event to end(). ÷: lower is better.',
    ...skipped].join('\n')
}
