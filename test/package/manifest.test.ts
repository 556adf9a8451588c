// What package.json promises about the published package, checked against the source and the
// build. (The pack-install test shows the same package working in a real app.)
import { existsSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { expect } from 'chai'
import { sourceFiles } from '../architecture/import-graph'
import semver from 'semver'

const repo = join(__dirname, '..', '..', '..')
const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
  main: string; types: string; sideEffects: unknown; files: string[]; scripts: Record<string, string>
  exports: Record<string, unknown>; dependencies: Record<string, string>; peerDependencies: Record<string, string>; devDependencies: Record<string, string>
}

describe('package: package.json tells the truth', () => {
  it('exports "." with types first, the same files as main and types, and the build emits them', () => {
    const root = manifest.exports['.'] as Record<string, string>
    expect(Object.keys(root)[0], 'types must come first for TypeScript').to.equal('types')
    expect(root.types).to.equal(`./${manifest.types}`)
    expect(root.default).to.equal(`./${manifest.main}`)
    for (const file of [root.types, root.default]) expect(existsSync(join(repo, file)), file).to.equal(true)
  })

  it('builds on prepare (so git, file: and pack installs get dist/) with the src-only config', () => {
    // ... and leaves itself out of the packed package.json (scripts/pack-manifest.js; pack-install checks the tarball).
    expect(manifest.scripts.prepare).to.equal('npm run build:package && node scripts/pack-manifest.js strip')
    expect(manifest.scripts.postpack).to.equal('node scripts/pack-manifest.js restore')
    expect(manifest.scripts['build:package']).to.contain('tsc -p tsconfig.build.json')
    // Built code, plus the docs the README links to.
    expect(manifest.files.every((pattern) => pattern.startsWith('dist/src/') || pattern === 'docs/*.md')).to.equal(true)
  })

  it('has tsyringe as a peer dependency only (one copy per app), tested with a version the range admits', () => {
    expect(manifest.dependencies).to.not.have.property('tsyringe')
    const range = manifest.peerDependencies.tsyringe
    expect(semver.satisfies(manifest.devDependencies.tsyringe, range), `${manifest.devDependencies.tsyringe} in ${range}`).to.equal(true)
  })

  it('sideEffects: false holds: every source file that needs Reflect metadata imports reflect-metadata itself', () => {
    expect(manifest.sideEffects).to.equal(false)
    const needing = sourceFiles(join(repo, 'src')).filter((file) => {
      const text = readFileSync(file, 'utf8')
      // Reflect.getMetadata & co. are the polyfill's; a value import of tsyringe throws without it.
      return /Reflect\.(get|getOwn|define|has)Metadata\b/.test(text) || /^(import|export) (?!type)[^\n]*from 'tsyringe'/m.test(text)
    })
    expect(needing.length).to.be.greaterThan(0)
    const missing = needing.filter((file) => {
      const text = readFileSync(file, 'utf8')
      const polyfill = text.indexOf("import 'reflect-metadata'")
      const tsyringe = text.search(/^(import|export) (?!type)[^\n]*from 'tsyringe'/m)
      return polyfill < 0 || (tsyringe >= 0 && tsyringe < polyfill)
    })
    expect(missing.map((file) => relative(repo, file))).to.deep.equal([])
  })
})
