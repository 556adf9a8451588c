// What `require('enclave')` loads: optional engines stay unloaded until an app asks for them, so
// a cold start (serverless, CLI tools, tests) does not pay for them.
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { expect } from 'chai'

const entry = join(__dirname, '..', '..', 'src', 'index.js')

function loadedAfter(code: string): string[] {
  const script = `require(${JSON.stringify(entry)}); ${code}; process.stdout.write(JSON.stringify(Object.keys(require.cache)))`
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as string[]
}

describe('architecture: optional dependencies load on first use', () => {
  it('loading Enclave does not load ajv 8; ajv8CompilersFactory() loads it when a validator is built', () => {
    const isAjv8 = (file: string): boolean => /node_modules[\\/]ajv8[\\/]/.test(file)
    expect(loadedAfter('').filter(isAjv8)).to.deep.equal([])
    const used = loadedAfter(`require(${JSON.stringify(entry)}).ajv8CompilersFactory().buildValidator({}, {})`)
    expect(used.some(isAjv8)).to.equal(true)
  })
})
