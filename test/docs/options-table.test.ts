import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'chai'
import { knownServerOptions } from '../../src/runtime/declare/option-checks'

// The README's Options table is where a newcomer looks up an option and its default; an option
// createServer() accepts but the table leaves out is one nobody finds.
const root = join(__dirname, '..', '..', '..')

describe('README: the Options table', () => {
  it('has a row for every option createServer() accepts, and for createApp()\'s own', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8')
    const start = readme.indexOf('\n## Options')
    const table = readme.slice(start, readme.indexOf('\n## ', start + 1))
    // A row's first cell may name several (`genReqId` / `requestIdHeader`) or a sub-option (`validator.plugins`).
    const firstCells = [...table.matchAll(/^\| ([^|]+)\|/gm)].map((m) => m[1])
    const rows = new Set(firstCells.flatMap((cell) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1].split('.')[0])))
    // `ajv` is Fastify's name for `validator`, documented with it in the differences list.
    const expected = [...knownServerOptions.filter((name) => name !== 'ajv'), 'closeOnSignals', 'health', 'overrides']
    expect(expected.filter((name) => !rows.has(name))).to.deep.equal([])
  })
})
