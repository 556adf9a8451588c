// docs/tutorial-first-service.md: its files are one project (app-module.ts declares what
// @fastify/jwt adds, and the controllers use it), so they are marked no-check for the per-block
// checker (test/docs/code-blocks.test.ts, which checks a `declare module` block apart from the
// others) and compiled here together, under the same options, as the tutorial's reader builds them.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'chai'
import { checkBlocks, docCompilerOptions, extractBlocks } from '../docs/code-blocks'

const root = join(__dirname, '..', '..', '..')
const page = 'docs/tutorial-first-service.md'

describe('docs/tutorial-first-service.md: the tutorial\'s files compile together as one project', function () {
  this.timeout(600_000)

  it('every ```ts file block (src/ and test/) compiles under strict with the others, against the package types', () => {
    const files = extractBlocks(page, readFileSync(join(root, page), 'utf8')).filter((b) => b.language === 'ts' && b.path !== null)
    expect(files.map((b) => b.path)).to.deep.equal([
      'src/users.ts', 'src/auth-controller.ts', 'src/notes.ts', 'src/notes-controller.ts', 'src/app-module.ts', 'src/main.ts', 'test/notes.test.ts',
    ])
    const diagnostics = checkBlocks(root, files, docCompilerOptions(join(root, 'dist', 'src', 'index.d.ts')))
    expect([...diagnostics.values()].flat()).to.deep.equal([])
  })
})
