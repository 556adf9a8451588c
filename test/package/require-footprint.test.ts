// What `require('enclave')` and a plain app's boot and first request load: a serverless function
// pays for every module on each cold start (bench/cold-start.ts; bench/README "session 18"). The
// cluster runner, the schema cache, the inspection renderers, semver and node:crypto load only for
// the app that uses them (startCluster(), `schemaCache`, printRoutes()/openapi()..., a plugin that
// declares a Fastify range, bearerAuth()); their own tests show they still work when used.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { expect } from 'chai'
import { NOT_LOADED_FILES } from './lazy-modules'

const distSrc = join(__dirname, '..', '..', 'src')

const child = `
const builtinsBefore = new Set(process.moduleLoadList)
const distSrc = ${JSON.stringify(distSrc)}
const loaded = () => ({
  files: Object.keys(require.cache).map((file) => file.startsWith(distSrc) ? file.slice(distSrc.length + 1) : file.replace(/.*node_modules[\\\\/]/, 'node_modules/')),
  builtins: process.moduleLoadList.filter((name) => !builtinsBefore.has(name) && name.startsWith('NativeModule ')).map((name) => name.slice('NativeModule '.length)),
})
async function main() {
  const enclave = require(distSrc + '/index.js')
  const required = loaded()
  const app = enclave.createServer({ logger: false })
  app.register(async (scope) => { scope.post('/items', { schema: { body: { type: 'object', properties: { n: { type: 'integer' } } }, response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } } } }, (request) => ({ n: request.body.n })) }, { prefix: '/v1' })
  // Over HTTP, as a deployed app is called (inject() loads light-my-request, which loads node:crypto).
  await app.listen({ port: 0, host: '127.0.0.1' })
  const response = await new Promise((resolve, reject) => {
    const request = require('node:http').request({ host: '127.0.0.1', port: app.server.address().port, method: 'POST', path: '/v1/items', headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume()
      res.on('end', () => resolve(res))
    })
    request.on('error', reject)
    request.end('{"n":1}')
  })
  await app.close()
  console.log(JSON.stringify({ required, served: loaded(), status: response.statusCode }))
}
main().catch((error) => { console.log(JSON.stringify({ error: String(error && error.stack || error) })); process.exit(0) })
`

interface Loaded { readonly files: readonly string[]; readonly builtins: readonly string[] }

// node:net loads node:cluster itself when a server listens: only `require('enclave')` is held to not loading it.
const NOT_REQUIRED_BUILTINS: readonly string[] = ['cluster', 'crypto']
const NOT_SERVED_BUILTINS: readonly string[] = ['crypto']

function unwanted(loaded: Loaded, builtins: readonly string[]): string[] {
  return [
    ...loaded.files.filter((file) => NOT_LOADED_FILES.some((pattern) => pattern.test(file))),
    ...loaded.builtins.filter((name) => builtins.includes(name)).map((name) => `node:${name}`),
  ]
}

describe('package: require(\'enclave\') and a plain app load only what that app uses (cold start, bench/README "session 18")', () => {
  let result: { required: Loaded; served: Loaded; status: number; error?: string }

  before(function () {
    this.timeout(20000)
    const run = spawnSync(process.execPath, ['--no-warnings', '-e', child], { encoding: 'utf8', timeout: 15000, cwd: join(distSrc, '..', '..') })
    expect(run.status, run.stderr).to.equal(0)
    result = JSON.parse(run.stdout.trim().split('\n').pop()!) as typeof result
    expect(result.error, String(result.error)).to.equal(undefined)
  })

  it('does not load the cluster runner, the schema cache, the inspection renderers, semver or node:cluster/node:crypto on require', () => {
    expect(result.required.files.length, 'the probe sees Enclave\'s files').to.be.greaterThan(100)
    expect(unwanted(result.required, NOT_REQUIRED_BUILTINS)).to.deep.equal([])
  })

  it('does not load them either to boot an app with a plugin and schemas and answer its first request over HTTP', () => {
    expect(result.status).to.equal(200)
    expect(unwanted(result.served, NOT_SERVED_BUILTINS)).to.deep.equal([])
  })
})
