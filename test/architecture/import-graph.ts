import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

/** Source files (`.ts`, not `.d.ts`) under `dir`, as absolute paths. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path))
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(path)
  }
  return out
}

/** Every module specifier a source file names: import, export ... from, require, import(). Type-only ones included. */
export function specifiers(text: string): string[] {
  const found: string[] = []
  const patterns = [/\bfrom\s+['"]([^'"]+)['"]/g, /\bimport\s+['"]([^'"]+)['"]/g, /\brequire\(\s*['"]([^'"]+)['"]\s*\)/g, /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g]
  for (const pattern of patterns) for (const match of text.matchAll(pattern)) found.push(match[1])
  return found
}

/** A relative specifier resolved to the source file it names (`x.ts` or `x/index.ts`), or null. */
export function resolveSource(fromFile: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null
  const base = resolve(dirname(fromFile), spec)
  for (const candidate of [`${base}.ts`, join(base, 'index.ts')]) if (existsSync(candidate)) return candidate
  return null
}

/**
 * The value-level import graph of the sources under `srcDir`, keyed by path relative to it.
 * Read from the compiled JavaScript in `distDir`, not from the sources: tsc drops imports used
 * only as types (with or without `import type`), so a `require()` left in the output is
 * exactly an import that runs. Only files whose source still exists are read (a stale output
 * file of a moved source is ignored).
 */
export function valueImportGraph(srcDir: string, distDir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const source of sourceFiles(srcDir)) {
    const rel = relative(srcDir, source)
    const compiled = join(distDir, rel.replace(/\.ts$/, '.js'))
    if (!existsSync(compiled)) throw new Error(`${compiled} is missing: build first (npm test runs tsc before mocha)`)
    const edges: string[] = []
    // tsc writes its own requires with double quotes; a require() in the source (a module loaded on
    // first use, as cluster/index.ts does) keeps the source's single quotes: both are edges.
    for (const match of readFileSync(compiled, 'utf8').matchAll(/\brequire\((["'])(\.[^"']*)\1\)/g)) {
      const target = resolveSource(source, match[2])
      if (target !== null) edges.push(relative(srcDir, target))
    }
    graph.set(rel, [...new Set(edges)].sort())
  }
  return graph
}

/**
 * The import cycles of `graph`: its strongly connected components with more than one file, or a
 * file that imports itself (Tarjan's algorithm). Each is reported as one concrete loop through
 * the component, closed on its first file (`a -> b -> a`), so the message shows what to cut.
 */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const components: string[][] = []
  const visit = (node: string): void => {
    index.set(node, counter)
    low.set(node, counter++)
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) { visit(next); low.set(node, Math.min(low.get(node)!, low.get(next)!)) }
      else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!))
    }
    if (low.get(node) !== index.get(node)) return
    const component: string[] = []
    let popped: string
    do { popped = stack.pop()!; onStack.delete(popped); component.push(popped) } while (popped !== node)
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) components.push(component.sort())
  }
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node)
  return components.map((component) => loopThrough(graph, component)).sort((a, b) => a[0].localeCompare(b[0]))
}

/** A shortest loop from the component's first file back to itself, staying inside the component. */
function loopThrough(graph: ReadonlyMap<string, readonly string[]>, component: readonly string[]): string[] {
  const inside = new Set(component)
  const start = component[0]
  const previous = new Map<string, string>()
  const queue = [start]
  for (let i = 0; i < queue.length; i++) {
    for (const next of graph.get(queue[i]) ?? []) {
      if (!inside.has(next)) continue
      if (next === start) {
        const path = [start]
        for (let at = queue[i]; at !== start; at = previous.get(at)!) path.splice(1, 0, at)
        return [...path, start]
      }
      if (!previous.has(next)) { previous.set(next, queue[i]); queue.push(next) }
    }
  }
  return [...component, start]
}
