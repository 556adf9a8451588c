import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'chai'
import ts from 'typescript'
import { codeLineTexts, codeLines, typeScriptFiles } from '../../examples/count-lines'
import { extractBlocks } from '../docs/code-blocks'

// docs/typed-tour.md, "Typed tour", shows examples/notes file by file and states its line count: both must
// follow the example when it changes.
const root = join(__dirname, '..', '..', '..')
const tour = readFileSync(join(root, 'docs', 'typed-tour.md'), 'utf8')
const notesFolder = join(root, 'examples', 'notes')

describe('docs/typed-tour.md: the notes service it shows is examples/notes', () => {
  it('is the typed tour page', () => {
    expect(tour.startsWith('# Typed tour')).to.equal(true)
  })

  const blocks = extractBlocks('docs/typed-tour.md', tour).filter((b) => b.path?.startsWith('notes/'))

  it('has one block per file of examples/notes but main.ts', () => {
    expect(blocks.map((b) => b.path).sort()).to.deep.equal(
      typeScriptFiles(notesFolder).map((file) => `notes/${file.slice(notesFolder.length + 1)}`).filter((p) => p !== 'notes/main.ts'))
  })

  for (const block of blocks) {
    it(`${block.path} holds the same code lines as examples/${block.path} (comments aside)`, () => {
      const file = readFileSync(join(root, 'examples', block.path!), 'utf8')
      const shown = block.code.replace(/from 'enclave'/g, "from '../../src'")
      expect(codeLineTexts(shown)).to.deep.equal(codeLineTexts(file))
    })
  }

  it('states the line count examples/count-lines gives for examples/notes', () => {
    const total = typeScriptFiles(notesFolder).reduce((sum, file) => sum + codeLines(readFileSync(file, 'utf8')), 0)
    const row = /^\| lines of code \| (\d+) \| (\d+) \|$/m.exec(tour)
    expect(row, 'the "lines of code" row of the comparison table').to.not.equal(null)
    expect(Number(row![1])).to.equal(total)
    expect(Number(row![1])).to.be.at.most(Number(row![2]))
  })
})

describe('examples/notes is fully typed', () => {
  // strict already refuses implicit any (an untyped handler parameter); this catches the explicit
  // escapes: an `any` annotation, or a cast (`as T`, `<T>x`) that would stand in for a checked type.
  it('has no `any` and no type assertion (but `as const`) in any file', () => {
    const escapes: string[] = []
    for (const path of typeScriptFiles(notesFolder)) {
      const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true)
      const visit = (node: ts.Node): void => {
        const cast = (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && node.type.getText(file) !== 'const'
        if (node.kind === ts.SyntaxKind.AnyKeyword || cast) {
          escapes.push(`${path}:${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}: ${node.getText(file)}`)
        }
        ts.forEachChild(node, visit)
      }
      visit(file)
    }
    expect(escapes).to.deep.equal([])
  })
})

describe('examples/count-lines: lines that hold code', () => {
  it('leaves out blank lines, line comments and block comments', () => {
    expect(codeLines(['// a comment', '', '/**', ' * docs', ' */', 'const a = 1', '   ', '/* x */'].join('\n'))).to.equal(1)
  })
  it('counts a line with code and a trailing comment, and // or /* inside strings and regexes as code', () => {
    expect(codeLineTexts(["const url = 'http://x' // why", 'const re = /a\\/\\/b/', "const s = '/* not a comment */'"].join('\n')))
      .to.deep.equal(["const url = 'http://x' // why", 'const re = /a\\/\\/b/', "const s = '/* not a comment */'"])
  })
  it('counts every line of a multi-line template literal or call', () => {
    expect(codeLines(['const t = `one', '', 'three`', 'f(', '  1,', ')'].join('\n'))).to.equal(6)
  })
  it('ends a template with substitutions where it ends, so comments after it stay comments', () => {
    expect(codeLines(['const n = 1', 'const a = `x ${n} y`', '', '// c', 'const b = `z`'].join('\n'))).to.equal(3)
  })
})
