import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'chai'
import { sourceFiles } from '../architecture/import-graph'
import { bootWarningTable } from '../../src/runtime/boot/boot-warnings'

const root = join(__dirname, '..', '..', '..')

// The table lives in docs/errors.md, "Boot warnings".
describe('docs/errors.md: the boot-warning table', () => {
  it('lists exactly the codes of bootWarningTable, with their summary', () => {
    const errors = readFileSync(join(root, 'docs', 'errors.md'), 'utf8')
    const section = /<!-- warning-codes:start -->\n([\s\S]*?)\n<!-- warning-codes:end -->/.exec(errors)
    expect(section, 'docs/errors.md has the warning-codes markers').to.not.equal(null)
    const expected = ['| code | when |', '|---|---|', ...bootWarningTable.map((w) => `| \`${w.code}\` | ${w.summary} |`)].join('\n')
    // On failure the expected text is printed in full: paste it between the markers.
    expect((section as RegExpExecArray)[1]).to.equal(expected)
  })

  it('has an entry for every ENC_WARN_ code the source uses', () => {
    const known = new Set<string>(bootWarningTable.map((w) => w.code))
    const used = new Set<string>()
    for (const file of sourceFiles(join(root, 'src'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(/'(ENC_WARN_[A-Z0-9_]+)'/g)) used.add(match[1])
    }
    expect([...used].filter((code) => !known.has(code))).to.deep.equal([])
  })
})
