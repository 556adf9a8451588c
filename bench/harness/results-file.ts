// Writes the full run (options, environment, every sample, medians) to bench/results/ as JSON.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve, relative } from 'node:path'

/** bench/results in the source tree: this file runs from dist/bench/harness/. */
export const RESULTS_DIR = resolve(__dirname, '..', '..', '..', 'bench', 'results')

export function writeResults(data: unknown): string {
  mkdirSync(RESULTS_DIR, { recursive: true })
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  const file = join(RESULTS_DIR, `bench-${stamp}.json`)
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`)
  return relative(process.cwd(), file)
}
