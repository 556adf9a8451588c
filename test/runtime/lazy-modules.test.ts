import { expect } from 'chai'
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'

// Issue 16 (cold start): modules most servers never use are loaded on first use, not with Enclave.
describe('modules loaded on first use (issue 16, cold start)', () => {
  it('requiring Enclave loads no ajv 8 module; building an ajv 8 validator does', () => {
    const entry = join(__dirname, '..', '..', 'src', 'runtime')
    const script = `
      const loaded = () => Object.keys(require.cache).some((file) => file.includes('/node_modules/ajv8/'))
      const { ajv8CompilersFactory } = require(${JSON.stringify(entry)})
      const before = loaded()
      const compile = ajv8CompilersFactory().buildValidator({}, {})
      const validate = compile({ schema: { type: 'integer' }, httpPart: 'body' })
      console.log(JSON.stringify({ before, after: loaded(), valid: validate(1), invalid: validate('x') }))`
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 30_000 }))
    expect(out).to.deep.equal({ before: false, after: true, valid: true, invalid: false })
  })

  it('requiring Enclave and listening load no light-my-request; the first inject() does', () => {
    const entry = join(__dirname, '..', '..', 'src', 'runtime')
    const script = `
      const loaded = () => Object.keys(require.cache).some((file) => file.includes('/node_modules/light-my-request/'))
      const { createServer } = require(${JSON.stringify(entry)})
      const app = createServer({ logger: false })
      app.get('/', async () => ({ ok: true }))
      app.listen({ port: 0, host: '127.0.0.1' }).then(async () => {
        const before = loaded()
        const response = await app.inject('/')
        console.log(JSON.stringify({ before, after: loaded(), body: response.json() }))
        await app.close()
      })`
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 30_000 }))
    expect(out).to.deep.equal({ before: false, after: true, body: { ok: true } })
  })
})
