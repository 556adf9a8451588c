// Keeps docs/spec-conformance.md honest: every row names a test that exists, no clause id appears
// twice, and every conformance test has its row. Reads the TypeScript sources, so it works from
// the compiled file in dist/ as well.
import { expect } from 'chai'
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

const repo = join(__dirname, '..', '..', '..')
const docPath = join(repo, 'docs', 'spec-conformance.md')
const conformanceDir = join(repo, 'test', 'conformance')

interface Row { line: number; clause: string; statement: string; title: string | null; note: string }

/** The table rows of the document: lines that start with `| §`. */
function readRows(): Row[] {
  const rows: Row[] = []
  readFileSync(docPath, 'utf8').split('\n').forEach((text, index) => {
    if (!text.startsWith('| §')) return
    const cells = text.trim().replace(/^\|/, '').replace(/\|$/, '').split(' | ').map((cell) => cell.trim())
    if (cells.length !== 4) throw new Error(`docs/spec-conformance.md:${index + 1} has ${cells.length} cells, not 4: ${text}`)
    const [clause, statement, test, note] = cells
    const title = test === '-' ? null : test.replace(/^`/, '').replace(/`$/, '')
    rows.push({ line: index + 1, clause, statement, title, note })
  })
  return rows
}

/** Every `*.test.ts` file under `dir`. */
function testSources(dir: string): string[] {
  const found: string[] = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) found.push(...testSources(path))
    else if (name.endsWith('.test.ts')) found.push(path)
  }
  return found
}

/** The title as it would be written as a complete string literal, in either quote style. */
function literals(title: string): string[] {
  const escaped = title.replace(/\\/g, '\\\\')
  return [`'${escaped.replace(/'/g, "\\'")}'`, `"${escaped.replace(/"/g, '\\"')}"`]
}

/** The titles of the tests in one source that start with a clause sign, unescaped. */
function clauseTestTitles(source: string): string[] {
  const titles: string[] = []
  const pattern = /\bit\(\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")/g
  for (let match = pattern.exec(source); match !== null; match = pattern.exec(source)) {
    const title = (match[1] ?? match[2]).replace(/\\(.)/g, '$1')
    if (title.startsWith('§')) titles.push(title)
  }
  return titles
}

describe('docs/spec-conformance.md', () => {
  const rows = readRows()
  const sources = testSources(join(repo, 'test')).map((path) => ({ path, text: readFileSync(path, 'utf8') }))

  it('has rows', () => {
    expect(rows.length).to.be.greaterThan(100)
  })

  it('names no clause id twice', () => {
    const seen = new Map<string, number>()
    const duplicates: string[] = []
    for (const row of rows) {
      const first = seen.get(row.clause)
      if (first !== undefined) duplicates.push(`${row.clause} (lines ${first} and ${row.line})`)
      else seen.set(row.clause, row.line)
    }
    expect(duplicates, 'clause ids that appear twice').to.deep.equal([])
  })

  it('names, in every row, a test title that exists in test/**/*.test.ts', () => {
    const missing = rows
      .filter((row) => row.title !== null && !sources.some((source) => literals(row.title as string).some((literal) => source.text.includes(literal))))
      .map((row) => `line ${row.line} (${row.clause}): ${row.title}`)
    expect(missing, 'rows whose test title is not an it() title in any test source').to.deep.equal([])
  })

  it('links each row to its clause: the test title starts with the clause id', () => {
    const unlinked = rows.filter((row) => row.title !== null && !row.title.startsWith(`${row.clause}: `)).map((row) => `line ${row.line}: ${row.clause}`)
    expect(unlinked).to.deep.equal([])
  })

  it('leaves a row without a test only for a statement of absence, with a note saying so', () => {
    const bare = rows.filter((row) => row.title === null && row.note.length < 20).map((row) => `line ${row.line}: ${row.clause}`)
    expect(bare).to.deep.equal([])
    expect(rows.filter((row) => row.title === null).length, 'rows without a test').to.be.lessThan(5)
  })

  it('has a row for every conformance test', () => {
    const documented = new Set(rows.map((row) => row.title))
    const undocumented: string[] = []
    for (const source of sources.filter((s) => s.path.startsWith(conformanceDir))) {
      for (const title of clauseTestTitles(source.text)) {
        if (!documented.has(title)) undocumented.push(`${relative(repo, source.path)}: ${title}`)
      }
    }
    expect(undocumented, 'conformance tests missing from the document').to.deep.equal([])
  })

  it('covers every section of the spec that states behaviour', () => {
    const sections = ['1', '2.1', '2.2', '2.3', '2.4', '2.5', '2.6', '2.7', '3', '3.1', '3.2', '3.3', '4', '4.1', '4.2', '5', '6', '7', '8', '9']
    const covered = (section: string): boolean => rows.some((row) => row.clause.startsWith(`§${section}-`) || row.clause.startsWith(`§${section}.`))
    expect(sections.filter((section) => !covered(section))).to.deep.equal([])
  })
})
