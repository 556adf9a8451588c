// Regenerates the generated part of docs/fastify-compat.md (totals per file, and every expected
// failure grouped by category) from a fresh run and expected-failures.json. Run after changing
// Enclave or the manifest:   npm run build && node dist/test/compat/report.js
// With --prune it first runs every file twice and removes from the manifest the listed tests that
// passed both times (once is not enough: a few Fastify tests depend on timing).
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { compatFiles } from './compat-files'
import { runFiles } from './run-all'
import { categories, compare, loadManifest, manifestPath } from './manifest'
import type { Category } from './manifest'
import type { FileResult } from './results'

const docPath = path.join(__dirname, '..', '..', '..', 'docs', 'fastify-compat.md')
const begin = '<!-- compat-report:begin -->'
const end = '<!-- compat-report:end -->'

async function runAll(): Promise<FileResult[]> {
  const runs = runFiles(compatFiles)
  const results: FileResult[] = []
  for (const file of compatFiles) results.push(await runs.get(file)!)
  return results
}

function passingListed(results: FileResult[], manifest: ReturnType<typeof loadManifest>): Set<string> {
  const out = new Set<string>()
  for (const result of results) {
    for (const test of result.tests) if (test.status === 'pass' && manifest[result.file]?.[test.name] !== undefined) out.add(JSON.stringify([result.file, test.name]))
  }
  return out
}

async function prune(): Promise<void> {
  const manifest = loadManifest()
  const first = passingListed(await runAll(), manifest)
  const second = passingListed(await runAll(), manifest)
  let removed = 0
  for (const key of first) {
    if (!second.has(key)) continue
    const [file, name] = JSON.parse(key) as [string, string]
    delete manifest[file][name]
    removed++
  }
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2) + '\n')
  console.log(`pruned ${removed} listed tests that passed twice`)
}

async function main(): Promise<void> {
  if (process.argv.includes('--prune')) await prune()
  const manifest = loadManifest()
  const results = await runAll()

  const lines: string[] = ['### Totals per file', '', '| file | tests | pass | fail | skip | a | b | c | d | e |', '|---|---|---|---|---|---|---|---|---|---|']
  const sum = { tests: 0, pass: 0, fail: 0, skip: 0, a: 0, b: 0, c: 0, d: 0, e: 0 }
  const problems: string[] = []
  for (const result of results) {
    const count = (status: string): number => result.tests.filter((test) => test.status === status).length
    const perCategory = { a: 0, b: 0, c: 0, d: 0, e: 0 }
    for (const test of result.tests) {
      const entry = manifest[result.file]?.[test.name]
      if (test.status === 'fail' && entry !== undefined) perCategory[entry.category]++
    }
    const row = { tests: result.tests.length, pass: count('pass'), fail: count('fail'), skip: count('skip'), ...perCategory }
    for (const key of Object.keys(sum) as Array<keyof typeof sum>) sum[key] += row[key]
    lines.push(`| ${result.file} | ${row.tests} | ${row.pass} | ${row.fail} | ${row.skip} | ${row.a} | ${row.b} | ${row.c} | ${row.d} | ${row.e} |`)
    const outcome = compare(result, manifest[result.file])
    problems.push(...outcome.unexpected.map((line) => `${result.file} not listed: ${line}`), ...outcome.nowPassing.map((line) => `now passing: ${line}`))
  }
  lines.push(`| **all** | ${sum.tests} | ${sum.pass} | ${sum.fail} | ${sum.skip} | ${sum.a} | ${sum.b} | ${sum.c} | ${sum.d} | ${sum.e} |`, '')

  for (const category of Object.keys(categories) as Category[]) {
    const rows: string[] = []
    for (const file of compatFiles) {
      for (const [name, entry] of Object.entries(manifest[file] ?? {})) {
        if (entry.category === category) rows.push(`| ${file} | ${escape(name)} | ${escape(entry.reason)} |`)
      }
    }
    lines.push(`### (${category}) ${categories[category]}: ${rows.length}`, '')
    if (rows.length === 0) { lines.push('None.', ''); continue }
    lines.push('| file | test | reason |', '|---|---|---|', ...rows, '')
  }

  const doc = readFileSync(docPath, 'utf8')
  const start = doc.indexOf(begin)
  const stop = doc.indexOf(end)
  if (start < 0 || stop < 0) throw new Error(`${docPath} needs the ${begin} and ${end} markers`)
  writeFileSync(docPath, doc.slice(0, start + begin.length) + '\n' + lines.join('\n') + '\n' + doc.slice(stop))
  console.log(`${sum.tests} tests: ${sum.pass} pass, ${sum.fail} fail, ${sum.skip} skipped`)
  for (const line of problems) console.log(line)
}

function escape(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ')
}

main().catch((error: unknown) => { console.error(error); process.exit(1) })
