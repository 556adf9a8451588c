// docs/installation.md (tsconfig flags) and docs/errors.md, ENC_ERR_DECL_STANDARD_DECORATORS: a project
// compiled without "experimentalDecorators" gets TypeScript 5's standard decorators, called
// (value, context). @Get() then read the method as a static member named "[object Object]"
// (ENC_ERR_DECL_STATIC_MEMBER: "remove 'static'") and @Route() as a misused method decorator;
// now each names the missing flag (newcomer24c: a beginner who left the two flags out).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import ts from 'typescript'

const enclave = join(__dirname, '..', '..', 'src', 'index.js')

/** Compiles `source` as tsc does without experimentalDecorators (TS 5 standard decorators) and loads it. */
function loadStandard(source: string): unknown {
  const output = ts.transpileModule(source, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS } }).outputText
  const dir = mkdtempSync(join(tmpdir(), 'enclave-standard-decorators-'))
  const file = join(dir, 'app.js')
  writeFileSync(file, output.replace("require(\"enclave\")", `require(${JSON.stringify(enclave)})`))
  try {
    require(file)
  } catch (error) {
    return error
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  throw new Error('loading the file was expected to throw')
}

function expectFlagHint(error: unknown, start: string): void {
  const e = error as Error & { code?: string }
  expect(e.code).to.equal('ENC_ERR_DECL_STANDARD_DECORATORS')
  expect(e.message.startsWith(start), e.message).to.equal(true)
  expect(e.message).to.include('Add "experimentalDecorators": true and "emitDecoratorMetadata": true to compilerOptions in tsconfig.json')
  expect(e.message).to.not.include('[object Object]')
}

describe('dx: decorators compiled without experimentalDecorators (ENC_ERR_DECL_STANDARD_DECORATORS)', () => {
  it('a route method decorator names the flag, not "remove static"', () => {
    const error = loadStandard(`import { Get, Module, Route } from "enclave"
      @Route('/notes') export class NotesController { @Get('/') list() { return [] } }
      @Module({ controllers: [NotesController] }) export class AppModule {}`)
    expectFlagHint(error, '@Get() on the method list ran as a standard ECMAScript decorator')
  })

  it('@Route() on a class without route methods, and @Module(), name it too', () => {
    expectFlagHint(loadStandard(`import { Route } from "enclave"
      @Route('/notes') export class NotesController {}`), '@Route() on the class NotesController ran as a standard ECMAScript decorator')
    expectFlagHint(loadStandard(`import { Module } from "enclave"
      @Module({}) export class AppModule {}`), '@Module() on the class AppModule ran as a standard ECMAScript decorator')
  })

  it('@Hook(), @ErrorHandler(), @NotFoundHandler() and @HttpCode() name it', () => {
    const cases: Array<[string, string]> = [
      [`@Hook('onRequest') check() {}`, "@Hook('onRequest') on the method check"],
      ['@ErrorHandler() failed() {}', '@ErrorHandler() on the method failed'],
      ['@NotFoundHandler() missing() {}', '@NotFoundHandler() on the method missing'],
      ["@Get('/') @HttpCode(201) made() { return {} }", '@HttpCode() on the method made'],
    ]
    for (const [member, start] of cases) {
      expectFlagHint(loadStandard(`import { ErrorHandler, Get, Hook, HttpCode, NotFoundHandler, Route } from "enclave"
        @Route('/x') export class XController { ${member} }`), start)
    }
  })

  it('the decorators built on shared helpers name it too: the hook decorators, @UseInterceptors() and routeMetadata(), on a method and on a class', () => {
    const cases: Array<[string, string, string]> = [
      ["@Get('/') @OnRequest(async () => {}) guarded() { return {} }", '', '@OnRequest() on the method guarded'],
      ["@Get('/') @PreHandler(async () => {}) handled() { return {} }", '', '@PreHandler() on the method handled'],
      ["@Get('/') @UseInterceptors(Timing) timed() { return {} }", '', '@UseInterceptors() on the method timed'],
      ["@Get('/') @Tagged('x') tagged() { return {} }", '', "routeMetadata('tag') on the method tagged"],
      ['', '@OnRequest(async () => {})', '@OnRequest() on the class XController'],
      ['', '@UseInterceptors(Timing)', '@UseInterceptors() on the class XController'],
    ]
    for (const [member, classDecorator, start] of cases) {
      expectFlagHint(loadStandard(`import { Get, OnRequest, PreHandler, Route, UseInterceptors, routeMetadata } from "enclave"
        class Timing { intercept(_context: unknown, next: { handle(): Promise<unknown> }) { return next.handle() } }
        const Tagged = routeMetadata<string>('tag')
        @Route('/x') ${classDecorator} export class XController { ${member} }`), start)
    }
  })
})
