// docs/build-tools.md "Bundling with esbuild" and docs/deploy.md "A serverless function": a Lambda
// team bundles with `esbuild --bundle --platform=node`. Run here with esbuild itself (pinned in
// devDependencies): each bundle is written to a directory with no node_modules and run by a fresh
// node, so nothing it needs may be resolved from disk. esbuild writes no `design:paramtypes`:
// a decorator app bundled from its .ts must fail at boot naming the fix, never inject undefined.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'chai'
import { buildSync } from 'esbuild'
import ts from 'typescript'

const root = join(__dirname, '..', '..', '..')
const enclave = join(root, 'dist', 'src', 'index.js')

// A runtime-API function (createServer + @fastify/aws-lambda): needs no metadata.
const runtimeLambda = `
import awsLambdaFastify from '@fastify/aws-lambda'
import { createServer } from 'enclave'

const app = createServer({ logger: false, schemaCompilation: 'lazy' })
const body = { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 } } } as const
app.post('/items', { schema: { body } }, async (request, reply) => reply.code(201).send({ created: request.body.name }))
app.get('/health', { handlerTimeout: 5000 }, async () => ({ ok: true }))
export const handler = awsLambdaFastify(app as never)
`

// A decorator app whose controller takes a service by constructor type, with no @inject().
const decoratorApp = `
import { Get, Module, Route, createApp, injectable } from 'enclave'

@injectable()
export class Greeter { greet(): string { return 'hello' } }

@Route('/greet')
export class GreetController {
  constructor(private readonly greeter: Greeter) {}
  @Get('/') greet(): { text: string } { return { text: this.greeter.greet() } }
}

@Module({ controllers: [GreetController], providers: [Greeter] })
export class AppModule {}

export const booting = createApp(AppModule, { logger: false })
`

/** Invokes the bundle's handler (or awaits its app) in a fresh node, from a directory with only the bundle. */
const runner = `
const mod = require('./bundle.js')
const event = (method, rawPath, body) => ({ version: '2.0', rawPath, rawQueryString: '', headers: { 'content-type': 'application/json' }, body,
  requestContext: { http: { method, sourceIp: '203.0.113.9' }, requestId: 'r' }, isBase64Encoded: false })
;(async () => {
  if (mod.handler) {
    const answers = []
    for (const e of [event('GET', '/health'), event('POST', '/items', '{"name":"cup"}'), event('POST', '/items', '{"name":""}')]) {
      const res = await mod.handler(e, {})
      answers.push([res.statusCode, JSON.parse(res.body)])
    }
    console.log(JSON.stringify({ answers }))
  } else {
    try {
      const app = await mod.booting
      const res = await app.inject({ url: '/greet' })
      console.log(JSON.stringify({ status: res.statusCode, body: res.json() }))
      await app.close()
    } catch (error) {
      console.log(JSON.stringify({ code: error.code, message: error.message }))
    }
  }
})()
`

function bundleAndRun(source: string, how: 'ts' | 'tsc-js'): Record<string, unknown> {
  const dir = mkdtempSync(join(tmpdir(), 'enclave-esbuild-'))
  try {
    let entry = join(dir, 'entry.ts')
    if (how === 'tsc-js') {
      // `tsc` first (its output keeps design:paramtypes), then esbuild bundles the JavaScript.
      const { outputText } = ts.transpileModule(source, { compilerOptions: {
        module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, experimentalDecorators: true, emitDecoratorMetadata: true, esModuleInterop: true,
      } })
      entry = join(dir, 'entry.js')
      writeFileSync(entry, outputText)
    } else {
      writeFileSync(entry, source)
    }
    buildSync({
      entryPoints: [entry], bundle: true, platform: 'node', target: 'node20', outfile: join(dir, 'bundle.js'), logLevel: 'silent',
      // The package as an app gets it from npm; here, the built one. Everything else from node_modules.
      alias: { enclave }, nodePaths: [join(root, 'node_modules')],
      // esbuild reads the decorator flags from a tsconfig; the README's.
      tsconfigRaw: { compilerOptions: { experimentalDecorators: true, emitDecoratorMetadata: true } },
    })
    rmSync(entry)
    writeFileSync(join(dir, 'run.js'), runner)
    const run = spawnSync(process.execPath, ['run.js'], { cwd: dir, encoding: 'utf8', timeout: 15000 })
    expect(run.status, run.stderr).to.equal(0)
    return JSON.parse(run.stdout.trim().split('\n').pop()!) as Record<string, unknown>
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('package: an esbuild bundle (esbuild --bundle --platform=node) runs from a directory without node_modules', function () {
  this.timeout(30000)

  it('a runtime-API Lambda function bundled from its .ts (createServer, @fastify/aws-lambda, lazy schemas) answers events: 200, 201, and a 400 for a bad body', () => {
    expect(bundleAndRun(runtimeLambda, 'ts')).to.deep.equal({ answers: [
      [200, { ok: true }],
      [201, { created: 'cup' }],
      [400, { statusCode: 400, error: 'Bad Request', message: 'body/name should NOT be shorter than 1 characters' }],
    ] })
  })

  it('a decorator app bundled from its .ts (no design:paramtypes) fails at boot with ENC_ERR_MODULE_DEPENDENCY_UNTYPED naming the class, the parameter and the fix: it never injects undefined', () => {
    const result = bundleAndRun(decoratorApp, 'ts')
    expect(result.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_UNTYPED')
    expect(result.message).to.contain('GreetController').and.contain('constructor parameter 0 (greeter)')
      .and.contain('@inject(').and.contain('docs/build-tools.md')
  })

  it("the same decorator app compiled by tsc first, then bundled (docs/build-tools.md's first way), boots and injects by type", () => {
    expect(bundleAndRun(decoratorApp, 'tsc-js')).to.deep.equal({ status: 200, body: { text: 'hello' } })
  })
})
