import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { expect } from 'chai'

// The docs point at each other two ways: markdown links ([text](file#anchor)) and quoted
// section names (docs/schema-compilation.md, "Schema cache", README differences: "A 5xx never shows ..."). A heading
// renamed or a list item reworded leaves the pointer dangling, and nothing else notices.
const root = join(__dirname, '..', '..', '..')
const docFiles = ['README.md', 'sample/README.md', 'bench/README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]

const normalize = (text: string): string => text.replace(/[`*]/g, '').replace(/\s+/g, ' ').trim().toLowerCase()

// GitHub's anchor for a heading: lower case, punctuation dropped, spaces become hyphens.
const slug = (heading: string): string => heading.replace(/`/g, '').trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')

interface Targets { headings: string[]; anchors: string[]; paragraphs: string[] }

const parsed = new Map<string, Targets>()
function targets(file: string): Targets {
  if (!parsed.has(file)) parsed.set(file, parse(file))
  return parsed.get(file) as Targets
}

function parse(file: string): Targets {
  const headings: string[] = []
  const anchors: string[] = []
  const paragraphs: string[] = []
  let fenced = false
  let current: number | null = null
  for (const line of readFileSync(join(root, file), 'utf8').split('\n')) {
    if (line.startsWith('```')) { fenced = !fenced; current = null; continue }
    if (fenced) continue
    const heading = /^#+\s+(.*)/.exec(line)
    const item = /^\s*[-*]\s+(.*)/.exec(line)
    if (heading) { headings.push(normalize(heading[1])); anchors.push(slug(heading[1])); current = null }
    else if (line.trim() === '') current = null
    else if (item) { current = paragraphs.length; paragraphs.push(item[1]) }
    else if (current !== null) paragraphs[current] += ` ${line}`
    else { current = paragraphs.length; paragraphs.push(line) }
  }
  return { headings, anchors, paragraphs: paragraphs.map(normalize) }
}

// A quote may shorten the text it names with "...": the pieces must appear in order.
function contains(text: string, quote: string): boolean {
  let at = 0
  for (const piece of quote.split('...').map((p) => p.trim()).filter(Boolean)) {
    const found = text.indexOf(piece, at)
    if (found < 0) return false
    at = found + piece.length
  }
  return true
}

function dangling(): string[] {
  const problems: string[] = []
  for (const file of docFiles) {
    let fenced = false
    readFileSync(join(root, file), 'utf8').split('\n').forEach((line, index) => {
      const where = `${file}:${index + 1}`
      const fence = line.startsWith('```')
      if (fence) fenced = !fenced
      // README "Heading", docs/x.md, "Heading": a section; README: "..." / README differences: "...": a passage.
      for (const ref of line.matchAll(/\b(README(?:\.md)?|docs\/[a-z-]+\.md)( differences:|:)?,?\s+(?:section\s+)?"([^"]+)"/g)) {
        const target = ref[1].startsWith('README') ? 'README.md' : ref[1]
        if (!existsSync(join(root, target))) { problems.push(`${where}: ${ref[0]} (no such file)`); continue }
        const t = targets(target)
        const pool = ref[2] ? t.paragraphs : t.headings
        if (!pool.some((text) => contains(text, normalize(ref[3])))) problems.push(`${where}: ${ref[0]} (no ${ref[2] ? 'passage' : 'heading'} says that)`)
      }
      // A repository file named in the text (`test/docs/...`, bench/README.md); not dist/... nor an app's own src/.
      if (!fenced && !fence) for (const path of line.matchAll(/(?<![\w./-])((?:test|bench|examples|sample|scripts|docs|src\/(?:runtime|modules|decorators|plugins|cluster|testing))\/[\w./-]*\w\.(?:ts|md|json|js))\b/g)) {
        if (!existsSync(join(root, path[1]))) problems.push(`${where}: ${path[1]} (no such file in the repository)`)
      }
      for (const link of line.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(link[1])) continue
        const [path, anchor] = link[1].split('#')
        const target = path ? join(dirname(file), path) : file
        if (!existsSync(join(root, target))) { problems.push(`${where}: ${link[1]} (no such file)`); continue }
        if (anchor && target.endsWith('.md') && !targets(target).anchors.includes(anchor)) problems.push(`${where}: ${link[1]} (no such heading)`)
      }
    })
  }
  return problems
}

describe('Docs: cross-references', () => {
  it('every markdown link, quoted section name and repository file path in README.md, docs/*.md, sample/ and bench/ READMEs resolves', () => {
    expect(dangling()).to.deep.equal([])
  })
})
