import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import ts from 'typescript'

/** A fenced block of a Markdown file. */
export interface CodeBlock {
  /** `README.md:41`: the file and the line of the opening fence. */
  readonly where: string
  /** The line of the first code line, 1-based, to map diagnostics back. */
  readonly firstLine: number
  /** The info string's first word: `ts`, `json`, `sh`. */
  readonly language: string
  /** A file path in the info string (```ts src/main.ts): blocks of one document form a project. */
  readonly path: string | null
  readonly code: string
  /** Info string `ts no-check`: a fragment that is shown, not compiled. */
  readonly noCheck: boolean
}

const fence = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)([^\n]*)$/

/** The fenced blocks of a Markdown text, in order. */
export function extractBlocks(name: string, markdown: string): CodeBlock[] {
  const lines = markdown.split('\n')
  const blocks: CodeBlock[] = []
  for (let i = 0; i < lines.length; i++) {
    const open = fence.exec(lines[i])
    if (open === null) continue
    const end = closingLine(lines, i, open[2])
    const words = open[4].trim().split(/\s+/).filter((w) => w !== '')
    blocks.push({
      where: `${name}:${i + 1}`,
      firstLine: i + 2,
      language: open[3],
      path: words.find((w) => w.includes('/') || /\.\w+$/.test(w)) ?? null,
      code: lines.slice(i + 1, end).map((line) => line.startsWith(open[1]) ? line.slice(open[1].length) : line).join('\n'),
      noCheck: words.includes('no-check'),
    })
    i = end
  }
  return blocks
}

/** TypeScript blocks to compile: ```ts or ```typescript without `no-check`. */
export function isCheckedTypeScript(block: CodeBlock): boolean {
  return (block.language === 'ts' || block.language === 'typescript') && !block.noCheck
}

function closingLine(lines: readonly string[], from: number, marker: string): number {
  for (let j = from + 1; j < lines.length; j++) {
    if (lines[j].trim().startsWith(marker[0].repeat(marker.length)) && lines[j].trim().replace(/[`~]/g, '') === '') return j
  }
  return lines.length
}

/**
 * The options a new project uses (README "Getting started"): strict, legacy decorators with
 * metadata. ES modules so a block may use top-level await; every block is its own module.
 */
export function docCompilerOptions(packageTypes: string): ts.CompilerOptions {
  return {
    strict: true,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    useDefineForClassFields: false,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ES2022,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    moduleDetection: ts.ModuleDetectionKind.Force,
    esModuleInterop: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node', 'mocha'],
    lib: ['lib.es2022.d.ts'],
    // `import ... from 'enclave'` means the built package's types, as an app would see them; the
    // @fastify/* packages' declarations import `fastify`, which an app installs for its types.
    paths: { enclave: [packageTypes], 'enclave/client': [join(dirname(packageTypes), 'client', 'index.d.ts')], fastify: [dirname(require.resolve('fastify5/package.json'))] },
  }
}

/**
 * Type-checks every block as its own file in one program. Blocks live in a virtual folder of
 * the repository, so other imports (supertest, chai, @fastify/...) resolve to its node_modules.
 * Returns the diagnostics per block, mapped to Markdown lines.
 */
export function checkBlocks(root: string, blocks: readonly CodeBlock[], options: ts.CompilerOptions): Map<CodeBlock, string[]> {
  const files = new Map(blocks.map((block, index) => [virtualPath(root, block, index), block] as const))
  const host = ts.createCompilerHost(options, true)
  const { fileExists, readFile, getSourceFile, directoryExists } = host
  const folders = new Set([...files.keys()].flatMap((file) => file.split('/').slice(1, -1).map((_, i, parts) => `/${parts.slice(0, i + 1).join('/')}`)))
  host.fileExists = (file) => files.has(file) || fileExists.call(host, file)
  host.directoryExists = (dir) => folders.has(dir.replace(/\/$/, '')) || (directoryExists?.call(host, dir) ?? true)
  host.readFile = (file) => files.get(file)?.code ?? readFile.call(host, file)
  host.getSourceFile = (file, language, onError) => {
    const block = files.get(file)
    return block === undefined ? getSourceFile.call(host, file, language, onError) : ts.createSourceFile(file, block.code, language, true)
  }
  const program = ts.createProgram({ rootNames: [...files.keys()], options, host })
  const result = new Map<CodeBlock, string[]>(blocks.map((block) => [block, []]))
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const block = diagnostic.file === undefined ? undefined : files.get(diagnostic.file.fileName)
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')
    if (block === undefined || diagnostic.file === undefined || diagnostic.start === undefined) {
      // A problem outside the blocks (options, a library) is every block's problem.
      for (const list of result.values()) list.push(`TS${diagnostic.code}: ${text}`)
      continue
    }
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start)
    const markdownLine = block.firstLine + line
    result.get(block)!.push(`${block.where.split(':')[0]}:${markdownLine}: TS${diagnostic.code}: ${text}`)
  }
  return result
}

/**
 * The programs the blocks are checked in. A `declare module 'enclave'` block changes the types of
 * its whole program, and a reader copies one block, not the document: so each such block is
 * checked in a program of its own (with its document's path blocks, which it may import), and
 * every other block in one program that declares nothing, where a block reading `request.tenant`
 * compiles only if it declares `tenant` itself. Path blocks are the exception: a document's
 * ```ts src/... blocks are one project, copied file by file into one app, so when one of them
 * declares (src/types.ts), all of them are checked in one program of their own, where that
 * declaration types the others, as it does in the reader's app.
 */
export function checkBlocksAsCopied(root: string, blocks: readonly CodeBlock[], options: ts.CompilerOptions): Map<CodeBlock, string[]> {
  const augments = (block: CodeBlock) => /declare\s+(module|global)\b/.test(block.code)
  const documentOf = (block: CodeBlock) => block.where.split(':')[0]
  const declaringProjects = new Set(blocks.filter((b) => b.path !== null && augments(b)).map(documentOf))
  const inDeclaringProject = (block: CodeBlock) => block.path !== null && declaringProjects.has(documentOf(block))
  const result = checkBlocks(root, blocks.filter((b) => !augments(b) && !inDeclaringProject(b)), options)
  for (const doc of declaringProjects) {
    for (const [block, messages] of checkBlocks(root, blocks.filter((b) => b.path !== null && documentOf(b) === doc), options)) result.set(block, messages)
  }
  for (const block of blocks.filter((b) => augments(b) && b.path === null)) {
    const doc = documentOf(block)
    const project = blocks.filter((b) => b !== block && b.path !== null && !augments(b) && documentOf(b) === doc)
    result.set(block, checkBlocks(root, [block, ...project], options).get(block)!)
  }
  return result
}

/**
 * Where a block lives while checked: one folder per document, so a block with a path
 * (```ts src/app-module.ts) can import another of the same document (`'./app-module'`).
 */
function virtualPath(root: string, block: CodeBlock, index: number): string {
  const documentFolder = block.where.split(':')[0].replace(/[^\w.-]+/g, '_')
  return join(root, '.doc-blocks', documentFolder, block.path ?? `block-${index}.ts`)
}

/** README.md and every .md under docs/, as paths relative to the repository. */
export function documentationFiles(root: string): string[] {
  const walk = (dir: string): string[] => readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(`${dir}/${entry.name}`) : entry.name.endsWith('.md') ? [`${dir}/${entry.name}`] : [])
  return ['README.md', ...walk('docs').sort()]
}
