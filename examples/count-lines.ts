import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'

// The README's line counts: lines of TypeScript that hold code, neither blank nor comment only.
// TypeScript's parser tells comments from code, so `//` inside a string or regex is code.
// Usage: node dist/examples/count-lines.js <folder>...   (every .ts file under each, recursively)

export function codeLines(source: string): number {
  return codeLineTexts(source).length
}

/** The lines that hold code, in order, as written. */
export function codeLineTexts(source: string): string[] {
  // Parsed, not only scanned: a lone scanner cannot tell a template's `}` from a block's, or a
  // regex from a division, and would then take code for a template or the other way round.
  const file = ts.createSourceFile('lines.ts', source, ts.ScriptTarget.Latest, true)
  const lines = new Set<number>()
  const visit = (node: ts.Node): void => {
    if (ts.isJSDoc(node)) return
    const children = node.getChildren(file)
    if (children.length > 0) return children.forEach(visit)
    if (node.kind === ts.SyntaxKind.EndOfFileToken) return
    const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line
    const last = file.getLineAndCharacterOfPosition(node.getEnd()).line
    for (let line = first; line <= last; line++) lines.add(line)
  }
  visit(file)
  const text = source.split(/\r?\n/)
  return [...lines].sort((a, b) => a - b).map((line) => text[line])
}

export function typeScriptFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? typeScriptFiles(join(folder, entry.name))
      : entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [join(folder, entry.name)] : []).sort()
}

if (require.main === module) {
  for (const folder of process.argv.slice(2)) {
    const counts = typeScriptFiles(folder).map((file) => [file, codeLines(readFileSync(file, 'utf8'))] as const)
    for (const [file, count] of counts) console.log(`${String(count).padStart(5)}  ${file}`)
    console.log(`${String(counts.reduce((sum, [, n]) => sum + n, 0)).padStart(5)}  total ${folder}\n`)
  }
}
