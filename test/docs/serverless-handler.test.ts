import 'reflect-metadata'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect } from 'chai'
import ts from 'typescript'
import { extractBlocks } from './code-blocks'

// docs/deploy.md "A serverless function" gives a function handler built on inject(); the docs test
// only compiles it, so this one runs it (against the built src and ./serverless-app) with events.
const root = join(__dirname, '..', '..', '..')

type Handler = (event: unknown) => Promise<{ statusCode: number; headers: Record<string, string>; cookies: string[]; body: string; isBase64Encoded: boolean }>

function loadHandler(): Handler {
  const doc = readFileSync(join(root, 'docs', 'deploy.md'), 'utf8')
  const block = extractBlocks('docs/deploy.md', doc).find((b) => b.path === 'src/lambda.ts')
  expect(block, 'docs/deploy.md keeps the src/lambda.ts block').to.not.equal(undefined)
  const source = block!.code
    .replace(/from 'enclave'/g, `from ${JSON.stringify(join(root, 'dist', 'src'))}`)
    .replace(/from '\.\/app\.module'/g, `from ${JSON.stringify(join(__dirname, 'serverless-app'))}`)
  // The handler's own logger would write to stdout: the test keeps the lines out of mocha's report.
  const quiet = source.replace('logger: true', 'logger: false')
  expect(quiet).to.not.equal(source)
  const { outputText } = ts.transpileModule(quiet, { compilerOptions: {
    module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, experimentalDecorators: true, emitDecoratorMetadata: true,
  } })
  const file = join(__dirname, '.serverless-handler.js')
  writeFileSync(file, outputText)
  try {
    return (require(file) as { handler: Handler }).handler
  } finally {
    rmSync(file)
  }
}

const event = (method: string, rawPath: string, extra: Record<string, unknown> = {}) =>
  ({ rawPath, headers: {}, requestContext: { http: { method, sourceIp: '203.0.113.9' } }, ...extra })

describe('docs/deploy.md "A serverless function": the inject() handler answers events', () => {
  const handler = loadHandler()

  it('passes path, query, cookies and the caller address; returns headers and set-cookie as cookies', async () => {
    const result = await handler(event('GET', '/t/echo', { rawQueryString: 'q=7', cookies: ['s=1', 't=2'] }))
    expect(result.statusCode).to.equal(200)
    expect(JSON.parse(result.body)).to.deep.equal({ ip: '203.0.113.9', q: 7, cookie: 's=1; t=2' })
    expect(result.cookies).to.deep.equal(['a=1; Path=/', 'b=2; HttpOnly'])
    expect(result.headers['content-type']).to.equal('application/json; charset=utf-8')
    expect(result.headers).to.not.have.property('set-cookie')
    expect(result.isBase64Encoded).to.equal(false)
  })

  it('reads a JSON body, plain or base64-encoded, and answers validation errors as 400', async () => {
    const body = JSON.stringify({ name: 'kettle' })
    const plain = await handler(event('POST', '/t/items', { headers: { 'content-type': 'application/json' }, body }))
    expect([plain.statusCode, JSON.parse(plain.body)]).to.deep.equal([201, { created: 'kettle' }])
    const encoded = await handler(event('POST', '/t/items', { headers: { 'content-type': 'application/json' }, body: Buffer.from(body).toString('base64'), isBase64Encoded: true }))
    expect(encoded.statusCode).to.equal(201)
    const bad = await handler(event('POST', '/t/items', { headers: { 'content-type': 'application/json' }, body: '{}' }))
    expect(bad.statusCode).to.equal(400)
    expect(JSON.parse(bad.body).message).to.equal("body should have required property 'name'")
  })

  it('base64-encodes a binary answer, and answers 404 for an unknown path', async () => {
    const pixel = await handler(event('GET', '/t/pixel'))
    expect(pixel.isBase64Encoded).to.equal(true)
    expect(Buffer.from(pixel.body, 'base64')).to.deep.equal(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff]))
    expect((await handler(event('GET', '/nope'))).statusCode).to.equal(404)
  })
})
