import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { expect } from 'chai'
import { sourceFiles } from '../architecture/import-graph'

// Error messages and comments in src/ send a reader to a section: `(docs/request-scope.md,
// "Request-scoped providers")`. The guide moved out of README into docs/ once (session 23); a
// section that moves or is renamed again must take these pointers with it, or a boot error
// names a heading nobody can find.
const root = join(__dirname, '..', '..', '..')

const normalize = (text: string): string => text.replace(/[`*]/g, '').replace(/\s+/g, ' ').trim().toLowerCase()

function headings(file: string): string[] {
  let fenced = false
  const found: string[] = []
  for (const line of readFileSync(join(root, file), 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced
    const heading = fenced ? null : /^#+\s+(.*)/.exec(line)
    if (heading) found.push(normalize(heading[1]))
  }
  return found
}

/** `README "X"` or `docs/x.md, "X"` in a source text (a message string's quotes may be escaped; a comment may wrap). */
export function sectionReferences(text: string): Array<{ file: string; heading: string }> {
  return [...text.matchAll(/(?<![\w/.-])(README(?:\.md)?|docs\/[a-z-]+\.md),?(?:\s|\*|\/\/)+\\?"([^"\\\n]+)\\?"/g)]
    .map((m) => ({ file: m[1].startsWith('README') ? 'README.md' : m[1], heading: m[2] }))
}

describe('Docs: the sections src/ cites in its messages and comments exist', () => {
  it('finds a reference written across a comment\'s line break and one inside an escaped message string', () => {
    expect(sectionReferences('// socket (docs/operations.md,\n// "Scale-out"). x')).to.deep.equal([{ file: 'docs/operations.md', heading: 'Scale-out' }])
    expect(sectionReferences('"or a singleton (docs/request-scope.md, \\"Transient providers\\")."')).to.deep.equal([{ file: 'docs/request-scope.md', heading: 'Transient providers' }])
    expect(sectionReferences('bench/README "session 18"')).to.deep.equal([])
  })

  it('every README "X" / docs/x.md, "X" in src/ names a heading of that file', () => {
    const dangling: string[] = []
    let seen = 0
    for (const path of sourceFiles(join(root, 'src'))) {
      for (const ref of sectionReferences(readFileSync(path, 'utf8'))) {
        seen++
        let known: string[] = []
        try { known = headings(ref.file) } catch { /* no such file */ }
        if (!known.some((h) => h.includes(normalize(ref.heading)))) dangling.push(`${relative(root, path)}: ${ref.file}, "${ref.heading}"`)
      }
    }
    expect(seen, 'references found (the pattern still matches)').to.be.greaterThan(20)
    expect(dangling).to.deep.equal([])
  })
})
