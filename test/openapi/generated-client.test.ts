import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import request from 'supertest'
import ts from 'typescript'
import { buildSampleApp } from '../../sample/sample-app'

// openapi-typescript is ESM-only: loaded through a real dynamic import.
const importEsm = new Function('specifier', 'return import(specifier)') as (s: string) => Promise<any>

describe('OpenAPI round trip: a client generated from the document type-checks against real traffic', function () {
  this.timeout(60_000)
  let dir: string
  before(() => { dir = mkdtempSync(join(tmpdir(), 'enclave-openapi-client-')) })
  after(() => rmSync(dir, { recursive: true, force: true }))

  it('openapi-typescript types accept the sample request and the server\'s actual response, and refuse a body without name', async () => {
    const app = await buildSampleApp({ keys: ['k'], liftGrandchild: false })
    let document: unknown
    let created: unknown
    const sent = { name: 'Cup', price: 3, sku: 'CUP-0001', tags: ['kitchen'] }
    try {
      document = (await request(app.server).get('/openapi.json').expect(200)).body
      created = (await request(app.server).post('/items').send(sent).expect(201)).body
    } finally {
      await app.close()
    }
    const { default: openapiTS, astToString } = await importEsm('openapi-typescript')
    writeFileSync(join(dir, 'sample-api.ts'), astToString(await openapiTS(document)))
    writeFileSync(join(dir, 'client.ts'), [
      "import type { paths } from './sample-api'",
      "type NewItemBody = paths['/items']['post']['requestBody']['content']['application/json']",
      "type Created = paths['/items']['post']['responses']['201']['content']['application/json']",
      "type Invalid = paths['/items']['post']['responses']['400']['content']['application/json']",
      `export const body: NewItemBody = ${JSON.stringify(sent)}`,
      `export const created: Created = ${JSON.stringify(created)}`,
      "export const id: number = created.id",
      "export const invalid: Invalid = { statusCode: 400, error: 'Bad Request', message: \"body should have required property 'name'\" }",
      '// @ts-expect-error a body without the required name',
      'export const bad: NewItemBody = { price: 3 }',
      '',
    ].join('\n'))
    const program = ts.createProgram([join(dir, 'client.ts')], { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, types: [] })
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
    expect(diagnostics).to.deep.equal([])
  })
})
