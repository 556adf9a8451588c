import { expect } from 'chai'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { allErrorCodes } from '../../src/runtime'

const root = join(__dirname, '..', '..', '..')
const runtimeDir = join(root, 'src', 'runtime')

function sourceFiles(dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path))
    else if (name.endsWith('.ts')) out.push(path)
  }
  return out
}

/** Every module specifier a file imports, requires or re-exports. */
function specifiers(text: string): string[] {
  const found: string[] = []
  const patterns = [/\bfrom\s+['"]([^'"]+)['"]/g, /\bimport\s+['"]([^'"]+)['"]/g, /\brequire\(\s*['"]([^'"]+)['"]\s*\)/g, /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g]
  for (const pattern of patterns) for (const match of text.matchAll(pattern)) found.push(match[1])
  return found
}

describe('runtime: DESIGN §1 layering and §6 error codes', () => {
  const files = sourceFiles(runtimeDir)

  it('reads the runtime sources (the check below is not vacuous)', () => {
    expect(files.length).to.be.greaterThan(20)
    expect(files.map((f) => relative(runtimeDir, f))).to.include.members([join('declare', 'scope.ts'), join('serve', 'pipeline.ts'), join('serve', 'body', 'read-body.ts')])
  })

  it('src/runtime/** imports none of decorators/, modules/, reflect-metadata, tsyringe', () => {
    const offending: string[] = []
    for (const file of files) {
      for (const spec of specifiers(readFileSync(file, 'utf8'))) {
        const forbidden = spec === 'reflect-metadata' || spec === 'tsyringe' || spec.startsWith('tsyringe/') ||
          /(^|\/)(decorators|modules)(\/|$)/.test(spec)
        if (forbidden) offending.push(`${relative(root, file)} imports '${spec}'`)
      }
    }
    expect(offending).to.deep.equal([])
  })

  it('every ENC_ERR_ code written in src/runtime/** is listed in allErrorCodes', () => {
    const unlisted: string[] = []
    let seen = 0
    for (const file of files) {
      for (const match of readFileSync(file, 'utf8').matchAll(/(['"`])(ENC_ERR_[A-Z0-9_]+)\1/g)) {
        seen++
        if (!(match[2] in allErrorCodes)) unlisted.push(`${relative(root, file)}: ${match[2]}`)
      }
    }
    expect(seen).to.be.greaterThan(30)
    expect(unlisted).to.deep.equal([])
  })

  it("every code is ENC_ERR_<AREA>_<WHAT> with a summary and a status that is null (boot), 'none' (nothing sent) or an HTTP error status", () => {
    for (const [code, info] of Object.entries(allErrorCodes)) {
      expect(code).to.match(/^ENC_ERR_[A-Z]+_[A-Z0-9_]+$/)
      expect(info.summary, code).to.be.a('string').and.not.equal('')
      if (info.status !== null && info.status !== 'none') expect(info.status, code).to.be.within(400, 599)
    }
  })
})
