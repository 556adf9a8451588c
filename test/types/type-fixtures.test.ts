import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'chai'
import ts from 'typescript'

// The fixtures are compiled once, with the project's own options and every directive removed: each
// marked line must fail with the code and the message text its directive names (an error for
// another reason, a typo in the fixture or a broken import, does not count), and no other line may
// fail. That is the same verdict as compiling them as written too: a directive whose line compiles
// would be unused there, and any other error would show there as well.
const root = join(__dirname, '..', '..', '..')
const fixtureDir = join(root, 'test', 'types', 'fixtures')
const directive = /\/\/ @ts-expect-error \[TS(\d+)\] (.+)$/

interface Expected { file: string; line: number; code: number; text: string }

function compilerOptions(): ts.CompilerOptions {
  const config = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile)
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root)
  return { ...parsed.options, noEmit: true, declaration: false, sourceMap: false }
}

// The files every program shares (lib, node_modules, src), parsed once for all the programs below.
const shared = new Map<string, ts.SourceFile | undefined>()

function diagnose(files: string[], replace: (file: string, text: string) => string): ts.Diagnostic[] {
  const options = compilerOptions()
  const host = ts.createCompilerHost(options)
  const read = host.readFile.bind(host)
  host.readFile = (name) => (files.includes(name) ? replace(name, read(name) as string) : read(name))
  const getSource = host.getSourceFile.bind(host)
  host.getSourceFile = (name, lang, onError) => {
    if (files.includes(name)) return ts.createSourceFile(name, replace(name, read(name) as string), lang)
    if (name.includes('/test/types/')) return getSource(name, lang, onError)
    if (!shared.has(name)) shared.set(name, getSource(name, lang, onError))
    return shared.get(name)
  }
  const program = ts.createProgram(files, options, host)
  return [...program.getSyntacticDiagnostics(), ...program.getSemanticDiagnostics()]
}

function describeDiagnostic(d: ts.Diagnostic): string {
  const where = d.file !== undefined && d.start !== undefined ? `${d.file.fileName}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}` : ''
  return `${where} TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`
}

function expectedIn(files: string[]): Expected[] {
  return files.flatMap((file) => readFileSync(file, 'utf8').split('\n').flatMap((text, index) => {
    const match = directive.exec(text)
    return match === null ? [] : [{ file, line: index + 2, code: Number(match[1]), text: match[2].trim() }]
  }))
}

function expectMarkedLinesFail(files: string[], dir: string): void {
  const expected = expectedIn(files)
  const all = diagnose(files, (_file, text) => text.split('\n').map((line) => (directive.test(line) ? '' : line)).join('\n'))
  // A diagnostic of no file (a compiler option the fixtures' program refuses) fails every line alike.
  expect(all.filter((d) => d.file === undefined).map(describeDiagnostic)).to.deep.equal([])
  const stripped = all.filter((d) => d.file !== undefined && files.includes(d.file.fileName))
  const found = stripped.map((d) => ({
    file: d.file!.fileName, line: d.file!.getLineAndCharacterOfPosition(d.start!).line + 1, code: d.code,
    message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
  }))
  for (const e of expected) {
    const onLine = found.filter((f) => f.file === e.file && f.line === e.line)
    const where = `${e.file.slice(dir.length + 1)}:${e.line}`
    expect(onLine.length, `${where}: expected TS${e.code} (${e.text}), got no error`).to.be.greaterThan(0)
    expect(onLine.some((f) => f.code === e.code && f.message.includes(e.text)),
      `${where}: expected TS${e.code} containing "${e.text}", got:\n${onLine.map((f) => `TS${f.code} ${f.message}`).join('\n')}`).to.equal(true)
  }
  const unexpected = found.filter((f) => !expected.some((e) => e.file === f.file && e.line === f.line))
  expect(unexpected.map((f) => `${f.file}:${f.line} TS${f.code} ${f.message}`)).to.deep.equal([])
}

const tsFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => join(dir, f).replace(/\\/g, '/'))
// Every .ts file below `dir`, at any depth (a multi-file app's plugins/ and routes/).
const tsFilesBelow = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
  entry.isDirectory() ? tsFilesBelow(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name).replace(/\\/g, '/')] : [])

describe('type tests (test/types/fixtures): typed contracts compile, misuses do not, each for the right reason', function () {
  // One program of every fixture: 104 s alone under a full suite's load with ~60 fixtures, past 120 s with 8 helpers building.
  this.timeout(300_000)
  const files = tsFiles(fixtureDir)
  const expected = expectedIn(files)

  it('has fixtures with expected errors of every kind the issue names', () => {
    expect(files.length).to.be.greaterThanOrEqual(4)
    expect(expected.length).to.be.greaterThanOrEqual(15)
    const unmarked = files.flatMap((file) => readFileSync(file, 'utf8').split('\n')
      .filter((line) => line.trim().startsWith('// @ts-expect-error') && !directive.test(line)).map((line) => `${file}: ${line.trim()}`))
    expect(unmarked, 'every @ts-expect-error names its code and message').to.deep.equal([])
  })

  it('without the directives, each marked line fails with the named code and message, and no other line fails (so, as written, every use that must compile does and every directive is used)', () => {
    expectMarkedLinesFail(files, fixtureDir)
  })
})

// Each app in test/types/apps is a program of its own (tsconfig.json excludes the folder): what it
// declares on 'enclave' (the Fastify plugins' decorations, the catch-all opt-out) is global to its
// program, so it would change what the fixtures and tests above check.
describe('type tests (test/types/apps): declarations that change the whole program, one app per program', function () {
  this.timeout(240_000)
  const appDir = join(root, 'test', 'types', 'apps')
  // A file is an app; so is a folder, all its files one program (a codebase ported as it is laid out).
  const apps = readdirSync(appDir, { withFileTypes: true }).filter((entry) => entry.isDirectory() || entry.name.endsWith('.ts'))
    .map((entry) => ({ name: entry.name, files: entry.isDirectory() ? tsFilesBelow(join(appDir, entry.name)) : [join(appDir, entry.name).replace(/\\/g, '/')] }))
  for (const { name, files } of apps) {
    it(`${name}: without the directives, each marked line fails with the named code and message, and no other line fails`, () => {
      expect(expectedIn(files).length, 'an app marks at least one misuse').to.be.greaterThan(0)
      expectMarkedLinesFail(files, appDir)
    })
  }
})
