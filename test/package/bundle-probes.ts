// Scripts run by node inside the app that installed the packed tarball (pack-install.test.ts):
// they see the package exactly as a user's process does. Each prints one JSON line.

/**
 * The require footprint: Enclave's own files in require.cache after `require('enclave')` and
 * after a README-style app answered over HTTP, the builtins loaded, and require()'s CPU time.
 */
export const footprintProbe = `
const builtinsBefore = new Set(process.moduleLoadList)
const loaded = () => ({
  enclave: Object.keys(require.cache).filter((f) => /[\\\\/]node_modules[\\\\/]enclave[\\\\/]/.test(f)).map((f) => f.replace(/.*[\\\\/]node_modules[\\\\/]enclave[\\\\/]/, '')),
  semver: Object.keys(require.cache).some((f) => /[\\\\/]node_modules[\\\\/]semver[\\\\/]/.test(f)),
  builtins: process.moduleLoadList.filter((n) => !builtinsBefore.has(n) && n.startsWith('NativeModule ')).map((n) => n.slice('NativeModule '.length)),
})
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000 }
async function main() {
  const c0 = cpu()
  const enclave = require('enclave')
  const requireMs = cpu() - c0
  const required = loaded()
  const app = enclave.createServer({ logger: false })
  app.register(async (scope) => {
    scope.post('/items', { schema: { body: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } }, response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } } } }, (request) => ({ n: request.body.n }))
  }, { prefix: '/v1' })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const post = (body) => new Promise((resolve, reject) => {
    const req = require('node:http').request({ host: '127.0.0.1', port: app.server.address().port, method: 'POST', path: '/v1/items', headers: { 'content-type': 'application/json' } }, (res) => {
      let text = ''
      res.setEncoding('utf8').on('data', (c) => { text += c }).on('end', () => resolve([res.statusCode, JSON.parse(text)]))
    })
    req.setTimeout(10000, () => req.destroy(new Error('timed out')))
    req.on('error', reject)
    req.end(body)
  })
  // The second body is over 40 bytes: the WebAssembly JSON scan (its bytes embedded in the code, no file to find) reads it.
  const answers = [await post('{"n":1}'), await post('{"n":2,"note":"a body long enough for the wasm scan"}'), await post('{"n":"x"}')]
  await app.close()
  console.log(JSON.stringify({ requireMs, required, served: loaded(), answers }))
}
main().catch((error) => { console.log(JSON.stringify({ error: String(error && error.stack || error) })) })
`

/** The esbuild helper every bundled file's wrapper goes through; the probe below records its first calls. */
export const WRAPPER_HELPER = 'var __commonJS = (cb, mod) => function __require() {'

/**
 * Which of the bundle's files ran: the installed bundle's text, with its wrapper helper recording
 * each file's first require(), compiled as that same file (so its requires resolve as the real
 * one's do). Then the lazily loaded features are used: each must load its files then, and work.
 */
export const lazyProbe = (bundle: string): string => `
const Module = require('node:module')
const { readFileSync } = require('node:fs')
const bundle = ${JSON.stringify(bundle)}
const text = readFileSync(bundle, 'utf8')
const helper = ${JSON.stringify(WRAPPER_HELPER)}
const ran = []
globalThis.__bundleRan = ran
const helpers = text.split(helper).length - 1
const traced = text.replace(helper, helper + ' if (!mod) globalThis.__bundleRan.push(__getOwnPropNames(cb)[0]);')
const bundled = new Module(bundle, null)
bundled.filename = bundle
bundled.paths = Module._nodeModulePaths(require('node:path').dirname(bundle))
require.cache[bundle] = bundled
bundled._compile(traced, bundle)
const enclave = bundled.exports
const since = (n) => ran.slice(n).map((f) => f.replace(/^dist\\/src\\//, ''))
async function main() {
  const onRequire = since(0)
  const beforeBoot = ran.length
  const app = enclave.createServer({ logger: false, schemaCache: { directory: 'schema-cache' } })
  app.get('/a/:id', { schema: { params: { type: 'object', properties: { id: { type: 'integer' } } } } }, async (request) => ({ id: request.params.id }))
  await app.ready()
  const onBoot = since(beforeBoot)
  const beforeInspect = ran.length
  const routes = app.printRoutes()
  const onInspect = since(beforeInspect)
  const res = await app.inject({ url: '/a/7' })
  const bad = await app.inject({ url: '/a/x' })
  await app.close()
  let declaration = null
  try {
    const broken = enclave.createServer({ logger: false })
    broken.get('/b', async () => ({}))
    broken.get('/b', async () => ({}))
    await broken.ready()
  } catch (error) { declaration = { code: error.code, isFrameworkError: enclave.isFrameworkError(error), isError: error instanceof Error } }
  const cached = require('node:fs').readdirSync('schema-cache').length
  console.log(JSON.stringify({ helpers, onRequire, onBoot, onInspect, cached, routes, answer: [res.statusCode, res.json()], bad: [bad.statusCode, bad.json()], declaration }))
}
main().catch((error) => { console.log(JSON.stringify({ error: String(error && error.stack || error) })) })
`

/** An error thrown from inside Enclave (a bad route declaration): its stack, with or without --enable-source-maps. */
export const stackProbe = `
const enclave = require('enclave')
const app = enclave.createServer({ logger: false })
app.get('/twice', async () => ({}))
app.get('/twice', async () => ({}))
app.ready().then(() => console.log(JSON.stringify({ stack: 'no error' })), (error) => console.log(JSON.stringify({ code: error.code, stack: error.stack })))
`

/**
 * `enclave/client` as a front end and a server use it: the files `require('enclave/client')` loads
 * (its own bundle only, no node builtin), then a contract defined through it implemented through
 * `enclave` (two bundles: the route's contract mark must carry across) by a controller method,
 * called by the typed client through inject() and over a listening server with fetch.
 */
export const clientProbe = `
const builtinsBefore = new Set(process.moduleLoadList)
const files = () => Object.keys(require.cache).filter((f) => /[\\\\/]node_modules[\\\\/]enclave[\\\\/]/.test(f)).map((f) => f.replace(/.*[\\\\/]node_modules[\\\\/]enclave[\\\\/]/, ''))
async function main() {
  const { defineContract, createClient } = require('enclave/client')
  // Node's own internals (its resolver reading the exports map) are not modules the package asked for.
  const clientOnly = { files: files(), builtins: process.moduleLoadList.filter((n) => !builtinsBefore.has(n) && n.startsWith('NativeModule ') && !n.startsWith('NativeModule internal/')).map((n) => n.slice('NativeModule '.length)) }
  const api = defineContract({
    hello: { method: 'GET', url: '/hello/:name', schema: { response: { 200: { type: 'object', properties: { message: { type: 'string' } } } } } },
    missing: { method: 'GET', url: '/missing' },
  })
  const { Implements, Module, Route, createApp } = require('enclave')
  class Greetings {
    hello(request) { return { message: 'hello ' + request.params.name, secret: 'dropped by the response schema' } }
    missing(_request, reply) { reply.code(404); return { message: 'none' } }
  }
  for (const name of ['hello', 'missing']) Implements(api[name])(Greetings.prototype, name, Object.getOwnPropertyDescriptor(Greetings.prototype, name))
  Route()(Greetings)
  class AppModule {}
  Module({ controllers: [Greetings] })(AppModule)
  const app = await createApp(AppModule)
  const injected = await createClient(api, { app }).hello({ params: { name: 'a b' } })
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  const fetched = await createClient(api, { baseUrl: address }).missing()
  await app.close()
  console.log(JSON.stringify({ clientOnly, injected: [injected.status, injected.body], fetched: [fetched.status, fetched.body] }))
}
main().catch((error) => { console.log(JSON.stringify({ error: String(error && error.stack || error) })) })
`

/** A front end's module: bundled for the browser by esbuild from the app that installed the tarball. */
export const frontEndModule = `
import { createClient, defineContract } from 'enclave/client'
const api = defineContract({ hello: { method: 'GET', url: '/hello/:name' } })
export const greet = (name) => createClient(api, { baseUrl: 'https://api.example.com' }).hello({ params: { name } })
`
