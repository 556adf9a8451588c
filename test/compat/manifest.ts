// The checked-in list of Fastify tests expected to fail against Enclave, each with a category and
// a one-line reason (docs/fastify-compat.md explains the categories). The suite compares every
// run with it both ways, so it cannot rot: a new failure fails the suite, a fixed one is printed.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { FileResult } from './results'

export const categories = {
  a: 'Enclave bug',
  b: 'API Enclave does not offer',
  c: 'deliberate, documented difference',
  d: 'Fastify internal API',
  e: 'harness limitation',
} as const
export type Category = keyof typeof categories

export interface ExpectedFailure { category: Category; reason: string }
/** file -> top-level test name -> why it fails. The name `(load)` stands for the file failing to load. */
export type Manifest = Record<string, Record<string, ExpectedFailure>>

export const manifestPath = path.join(__dirname, '..', '..', '..', 'test', 'compat', 'expected-failures.json')

export function loadManifest(): Manifest {
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest
  for (const [file, tests] of Object.entries(manifest)) {
    for (const [name, entry] of Object.entries(tests)) {
      if (!(entry.category in categories) || typeof entry.reason !== 'string' || entry.reason.trim() === '') {
        throw new Error(`expected-failures.json: "${file}" > "${name}" needs a category (${Object.keys(categories).join(', ')}) and a reason`)
      }
    }
  }
  return manifest
}

export interface Comparison {
  /** Failing, and not in the manifest: each with its first failure lines. */
  unexpected: string[]
  /** In the manifest, and passing now: the list can shrink. */
  nowPassing: string[]
  /** In the manifest, but no such test ran: a renamed or removed test. */
  unknown: string[]
}

export function compare(result: FileResult, expected: Record<string, ExpectedFailure> = {}): Comparison {
  const out: Comparison = { unexpected: [], nowPassing: [], unknown: [] }
  const seen = new Set<string>()
  if (result.loadError !== null && expected['(load)'] === undefined) out.unexpected.push(`(load): ${result.loadError}`)
  if (result.loadError !== null) seen.add('(load)')
  for (const test of result.tests) {
    seen.add(test.name)
    const listed = expected[test.name] !== undefined
    if (test.status === 'fail' && !listed) {
      const logged = test.logged.length > 0 ? `\n      logged: ${test.logged.slice(0, 2).join(' | ')}` : ''
      out.unexpected.push(`"${test.name}":\n      ${test.failures.slice(0, 3).join('\n      ')}${logged}`)
    }
    if (test.status === 'pass' && listed) out.nowPassing.push(`${result.file} > "${test.name}"`)
  }
  for (const name of Object.keys(expected)) if (!seen.has(name)) out.unknown.push(name)
  return out
}
