// docs/tutorial-first-service.md, "When something goes wrong": every code a row quotes is a real one
// (the rows' behaviours are tested where they live: option-typos, undecorated-handler-params,
// http-error-shapes, listen-failure, unlogged-server-error, schemas/required-typo).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'chai'
import { errorCodeTable } from '../../src'
import { bootWarningTable } from '../../src/runtime/boot/boot-warnings'

const root = join(__dirname, '..', '..', '..')

describe("docs/tutorial-first-service.md: the beginner mistakes table", () => {
  it('quotes only codes Enclave has, in at least 20 rows', () => {
    const page = readFileSync(join(root, 'docs', 'tutorial-first-service.md'), 'utf8')
    const section = page.slice(page.indexOf('## When something goes wrong'))
    const rows = section.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| you did'))
    expect(rows.length).to.be.at.least(20)
    const known = new Set([...errorCodeTable.map((e) => e.code), ...bootWarningTable.map((w) => w.code)])
    const quoted = [...section.matchAll(/ENC_(?:ERR|WARN)_[A-Z0-9_]+/g)].map((m) => m[0])
    expect(quoted.filter((code) => !known.has(code))).to.deep.equal([])
  })
})
