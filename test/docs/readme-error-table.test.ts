import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'chai'
import { sourceFiles } from '../architecture/import-graph'
import { errorCodeTable } from '../../src'

const root = join(__dirname, '..', '..', '..')

function renderTable(): string {
  const rows = errorCodeTable.map((e) => `| \`${e.code}\` | ${e.status === null ? 'boot' : e.status === 'none' ? 'not sent' : e.status} | ${e.summary} |`)
  return ['| code | status | when |', '|---|---|---|', ...rows].join('\n')
}

// The table lives in docs/errors.md (README's documentation index links to it).
describe('docs/errors.md: the error-code table', () => {
  it('lists exactly the codes of errorCodeTable, with their status and summary', () => {
    const errors = readFileSync(join(root, 'docs', 'errors.md'), 'utf8')
    const section = /<!-- error-codes:start -->\n([\s\S]*?)\n<!-- error-codes:end -->/.exec(errors)
    expect(section, 'docs/errors.md has the error-codes markers').to.not.equal(null)
    // On failure the expected text is printed in full: paste it between the markers.
    expect((section as RegExpExecArray)[1]).to.equal(renderTable())
  })

  it('has an entry for every ENC_ERR_ code the source raises', () => {
    const known = new Set(errorCodeTable.map((e) => e.code))
    const used = new Set<string>()
    for (const file of sourceFiles(join(root, 'src'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(/'(ENC_ERR_[A-Z0-9_]+)'/g)) used.add(match[1])
    }
    expect([...used].filter((code) => !known.has(code))).to.deep.equal([])
  })

  it('README keeps the two quick-start commands and links to the table', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8')
    expect(readme).to.include('npm install && npm start')
    expect(readme).to.include('npm install && npm test')
    expect(readme).to.include('](docs/errors.md)')
  })
})
