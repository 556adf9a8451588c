// The Node promise in package.json `engines` is checked against what is installed, the way npm
// checks it (semver on each package's own `engines.node`): npm warns EBADENGINE for any installed
// package whose range excludes the running Node, and a published dependency whose range excludes
// part of ours would break a user on a Node we say we support.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { expect } from 'chai'
import semver from 'semver'

const repo = join(__dirname, '..', '..', '..')

interface Manifest { name: string; version: string; engines?: { node?: string }; dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> }

const readManifest = (dir: string): Manifest => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest

/** Every package directory under a node_modules folder, nested ones included. */
function installedPackages(modules: string): string[] {
  if (!existsSync(modules)) return []
  return readdirSync(modules).filter((name) => !name.startsWith('.')).flatMap((name) => {
    const dir = join(modules, name)
    if (name.startsWith('@')) return installedPackages(dir)
    return existsSync(join(dir, 'package.json')) ? [dir, ...installedPackages(join(dir, 'node_modules'))] : []
  })
}

/** Node's lookup from `from`: its own node_modules, then each parent's, up to the repository. */
function locate(name: string, from: string): string | null {
  for (let dir = from; dir.startsWith(repo); dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name)
    if (existsSync(join(candidate, 'package.json'))) return candidate
    if (dir === repo) break
  }
  return null
}

/** The packages a user installs with ours: `dependencies`, transitively (optional ones when present). */
function productionTree(): Map<string, Manifest> {
  const seen = new Map<string, Manifest>()
  const visit = (dir: string): void => {
    const manifest = readManifest(dir)
    for (const name of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) {
      const found = locate(name, dir)
      if (found === null || seen.has(found)) continue
      seen.set(found, readManifest(found))
      visit(found)
    }
  }
  visit(repo)
  return seen
}

const badEngine = (manifest: Manifest, nodeVersion: string): boolean =>
  manifest.engines?.node !== undefined && !semver.satisfies(nodeVersion, manifest.engines.node)

describe('package: engines are truthful', () => {
  const ours = readManifest(repo).engines?.node ?? ''

  it('every installed package accepts the running Node (npm install does not warn EBADENGINE)', () => {
    const refused = installedPackages(join(repo, 'node_modules')).map(readManifest).filter((m) => badEngine(m, process.version))
    expect(refused.map((m) => `${m.name}@${m.version} wants node ${m.engines?.node}`)).to.deep.equal([])
  })

  it('every production dependency accepts the oldest Node our engines field admits', () => {
    expect(semver.validRange(ours), `engines.node '${ours}'`).to.not.equal(null)
    const oldest = semver.minVersion(ours)!.version
    expect(semver.satisfies(process.version, ours), `this Node ${process.version} is one we promise`).to.equal(true)
    const tree = productionTree()
    expect(tree.size).to.be.greaterThan(5)
    const refused = [...tree.values()].filter((m) => badEngine(m, oldest))
    expect(refused.map((m) => `${m.name}@${m.version} wants node ${m.engines?.node}, ours says ${ours}`)).to.deep.equal([])
  })
})
