// A bundler (esbuild, webpack) inlines the packages a file require()s, but leaves a
// require.resolve('pkg') to run as it is: in the deployed bundle, with no node_modules beside it,
// that call throws. So Enclave must not resolve a package by path while it loads or boots. The
// child process below makes every require.resolve of a package from Enclave's code throw, as
// in a bundle, and boots an app with what used to resolve one (a schema `pattern`, judged with
// safe-regex2's tokenizer; a provider with constructor parameters, checked against tsyringe's copies).
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { expect } from 'chai'

const distSrc = join(__dirname, '..', '..', 'src')

const child = `
const Module = require('node:module')
const distSrc = ${JSON.stringify(distSrc)}
const resolveFilename = Module._resolveFilename
// require.resolve is the function named resolve in node's module helpers; require() goes through Module._load.
function calledByRequireResolve() {
  const prepare = Error.prepareStackTrace
  Error.prepareStackTrace = (_, frames) => frames
  const frames = new Error().stack
  Error.prepareStackTrace = prepare
  return frames.slice(1, 4).some((frame) => frame.getFunctionName() === 'resolve' && String(frame.getFileName()).startsWith('node:internal/modules'))
}
Module._resolveFilename = function (request, parent, ...rest) {
  const bare = !request.startsWith('.') && !request.startsWith('/') && !request.startsWith('node:')
  if (bare && parent && String(parent.filename).startsWith(distSrc) && calledByRequireResolve()) {
    throw Object.assign(new Error("Cannot find module '" + request + "' (bundled)"), { code: 'MODULE_NOT_FOUND' })
  }
  return resolveFilename.call(this, request, parent, ...rest)
}
async function main() {
  require('reflect-metadata')
  const enclave = require(distSrc + '/index.js')
  class Repo { all() { return ['a'] } }
  class Items { constructor(repo) { this.repo = repo } list(request) { return { q: request.query.q, items: this.repo.all() } } }
  Reflect.defineMetadata('design:paramtypes', [Repo], Items)
  enclave.Get('/', { schema: { querystring: { type: 'object', properties: { q: { type: 'string', pattern: '^(a+)+$' } } } } })(Items.prototype, 'list', Object.getOwnPropertyDescriptor(Items.prototype, 'list'))
  enclave.Route()(Items)
  enclave.injectable()(Repo)
  class Root {}
  enclave.Module({ controllers: [Items], providers: [Repo] })(Root)
  const app = await enclave.createApp(Root, { logger: false })
  const response = await app.inject({ url: '/?q=aa' })
  await app.close()
  // The simulation itself: a require.resolve from Enclave's code must be refused.
  let simulated = false
  try { require.cache[distSrc + '/index.js'].require.resolve('tsyringe') } catch { simulated = true }
  console.log(JSON.stringify({ status: response.statusCode, body: response.json(), simulated }))
}
main().catch((error) => { console.log(JSON.stringify({ error: String(error && error.stack || error) })); process.exit(0) })
`

describe('package: Enclave loads and boots where require.resolve cannot find packages (an esbuild or webpack bundle)', () => {
  it('boots an app with a schema pattern and an injected provider, and answers, without resolving a package by path', function () {
    this.timeout(20000)
    const run = spawnSync(process.execPath, ['--no-warnings', '-e', child], { encoding: 'utf8', timeout: 15000, cwd: join(distSrc, '..', '..') })
    expect(run.status, run.stderr).to.equal(0)
    const result = JSON.parse(run.stdout.trim().split('\n').pop()!) as Record<string, unknown>
    expect(result.error, String(result.error)).to.equal(undefined)
    expect(result).to.deep.include({ status: 200, body: { q: 'aa', items: ['a'] }, simulated: true })
  })
})
