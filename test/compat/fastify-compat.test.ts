// Fastify 3.27.4's own test files, unedited, from the installed tarball, run against Enclave
// (issue 12). Every failing test must be listed in expected-failures.json with its category and
// reason; a failure not listed fails this suite, and listed tests that now pass are printed so
// the list can shrink. How it works: docs/fastify-compat.md.
import { expect } from 'chai'
import { compatFiles } from './compat-files'
import { runFile, runFiles } from './run-all'
import { loadManifest, compare } from './manifest'
import type { FileResult } from './results'

describe('Fastify 3.27.4 test files against Enclave (docs/fastify-compat.md)', function () {
  this.timeout(180_000)
  const manifest = loadManifest()
  let runs: Map<string, Promise<FileResult>>
  const nowPassing: string[] = []

  before(() => { runs = runFiles(compatFiles) })

  after(() => {
    if (nowPassing.length === 0) return
    console.log(`\n    ${nowPassing.length} test(s) listed in test/compat/expected-failures.json pass now; remove them from the list:`)
    for (const line of nowPassing) console.log(`      ${line}`)
  })

  it('expected-failures.json lists only the files that run', () => {
    expect(Object.keys(manifest).filter((file) => !compatFiles.includes(file))).to.deep.equal([])
  })

  for (const file of compatFiles) {
    it(`${file}: every failing test is listed in expected-failures.json, and every listed test exists`, async () => {
      let outcome = compare(await runs.get(file)!, manifest[file])
      // A test that passes can still time out on a loaded machine: a failure must show twice to count.
      if (outcome.unexpected.length > 0) {
        const again = compare(await runFile(file), manifest[file])
        outcome = { ...again, unexpected: again.unexpected.filter((line) => outcome.unexpected.some((first) => first.split('\n')[0] === line.split('\n')[0])) }
      }
      nowPassing.push(...outcome.nowPassing)
      const problems = [
        ...outcome.unexpected.map((line) => `fails but is not listed: ${line}`),
        ...outcome.unknown.map((name) => `listed but no such test ran: "${name}"`),
      ]
      expect(problems, `${file}\n    ${problems.join('\n    ')}\n`).to.deep.equal([])
    })
  }
})
