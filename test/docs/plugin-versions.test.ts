import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'chai'

// docs/plugins.md says "Versions are the ones pinned in package.json": a bump of a devDependency
// must bump the "version tested" column with it, or the page names a version nobody ran.
const root = join(__dirname, '..', '..', '..')

describe('docs/plugins.md: the plugin table', () => {
  it('names, for every plugin row, the version package.json pins', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string>; dependencies: Record<string, string> }
    const pinned = { ...pkg.dependencies, ...pkg.devDependencies }
    const rows = readFileSync(join(root, 'docs', 'plugins.md'), 'utf8').split('\n').filter((line) => /^\| `[^`]+`.*\| \d+\.\d+\.\d+/.test(line))
    expect(rows.length).to.be.greaterThan(20)
    const wrong: string[] = []
    for (const row of rows) {
      const [names, versions] = row.split('|').slice(1, 3)
      // "(+ `@fastify/cookie`)" names a companion without a version of its own: only the named ones count.
      const packages = [...names.replace(/\(\+[^)]*\)/g, '').matchAll(/`([^`]+)`/g)].map((m) => m[1])
      const numbers = versions.split(/[+,]/).map((v) => v.trim())
      packages.forEach((name, i) => {
        if (numbers[i] !== undefined && pinned[name] !== numbers[i]) wrong.push(`${name}: docs ${numbers[i]}, package.json ${pinned[name]}`)
      })
    }
    expect(wrong).to.deep.equal([])
  })
})
