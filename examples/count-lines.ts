import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'

// The README's line counts: lines of TypeScript that hold code, neither blank nor comment only.
// TypeScript's own scanner tells comments from code, so `//` inside a string or regex is code.
// Usage: node dist/examples/count-lines.js <folder>...   (every .ts file under each, recursively)

export function codeLines(source: string): number {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, source)
  const lines = new Set<number>()
  const file = ts.createSourceFile('lines.ts', source, ts.ScriptTarget.Latest)
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.WhitespaceTrivia || kind === ts.SyntaxKind.NewLineTrivia ||
        kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia) continue
    const first = file.getLineAndCharacterOfPosition(scanner.getTokenStart()).line
    const last = file.getLineAndCharacterOfPosition(scanner.getTokenEnd()).line
    for (let line = first; line <= last; line++) lines.add(line)
  }
  return lines.size
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
