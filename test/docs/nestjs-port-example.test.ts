import 'reflect-metadata'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'chai'
import ts from 'typescript'
import { createApp, type App } from '../../src'
import { extractBlocks } from './code-blocks'

// docs/migrating-from-nestjs.md, "Coming from NestJS" ports a NestJS service in one block and states its answers; the docs
// test only compiles the block, so this one runs it (against the built src) and checks the answers.
const root = join(__dirname, '..', '..', '..')
const marker = 'The rest of a typical NestJS service, ported'

function loadExample(): { AppModule: Function } {
  const page = readFileSync(join(root, 'docs', 'migrating-from-nestjs.md'), 'utf8')
  const from = page.indexOf(marker)
  expect(from, 'docs/migrating-from-nestjs.md keeps the ported NestJS example').to.be.greaterThan(-1)
  const block = extractBlocks('docs/migrating-from-nestjs.md', page.slice(from)).find((b) => b.language === 'ts')!
  const source = `${block.code.replace(/from 'enclave'/g, `from ${JSON.stringify(join(root, 'dist', 'src'))}`)}\nexport { AppModule }\n`
  const { outputText } = ts.transpileModule(source, { compilerOptions: {
    module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, experimentalDecorators: true, emitDecoratorMetadata: true, useDefineForClassFields: false,
  } })
  const file = join(__dirname, '.nestjs-port-example.js')
  writeFileSync(file, outputText)
  try {
    return require(file) as { AppModule: Function }
  } finally {
    rmSync(file)
  }
}

describe('docs/migrating-from-nestjs.md, "Coming from NestJS": the ported service answers as the text says', () => {
  let app: App
  before(async () => { app = await createApp(loadExample().AppModule) })
  after(async () => { await app.close() })
  const admin = { authorization: 'Bearer admin' }

  it('POST /books as admin answers 201 wrapped in { data }, the same ISBN again 409 unwrapped', async () => {
    const created = await app.inject({ method: 'POST', url: '/books', headers: admin, payload: { isbn: '9780061054884' } })
    expect(created.statusCode).to.equal(201)
    expect(created.json()).to.deep.equal({ data: { isbn: '9780061054884', createdBy: 1 } })
    const again = await app.inject({ method: 'POST', url: '/books', headers: admin, payload: { isbn: '9780061054884' } })
    expect(again.statusCode).to.equal(409)
    expect(again.json()).to.deep.equal({ statusCode: 409, error: 'Conflict', message: 'ISBN 9780061054884 exists' })
  })

  it('GET /books/abc answers 400 params/id should be integer; no token answers 401', async () => {
    const bad = await app.inject({ method: 'GET', url: '/books/abc', headers: admin })
    expect(bad.statusCode).to.equal(400)
    expect((bad.json() as { message: string }).message).to.equal('params/id should be integer')
    expect((await app.inject({ method: 'GET', url: '/books/2' })).statusCode).to.equal(401)
    expect((await app.inject({ method: 'GET', url: '/books/2', headers: admin })).json()).to.deep.equal({ data: { id: 2 } })
  })

  it('GET /books/me answers the @CurrentUser() the guard set', async () => {
    expect((await app.inject({ method: 'GET', url: '/books/me', headers: admin })).json()).to.deep.equal({ data: { id: 1, roles: ['admin'] } })
  })
})
