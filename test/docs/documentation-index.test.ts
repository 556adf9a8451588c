import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'chai'

// README is the front page: what Enclave is, Quick start, Getting started, an index of the docs/
// pages, and the spec and Fastify-difference lists. The guide itself lives in docs/, one topic a
// page, so a newcomer finds a topic from the index (or from a page's neighbours) instead of
// scrolling a 5,000-line file.
const root = join(__dirname, '..', '..', '..')
const readme = readFileSync(join(root, 'README.md'), 'utf8')
const pages = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort()

function section(heading: string): string {
  const start = readme.indexOf(`\n${heading}\n`)
  expect(start, `README has "${heading}"`).to.be.greaterThan(-1)
  const end = readme.indexOf('\n## ', start + 1)
  return readme.slice(start, end < 0 ? undefined : end)
}

const index = section('## Documentation')
const indexed = [...index.matchAll(/\]\(docs\/([a-z-]+\.md)\)/g)].map((m) => m[1])

describe('Docs: README is a front page with an index of docs/', () => {
  it('keeps its own sections only; guide prose goes in a docs/ page the index links', () => {
    const headings = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1])
    expect(headings).to.deep.equal([
      'Quick start', 'Getting started (a new project)', 'Documentation', 'Where the spec says "not shown": what Enclave does',
      'Where Enclave deliberately differs from Fastify 3.27.4', 'Layout', 'Benchmarks',
    ])
  })

  it('keeps Getting started short: install, tsconfig, a first controller and module, main, a supertest test', () => {
    const lines = section('## Getting started (a new project)').split('\n').length
    // The six files a new project needs are ~110 lines of code; the prose around them moved to docs/installation.md.
    expect(lines, 'Getting started lines').to.be.at.most(180)
  })

  it('links every page under docs/ from the index (add a line to README "Documentation" for a new page)', () => {
    expect(pages.filter((page) => !indexed.includes(page))).to.deep.equal([])
  })

  it('every indexed page opens with its title and links back to the index', () => {
    const wrong = indexed.filter((page) => {
      const text = readFileSync(join(root, 'docs', page), 'utf8')
      return !text.startsWith('# ') || !text.includes('](../README.md#documentation)')
    })
    expect(wrong).to.deep.equal([])
  })
})
