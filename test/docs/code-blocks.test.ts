// Every TypeScript block a reader may copy compiles under strict, against the package's own
// declarations. Markers in the info string: ```ts src/app-module.ts gives the block a path, so
// blocks of one document can import each other ('./app-module'); ```ts no-check leaves out a
// fragment that cannot stand alone (use it sparingly: it is shown, never checked).
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'chai'
import { checkBlocks, checkBlocksAsCopied, docCompilerOptions, documentationFiles, extractBlocks, isCheckedTypeScript, type CodeBlock } from './code-blocks'

const root = join(__dirname, '..', '..', '..')
// The declarations the build emits for src: what `import ... from 'enclave'` gives an app.
const packageTypes = join(root, 'dist', 'src', 'index.d.ts')

const blocks: CodeBlock[] = documentationFiles(root).flatMap((name) => extractBlocks(name, readFileSync(join(root, name), 'utf8')))
const checked = blocks.filter(isCheckedTypeScript)

describe('docs: every ```ts block of README.md and docs/ compiles under strict against the package types', function () {
  // The before() below compiles every block in-process, synchronously: 357 s at load ~20 on this
  // 2-core machine (the 120 s timeout failed the full run once). A bound on the compile, not a claim.
  this.timeout(600_000)
  let diagnostics: Map<CodeBlock, string[]>

  before(() => {
    expect(existsSync(packageTypes), `${packageTypes} (run the build first)`).to.equal(true)
    diagnostics = checkBlocksAsCopied(root, checked, docCompilerOptions(packageTypes))
  })

  it('finds the README blocks (the extraction works)', () => {
    expect(checked.filter((b) => b.where.startsWith('README.md:')).length).to.be.at.least(4)
  })

  for (const block of checked) {
    it(`${block.where} compiles`, () => {
      expect(diagnostics.get(block), block.code).to.deep.equal([])
    })
  }
})

describe('docs: the block checker itself', function () {
  this.timeout(120_000)

  it('resolves imports between blocks of one document by their paths', () => {
    const markdown = [
      '```ts src/clock.ts', 'export class Clock { now(): number { return 1 } }', '```',
      '```ts src/main.ts', "import { Clock } from './clock'", 'const n: string = new Clock().now()', '```',
    ].join('\n')
    const found = extractBlocks('paths.md', markdown)
    expect(found.map((b) => b.path)).to.deep.equal(['src/clock.ts', 'src/main.ts'])
    const messages = [...checkBlocks(root, found, docCompilerOptions(packageTypes)).values()].flat()
    expect(messages).to.have.length(1)
    expect(messages[0]).to.match(/^paths\.md:6: TS2322: Type 'number' is not assignable to type 'string'/)
  })

  it('checks a block as copied alone: another block\'s declare module \'enclave\' does not type its request.tenant', () => {
    const markdown = [
      '```ts', "declare module 'enclave' { interface RequestDecorations { tenant: string } }", "import { createServer } from 'enclave'",
      "createServer().get('/', async (request) => request.tenant)", '```',
      '```ts', "import { createServer } from 'enclave'", "createServer().get('/', async (request) => request.tenant)", '```',
    ].join('\n')
    const found = extractBlocks('alone.md', markdown)
    const result = checkBlocksAsCopied(root, found, docCompilerOptions(packageTypes))
    const [declaring, reading] = found.map((block) => result.get(block)!)
    expect(declaring).to.deep.equal([])
    expect(reading).to.have.length(1)
    expect(reading[0]).to.match(/^alone\.md:8: TS2339: Property 'tenant' does not exist/)
  })

  it('checks a document\'s path blocks as one project: its src/types.ts declaration types the other files, not a block without a path', () => {
    const markdown = [
      '```ts src/types.ts', "declare module 'enclave' { interface RequestDecorations { tenant: string } }", 'export {}', '```',
      '```ts src/app.ts', "import './types'", "import { createServer } from 'enclave'", "export const app = createServer().get('/', async (request) => request.tenant.toUpperCase())", '```',
      '```ts', "import { createServer } from 'enclave'", "createServer().get('/', async (request) => request.tenant)", '```',
      '```ts src/broken.ts', "import { createServer } from 'enclave'", "createServer().get('/', async (request) => request.tenant.length.toFixed(1).nope)", '```',
    ].join('\n')
    const found = extractBlocks('project.md', markdown)
    const result = checkBlocksAsCopied(root, found, docCompilerOptions(packageTypes))
    const [types, app, alone, broken] = found.map((block) => result.get(block)!)
    expect(types).to.deep.equal([])
    expect(app).to.deep.equal([])
    expect(alone).to.have.length(1)
    expect(alone[0]).to.match(/^project\.md:12: TS2339: Property 'tenant' does not exist/)
    expect(broken).to.have.length(1)
    expect(broken[0]).to.match(/^project\.md:16: TS2339: Property 'nope' does not exist/)
  })

  it('reports an untyped handler parameter at its Markdown line, and skips `ts no-check` blocks', () => {
    const markdown = [
      '# t', '', '```ts', "import { Get } from 'enclave'", 'export function handler(request) { return request }', '```', '',
      '```ts no-check', 'this is not TypeScript', '```', '', '```sh', '```ts', '```',
    ].join('\n')
    const found = extractBlocks('t.md', markdown)
    expect(found.map((b) => [b.where, b.language, isCheckedTypeScript(b)])).to.deep.equal([
      ['t.md:3', 'ts', true], ['t.md:8', 'ts', false], ['t.md:12', 'sh', false],
    ])
    const result = checkBlocks(root, found.filter(isCheckedTypeScript), docCompilerOptions(packageTypes))
    const [messages] = [...result.values()]
    expect(messages).to.have.length(1)
    expect(messages[0]).to.match(/^t\.md:5: TS7006: Parameter 'request' implicitly has an 'any' type/)
  })
})
