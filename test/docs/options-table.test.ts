import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'chai'
import { knownServerOptions } from '../../src/runtime/declare/option-checks'

// docs/options.md's table (README's documentation index links to it) is where a newcomer looks up an option and its default; an option
// createServer() accepts but the table leaves out is one nobody finds.
const root = join(__dirname, '..', '..', '..')

describe('docs/options.md: the Options table', () => {
  it('has a row for every option createServer() accepts, and for createApp()\'s own', () => {
    const page = readFileSync(join(root, 'docs', 'options.md'), 'utf8')
    expect(page.startsWith('# Options'), 'docs/options.md opens with its Options heading').to.equal(true)
    const end = page.indexOf('\n## ')
    const table = page.slice(0, end < 0 ? undefined : end)
    // A row's first cell may name several (`genReqId` / `requestIdHeader`) or a sub-option (`validator.plugins`).
    const firstCells = [...table.matchAll(/^\| ([^|]+)\|/gm)].map((m) => m[1])
    const rows = new Set(firstCells.flatMap((cell) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1].split('.')[0])))
    // `ajv` is Fastify's name for `validator`, documented with it in the differences list.
    const expected = [...knownServerOptions.filter((name) => name !== 'ajv'), 'closeOnSignals', 'health', 'overrides']
    expect(expected.filter((name) => !rows.has(name))).to.deep.equal([])
  })
})
