import 'reflect-metadata'
import { expect } from 'chai'
import request from 'supertest'
import ts from 'typescript'
import { lift, type OpenApiDocument, type Scope } from '../../src/runtime'
import { buildNotesApp } from './notes-app'

// openapi-typescript is ESM-only; Node 20.19+ loads it with require().
const { default: openapiTS, astToString } = require('openapi-typescript') as {
  default: (schema: unknown) => Promise<ts.Node[]>
  astToString: (nodes: ts.Node[]) => string
}

/** Type-checks in-memory files under strict; returns the diagnostics as text. */
function typeCheck(files: Record<string, string>): string[] {
  const options: ts.CompilerOptions = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, skipLibCheck: true, types: [] }
  const host = ts.createCompilerHost(options)
  const original = { getSourceFile: host.getSourceFile, fileExists: host.fileExists, readFile: host.readFile }
  const virtual = (name: string): string | undefined => files[name.replace(/^.*\/virtual\//, '')]
  host.getSourceFile = (name, version, ...rest) => {
    const text = virtual(name)
    return text !== undefined ? ts.createSourceFile(name, text, version) : original.getSourceFile(name, version, ...rest)
  }
  host.fileExists = (name) => virtual(name) !== undefined || original.fileExists(name)
  host.readFile = (name) => virtual(name) ?? original.readFile(name)
  const directoryExists = host.directoryExists?.bind(host)
  host.directoryExists = (name) => name === '/virtual' || (directoryExists?.(name) ?? false)
  const program = ts.createProgram(Object.keys(files).map((f) => `/virtual/${f}`), options, host)
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}:${d.start ?? ''} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`)
}

describe('openapi(): round trip through a generated client type (openapi-typescript)', function () {
  this.timeout(60_000)
  let app: Scope
  let doc: OpenApiDocument
  before(async () => {
    app = await buildNotesApp({ lift: (m) => lift(m as never) })
    doc = app.openapi()
  })
  after(async () => { await app.close() })

  it('generates types that accept a real request and the real response, and refuse wrong ones', async () => {
    const generated = astToString(await openapiTS(doc))
    const sent = { title: 'from the client', body: 'typed' }
    const created = await request(app.server).post('/notes').send(sent).expect(201)
    const listed = await request(app.server).get('/notes?limit=5').expect(200)
    const refused = await request(app.server).post('/notes').send({ title: '' }).expect(422)
    const check = `
import type { paths } from './api'
type Create = paths['/notes']['post']
const sent: Create['requestBody']['content']['application/json'] = ${JSON.stringify(sent)}
const created: Create['responses'][201]['content']['application/json'] = ${JSON.stringify(created.body)}
const listed: paths['/notes']['get']['responses'][200]['content']['application/json'] = ${JSON.stringify(listed.body)}
const refused: Create['responses'][422]['content']['application/json'] = ${JSON.stringify(refused.body)}
const query: NonNullable<paths['/notes']['get']['parameters']['query']> = { limit: 5 }
const id: paths['/notes/{id}']['put']['parameters']['path']['id'] = 3
const title: string = created.title
// @ts-expect-error the body schema says title is a string
const wrongType: Create['requestBody']['content']['application/json'] = { title: 1 }
// @ts-expect-error newNote has additionalProperties: false
const extra: Create['requestBody']['content']['application/json'] = { title: 'x', tags: [] }
// @ts-expect-error a note needs its id
const partial: Create['responses'][201]['content']['application/json'] = { title: 'x' }
// @ts-expect-error GET /notes is not guarded, so it documents no 401
type NoAuth = paths['/notes']['get']['responses'][401]
type Guarded = paths['/admin/stats']['get']['responses'][401]['content']['application/json']
const unauthorized: Guarded = { statusCode: 401, error: 'Unauthorized', message: 'Missing bearer token' }
export { sent, created, listed, refused, query, id, title, wrongType, extra, partial, unauthorized }
`
    expect(generated).to.include('"/notes/{id}"')
    expect(typeCheck({ 'api.ts': generated, 'check.ts': check })).to.deep.equal([])
  })

  it('the checker is not vacuous: a response that breaks the schema is reported', async () => {
    const generated = astToString(await openapiTS(doc))
    const check = `import type { paths } from './api'\nexport const bad: paths['/notes']['post']['responses'][201]['content']['application/json'] = { id: 'one', title: 'x' }\n`
    const diagnostics = typeCheck({ 'api.ts': generated, 'check.ts': check })
    expect(diagnostics).to.have.length(1)
    expect(diagnostics[0]).to.match(/check\.ts.*Type 'string' is not assignable to type 'number'/)
  })
})
