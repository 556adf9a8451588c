import { expect } from 'chai'
import { readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { findCycles, resolveSource, sourceFiles, specifiers, valueImportGraph } from './import-graph'

const root = join(__dirname, '..', '..', '..')
const srcDir = join(root, 'src')
const distSrcDir = join(root, 'dist', 'src')

describe('architecture: imports (issue 11)', () => {
  describe('no value-level import cycle in src/', () => {
    const graph = valueImportGraph(srcDir, distSrcDir)

    it('reads the whole graph, value imports only (the check below is not vacuous)', () => {
      expect(graph.size).to.be.greaterThan(80)
      // A value import: the composition root calls the pipeline.
      expect(graph.get(join('runtime', 'server', 'create-server.ts'))).to.include(join('runtime', 'serve', 'pipeline.ts'))
      // A type-only import (compiled-route.ts names RequestImpl only as a type) is not an edge.
      expect(graph.get(join('runtime', 'serve', 'compiled-route.ts'))).to.not.include(join('runtime', 'serve', 'request.ts'))
    })

    it('has no cycle: every file can be loaded before the files that import it', () => {
      const cycles = findCycles(graph).map((loop) => loop.join(' -> '))
      expect(cycles, 'value-level import cycles (break one edge: move the shared part to its own file, or import a type only)').to.deep.equal([])
    })

    it('the detector reports a cycle as a loop and ignores what only leads into one', () => {
      const sample = new Map<string, string[]>([
        ['a.ts', ['b.ts']], ['b.ts', ['c.ts']], ['c.ts', ['a.ts', 'd.ts']], ['d.ts', []], ['e.ts', ['a.ts']], ['f.ts', ['f.ts']],
      ])
      expect(findCycles(sample)).to.deep.equal([['a.ts', 'b.ts', 'c.ts', 'a.ts'], ['f.ts', 'f.ts']])
      expect(findCycles(new Map([['a.ts', ['b.ts']], ['b.ts', []]]))).to.deep.equal([])
    })
  })

  describe('runtime phases import one way (src/runtime/README.md)', () => {
    const runtimeDir = join(srcDir, 'runtime')
    // What each folder may import besides itself. The bottom (shared/, errors/, schemas/, types.ts,
    // index.ts) is open to all; type-only imports count too: a phase must not even name another's internals.
    const bottom = ['shared', 'errors', 'schemas', 'types.ts']
    const allowed: Record<string, readonly string[]> = {
      shared: ['errors', 'types.ts'],
      // all-codes.ts joins the runtime's and the schemas' code tables.
      errors: ['schemas', 'types.ts'],
      schemas: ['errors', 'types.ts'],
      declare: bottom,
      serve: bottom,
      boot: [...bottom, 'declare', 'serve'],
      // The renderers of the introspection model (printRoutes, printTree, explain, openapi) read only the model.
      inspect: bottom,
      // Fastify 4/5's request and reply methods, installed on serve/'s prototypes from outside it.
      'fastify-api': [...bottom, 'declare', 'serve'],
      server: [...bottom, 'declare', 'boot', 'serve', 'inspect', 'fastify-api'],
    }
    const area = (file: string): string => relative(runtimeDir, file).split(sep)[0]

    it('declare/ and serve/ know nothing of each other, boot/ or server/; boot/ knows nothing of server/', () => {
      const offending: string[] = []
      let checked = 0
      for (const file of sourceFiles(runtimeDir)) {
        const from = area(file)
        const may = allowed[from]
        if (may === undefined) continue
        for (const spec of specifiers(readFileSync(file, 'utf8'))) {
          const target = resolveSource(file, spec)
          if (target === null) continue
          const to = area(target)
          if (!target.startsWith(runtimeDir + sep)) { offending.push(`${relative(root, file)} imports '${spec}' (outside src/runtime)`); continue }
          checked++
          if (to !== from && !may.includes(to)) offending.push(`${relative(root, file)} (${from}/) imports '${spec}' (${to})`)
        }
      }
      expect(checked).to.be.greaterThan(100)
      expect(offending).to.deep.equal([])
    })
  })
})
