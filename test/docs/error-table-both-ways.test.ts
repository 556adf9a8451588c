import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { expect } from 'chai'
import { sourceFiles } from '../architecture/import-graph'
import { errorCodeTable } from '../../src'

const root = join(__dirname, '..', '..', '..')

/** Test files that list every code (tables, not behaviour): a code must be shown by some other test. */
const enumerating = new Set([
  join('test', 'docs', 'readme-error-table.test.ts'), join('test', 'docs', 'error-table-both-ways.test.ts'),
  join('test', 'hardening', 'request-ids-and-codes.test.ts'), join('test', 'runtime', 'layering-and-codes.test.ts'),
])

describe('errors: the code table, both ways (issue 11)', () => {
  it('every code of the table is shown by at least one behaviour test', () => {
    const texts = sourceFiles(join(root, 'test')).filter((f) => !enumerating.has(relative(root, f))).map((f) => readFileSync(f, 'utf8'))
    const unshown = errorCodeTable.map((e) => e.code).filter((code) => !texts.some((text) => text.includes(code)))
    expect(errorCodeTable.length).to.be.greaterThan(60)
    expect(unshown, 'codes no test raises: write a test that triggers each, or remove the code').to.deep.equal([])
  })

  it('every code written anywhere in src/ is in the table', () => {
    const known = new Set(errorCodeTable.map((e) => e.code))
    const unknown: string[] = []
    for (const file of sourceFiles(join(root, 'src'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(/(ENC_ERR_[A-Z0-9_]+)/g)) {
        if (!known.has(match[1])) unknown.push(`${relative(root, file)}: ${match[1]}`)
      }
    }
    expect(unknown).to.deep.equal([])
  })

  it('runtime, schema, module, plugin and cluster errors are built from their tables: no coded error is constructed by hand', () => {
    // The factories (errors/define-errors.ts) are the only constructors; throw sites pass arguments.
    const allowed = new Set([join('src', 'runtime', 'errors', 'define-errors.ts'), join('src', 'runtime', 'errors', 'framework-error.ts')])
    const areas = [join('src', 'runtime'), join('src', 'plugins'), join('src', 'modules'), join('src', 'cluster')]
    const byHand: string[] = []
    for (const area of areas) {
      for (const file of sourceFiles(join(root, area))) {
        const rel = relative(root, file)
        if (allowed.has(rel)) continue
        if (/new FrameworkError\(/.test(readFileSync(file, 'utf8'))) byHand.push(rel)
      }
    }
    expect(byHand).to.deep.equal([])
  })

  it('decorator errors are built from their table: DeclarationError is constructed only by declarationError()', () => {
    const byHand = sourceFiles(join(root, 'src', 'decorators'))
      .filter((file) => !file.endsWith('declaration-error.ts') && /new DeclarationError\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file))
    expect(byHand).to.deep.equal([])
  })
})
