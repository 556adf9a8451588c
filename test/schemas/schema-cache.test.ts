import { expect } from 'chai'
import Ajv from 'ajv'
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { InjectOptions, Scope, ServerOptions, SharedSchema, ValidatorPlugin, JsonSchema, RouteSchema } from '../../src'
import { server, bootError, recordingLogger } from '../support/servers'
import { SCHEMA_CACHE_FILE } from '../../src/runtime/schemas'

const ajvErrors: ValidatorPlugin = require('ajv-errors')

let directories: string[] = []

function cacheDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), 'enclave-schema-cache-test-'))
  directories.push(directory)
  return directory
}

afterEach(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true })
  directories = []
})

interface CacheCase {
  readonly name: string
  readonly options?: ServerOptions
  readonly shared?: readonly SharedSchema[]
  readonly schema: RouteSchema
  readonly reply?: (request: { body: unknown; query: unknown }) => unknown
  readonly requests: readonly InjectOptions[]
  /** The case's validator is compiled as usual: the cache cannot hold it (a recursive $ref between nested functions). */
  readonly notCacheable?: boolean
}

const echo = (request: { body: unknown; query: unknown }): unknown => ({ body: request.body ?? null, query: request.query })
const post = (payload: unknown, url = '/r'): InjectOptions => ({ method: 'POST', url, payload: payload as never, headers: { 'content-type': 'application/json' } })
const rawPost = (payload: string): InjectOptions => ({ method: 'POST', url: '/r', payload: payload as never, headers: { 'content-type': 'application/json' } })
const query = (text: string): InjectOptions => ({ method: 'POST', url: `/r?${text}`, payload: '{}' as never, headers: { 'content-type': 'application/json' } })

const address: SharedSchema = {
  $id: 'address', type: 'object', properties: { street: { type: 'string' }, zip: { $ref: '#/definitions/zip' } }, required: ['zip'],
  definitions: { zip: { type: 'string', pattern: '^[0-9]{5}$' } },
}
const tag: SharedSchema = { $id: 'tag', type: 'string', maxLength: 3 }

const cases: readonly CacheCase[] = [
  {
    name: 'coercion of querystring values, and refusal of "Infinity" and "1e999"',
    schema: { querystring: { type: 'object', properties: { limit: { type: 'integer' }, ratio: { type: 'number' }, flag: { type: 'boolean' }, name: { type: 'string' } } } },
    requests: [query('limit=10&flag=true&ratio=0.5&name=7'), query('limit=abc'), query('ratio=Infinity'), query('ratio=1e999'), query('limit=-Infinity'), query('flag=maybe')],
  },
  {
    name: 'defaults and removeAdditional',
    schema: { body: { type: 'object', additionalProperties: false, properties: {
      a: { type: 'string', default: 'x' },
      nested: { type: 'object', additionalProperties: false, properties: { n: { type: 'number', default: 5 }, list: { type: 'array', default: [1, 2] } } },
    } } },
    requests: [post({ extra: 1, nested: { z: 1 } }), post({}), post({ a: 'given', nested: { n: '7' } })],
  },
  {
    name: "shared defaults (useDefaults: 'shared': ajv hands the default objects to the function)",
    options: { validator: { customOptions: { useDefaults: 'shared' } } },
    schema: { body: { type: 'object', properties: { meta: { type: 'object', default: { source: 'default', tags: ['a'] } } } } },
    requests: [post({}), post({ meta: { source: 'given' } })],
  },
  {
    name: 'errorMessage (ajv-errors, allErrors)',
    options: { validator: { customOptions: { allErrors: true }, plugins: [ajvErrors] } },
    schema: { body: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 2 }, age: { type: 'number' } },
      errorMessage: { required: { name: 'name is required' }, properties: { age: 'age must be a number', name: 'name: at least 2 characters' } } } },
    requests: [post({ name: 'Ada', age: 3 }), post({ age: 'old' }), post({ name: 'A', age: 'x' })],
  },
  {
    name: '$ref to shared schemas (whole, definition, nested ref, array items)',
    shared: [address, tag],
    schema: { body: { type: 'object', properties: {
      home: { $ref: 'address#' }, zip: { $ref: 'address#/definitions/zip' }, tags: { type: 'array', items: { $ref: 'tag#' } },
    } } },
    requests: [post({ home: { street: 'Main', zip: '12345', extra: true }, zip: '54321', tags: ['ab'] }), post({ home: { zip: '1234' } }), post({ home: { street: 1 } }),
      post({ tags: ['abcd'] }), post({ zip: 'x' })],
  },
  {
    name: 'formats, enum, const, uniqueItems and unicode lengths',
    schema: { body: { type: 'object', properties: {
      email: { type: 'string', format: 'email' }, at: { type: 'string', format: 'date-time' }, ip: { type: 'string', format: 'ipv4' },
      kind: { enum: ['a', { deep: [1] }] }, fixed: { const: { x: 1 } }, set: { type: 'array', uniqueItems: true }, short: { type: 'string', maxLength: 2 },
    } } },
    requests: [post({ email: 'a@b.io', at: '2026-11-26T08:00:00Z', ip: '127.0.0.1', kind: { deep: [1] }, fixed: { x: 1 }, set: [1, 2], short: '😀😀' }),
      post({ email: 'nope' }), post({ at: 'yesterday' }), post({ ip: '999.1.1.1' }), post({ kind: 'b' }), post({ fixed: { x: 2 } }), post({ set: [{ a: 1 }, { a: 1 }] }), post({ short: '😀😀😀' })],
  },
  {
    name: 'text outside ASCII in schemas (enum, pattern, default, property names): the file is written as ASCII escapes',
    schema: { body: { type: 'object', properties: { 'größe': { enum: ['café', '😀'] }, name: { type: 'string', pattern: '^[é-ü]+$', default: 'ñandú' } } } },
    requests: [post({ 'größe': 'café' }), post({ 'größe': 'cafe' }), post({ name: 'éü' }), post({ name: 'abc' })],
  },
  {
    name: 'custom formats given as RegExps in customOptions (keyed by their source; the live instance checks them)',
    options: { validator: { customOptions: { formats: { zip: /^[0-9]{5}$/, 'upper-case': '^[A-Z]+$' } } } },
    schema: { body: { type: 'object', properties: { zip: { type: 'string', format: 'zip' }, code: { type: 'string', format: 'upper-case' } } } },
    requests: [post({ zip: '12345', code: 'ABC' }), post({ zip: '1234' }), post({ code: 'abc' })],
  },
  {
    name: "verbose errors (each error's schema and parentSchema are read through validate.schema), $data, coerceTypes 'array'",
    options: {
      validator: { customOptions: { verbose: true, $data: true, coerceTypes: 'array', allErrors: true } },
      schemaErrorFormatter: (errors) => new Error(JSON.stringify((errors as Array<Record<string, unknown>>).map((e) => [e.keyword, e.dataPath, e.schema, e.parentSchema, e.data]))),
    },
    schema: { body: { type: 'object', properties: {
      min: { type: 'integer' }, max: { type: 'integer', minimum: { $data: '1/min' } }, list: { type: 'array', items: { type: 'integer', enum: [1, 2, 3] } },
    } } },
    requests: [post({ min: 2, max: 3, list: '2' }), post({ min: 5, max: 3 }), post({ list: ['4', 'x'] })],
  },
  {
    name: 'ajv-errors with its options (singleError)',
    options: { validator: { customOptions: { allErrors: true }, plugins: [[ajvErrors as (ajv: unknown, options?: unknown) => unknown, { singleError: true }]] } },
    schema: { body: { type: 'object', required: ['a', 'b'], properties: { a: { type: 'string' }, b: { type: 'integer' } }, errorMessage: { required: 'a and b are required', properties: { b: 'b: an integer' } } } },
    requests: [post({ a: 'x', b: 1 }), post({}), post({ a: 'x', b: 'y' })],
  },
  {
    name: 'nullable',
    schema: { body: { type: 'object', properties: { s: { type: 'string', nullable: true }, i: { type: 'integer', nullable: true } } } },
    requests: [post({ s: null, i: null }), post({ s: 'x', i: '4' }), post({ i: 'four' })],
  },
  {
    name: 'finite refusal in a body (strings coerced to numbers, and a literal 1e999)',
    schema: { body: { type: 'object', properties: { price: { type: 'number' }, items: { type: 'array', items: { type: 'object', properties: { qty: { type: 'integer' } } } } } } },
    requests: [post({ price: '12.5' }), post({ price: 'Infinity' }), post({ price: '1e999' }), post({ items: [{ qty: '-Infinity' }] }), rawPost('{"price":1e999}')],
  },
  {
    name: 'error messages and paths at depth',
    schema: { body: { type: 'object', required: ['items'], properties: { items: { type: 'array', maxItems: 2, items: { type: 'object', required: ['q'], properties: { q: { type: 'integer', minimum: 1 } } } } } } },
    requests: [post({ items: [{ q: '1' }, { q: 2 }] }), post({ items: [{ q: 'x' }] }), post({ items: [{ q: 0 }] }), post({ items: [{}] }), post({ items: [1, 2, 3] }), post({})],
  },
  {
    name: 'a recursive schema ($ref: "#" from the root function)',
    schema: { body: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } } } },
    requests: [post({ name: 'a', children: [{ name: 'b', children: [{ name: 'c', extra: 1 }] }] }), post({ children: [{ children: [{ name: 5 }] }] })],
  },
  {
    name: 'a recursive definition (a nested function that refers to itself: not cacheable, compiled as usual)',
    schema: { body: { $ref: '#/definitions/node', definitions: { node: { type: 'object', properties: { next: { $ref: '#/definitions/node' }, v: { type: 'integer' } } } } } },
    requests: [post({ v: '1', next: { v: 2, next: { v: 'x' } } }), post({ v: 1, next: { v: 2 } })],
    notCacheable: true,
  },
  {
    name: 'response serializers: rounding, left-out properties, anyOf, shared $ref, dates',
    options: { serializerOpts: { rounding: 'ceil' } },
    shared: [{ $id: 'money', type: 'object', properties: { amount: { type: 'integer' }, currency: { type: 'string' } } }],
    schema: {
      body: { type: 'object', properties: { n: { type: 'number' } } },
      response: { 200: { type: 'object', properties: {
        count: { type: 'integer' }, price: { $ref: 'money#' }, at: { type: 'string', format: 'date-time' },
        either: { anyOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { type: 'object', properties: { b: { type: 'number' } } }] },
      } } },
    },
    reply: (request) => ({ count: (request.body as { n: number }).n, secret: 'left out', price: { amount: 2.1, currency: 'EUR', extra: 1 }, at: new Date(0), either: { b: 3, a: 'x' } }),
    requests: [post({ n: 1.2 }), post({ n: 3 })],
  },
  {
    name: 'serializer options holding a RegExp (an ajv format for anyOf): not cached, since the standalone code keeps the options as JSON',
    options: { serializerOpts: { ajv: { formats: { zip: /^[0-9]{5}$/ } } } },
    schema: { body: { type: 'object' }, response: { 200: { type: 'object', properties: { v: { anyOf: [{ type: 'string', format: 'zip' }, { type: 'number' }] } } } } },
    reply: (request) => ({ v: (request.body as { v: unknown }).v }),
    requests: [post({ v: '12345' }), post({ v: 3 })],
    notCacheable: true,
  },
  {
    name: "serializerOpts.inlineValidators (its standalone code requires ajv 8's runtime modules): compiled as usual, the boot succeeds",
    options: { serializerOpts: { inlineValidators: true } },
    schema: { body: { type: 'object' }, response: { 200: { type: 'object', properties: { v: { anyOf: [{ type: 'string', format: 'date-time', maxLength: 30 }, { type: 'number' }] } } } } },
    reply: (request) => ({ v: (request.body as { v: unknown }).v }),
    requests: [post({ v: 3 }), post({ v: '2026-11-26T08:00:00Z' })],
    notCacheable: true,
  },
]

async function run(testCase: CacheCase, directory: string | null, logger = recordingLogger()): Promise<{ answers: unknown[]; app: Scope }> {
  const app = server({ logger, ...testCase.options, ...(directory === null ? {} : { schemaCache: { directory } }) })
  for (const schema of testCase.shared ?? []) app.addSchema(schema)
  app.post('/r', { schema: testCase.schema }, (request) => (testCase.reply ?? echo)(request as never))
  await app.ready()
  const answers: unknown[] = []
  for (const request of testCase.requests) {
    const answer = await app.inject(request)
    answers.push({ status: answer.statusCode, body: answer.body })
  }
  return { answers, app }
}

function stats(app: Scope) {
  const profile = app.bootProfile()
  expect(profile.schemaCache).to.not.equal(null)
  return profile.schemaCache!
}

/**
 * Counts ajv 6 compilations of the tests' route schemas (those with a property `n`) while `fn` runs:
 * Ajv.prototype.compile, which every default validator goes through (a new instance also compiles
 * its keywords' meta-schemas, which are not counted).
 */
async function countingAjvCompiles<T>(fn: () => Promise<T>): Promise<{ result: T; compiles: number }> {
  const proto = (Ajv as unknown as { prototype: { compile: (...args: unknown[]) => unknown } }).prototype
  const original = proto.compile
  let compiles = 0
  proto.compile = function (this: unknown, ...args: unknown[]) {
    if ((args[0] as { properties?: { n?: unknown } } | undefined)?.properties?.n !== undefined) compiles++
    return original.apply(this, args)
  }
  try {
    return { result: await fn(), compiles }
  } finally {
    proto.compile = original
  }
}

function simpleRoute(app: Scope, schema: JsonSchema = { type: 'object', properties: { n: { type: 'integer' } } }): void {
  app.post('/s', { schema: { body: schema, response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } } } }, (request) => request.body)
}

describe('schemaCache: precompiled validators and serializers (issue 16)', () => {
  describe('a cached function behaves exactly as a compiled one', () => {
    for (const testCase of cases) {
      it(testCase.name, async () => {
        const directory = cacheDirectory()
        const baseline = await run(testCase, null)
        const first = await run(testCase, directory)
        const firstStats = stats(first.app)
        expect(firstStats.hits).to.equal(0)
        if (testCase.notCacheable === true) expect(firstStats.notCacheable).to.be.greaterThan(0)
        else expect(firstStats.misses).to.be.greaterThan(0)
        const second = await run(testCase, directory)
        const secondStats = stats(second.app)
        expect(secondStats.misses).to.equal(0)
        if (testCase.notCacheable !== true) {
          expect(secondStats.hits).to.equal(firstStats.misses)
          expect(secondStats.notCacheable).to.equal(firstStats.notCacheable)
        }
        expect(first.answers).to.deep.equal(baseline.answers)
        expect(second.answers).to.deep.equal(baseline.answers)
      })
    }
  })

  it('a cache hit skips compilation: no ajv compile on the second boot, and bootProfile() counts the hits', async () => {
    const directory = cacheDirectory()
    const boot = async (): Promise<Scope> => {
      const app = server({ schemaCache: { directory } })
      simpleRoute(app)
      await app.ready()
      return app
    }
    const cold = await countingAjvCompiles(boot)
    expect(cold.compiles).to.be.greaterThan(0)
    expect(stats(cold.result)).to.include({ hits: 0, misses: 2, notCacheable: 0 })
    expect(existsSync(join(directory, SCHEMA_CACHE_FILE))).to.equal(true)
    const warm = await countingAjvCompiles(boot)
    expect(warm.compiles).to.equal(0)
    expect(stats(warm.result)).to.include({ hits: 2, misses: 0, notCacheable: 0 })
    expect((await warm.result.inject(post({ n: '4' }, '/s'))).body).to.equal('{"n":4}')
  })

  it('a changed schema, changed validator options or changed serializer options is a miss, never a stale hit', async () => {
    const directory = cacheDirectory()
    const boot = async (options: ServerOptions, schema?: JsonSchema): Promise<Scope> => {
      const app = server({ ...options, schemaCache: { directory } })
      simpleRoute(app, schema)
      await app.ready()
      return app
    }
    await boot({})
    expect(stats(await boot({}))).to.include({ hits: 2, misses: 0 })
    const changedSchema = await boot({}, { type: 'object', properties: { n: { type: 'integer', maximum: 3 } } })
    expect(stats(changedSchema)).to.include({ hits: 1, misses: 1 })
    expect((await changedSchema.inject(post({ n: 4 }, '/s'))).statusCode).to.equal(400)
    // Each boot that compiles everything keeps only what it used: the baseline boot puts its entries back.
    await boot({})
    const changedValidator = await boot({ validator: { customOptions: { coerceTypes: false } } })
    expect(stats(changedValidator)).to.include({ hits: 1, misses: 1 })
    expect((await changedValidator.inject(post({ n: '4' }, '/s'))).statusCode).to.equal(400)
    await boot({})
    const changedSerializer = await boot({ serializerOpts: { rounding: 'floor' } })
    expect(stats(changedSerializer)).to.include({ hits: 1, misses: 1 })
    expect((await changedSerializer.inject(post({ n: 4 }, '/s'))).body).to.equal('{"n":4}')
  })

  it('a changed shared schema is a miss for the routes of the compiler that sees it', async () => {
    const directory = cacheDirectory()
    const boot = async (maxLength: number): Promise<Scope> => {
      const app = server({ schemaCache: { directory } })
      app.addSchema({ $id: 'name', type: 'string', maxLength })
      app.post('/s', { schema: { body: { type: 'object', properties: { name: { $ref: 'name#' } } } } }, (request) => request.body)
      await app.ready()
      return app
    }
    await boot(3)
    expect(stats(await boot(3))).to.include({ hits: 1, misses: 0 })
    const changed = await boot(5)
    expect(stats(changed)).to.include({ hits: 0, misses: 1 })
    expect((await changed.inject(post({ name: 'abcd' }, '/s'))).statusCode).to.equal(200)
  })

  it('sibling scopes giving one $id different bodies keep different entries (each compiler is keyed by what it sees)', async () => {
    const directory = cacheDirectory()
    const boot = async (): Promise<{ app: Scope; answers: number[] }> => {
      const app = server({ schemaCache: { directory } })
      for (const [prefix, maxLength] of [['/a', 2], ['/b', 4]] as const) {
        app.register(async (scope) => {
          scope.addSchema({ $id: 'name', type: 'string', maxLength })
          scope.post('/s', { schema: { body: { type: 'object', properties: { name: { $ref: 'name#' } } } } }, (request) => request.body)
        }, { prefix })
      }
      await app.ready()
      const answers: number[] = []
      for (const url of ['/a/s', '/b/s']) answers.push((await app.inject(post({ name: 'abc' }, url))).statusCode)
      return { app, answers }
    }
    const cold = await boot()
    expect(cold.answers).to.deep.equal([400, 200])
    expect(stats(cold.app)).to.include({ misses: 2 })
    const warm = await boot()
    expect(warm.answers).to.deep.equal([400, 200])
    expect(stats(warm.app)).to.include({ hits: 2, misses: 0 })
  })

  it('a changed library or Enclave version changes every key', () => {
    const proxyquire = require('proxyquire').noCallThru()
    const real = require('../../src/runtime/schemas/code-cache/cache-fingerprint')
    const key = (module: typeof real): string[] => [
      module.validatorFingerprint({ coerceTypes: true }, {}, {}), module.serializerFingerprint({}, {}),
    ]
    for (const name of ['ajv', 'fast-json-stringify', 'ajv-errors']) {
      const changed = proxyquire('../../src/runtime/schemas/code-cache/cache-fingerprint', { [`${name}/package.json`]: { version: '99.0.0' } })
      const [validator, serializer] = key(changed)
      expect(validator).to.be.a('string').and.not.equal(key(real)[0])
      expect(serializer).to.be.a('string').and.not.equal(key(real)[1])
    }
  })

  it('a different node major or V8 version changes every key (fast-json-stringify generates code for the runtime it runs on)', () => {
    const proxyquire = require('proxyquire').noCallThru()
    const load = (): string[] => {
      const module = proxyquire('../../src/runtime/schemas/code-cache/cache-fingerprint', {})
      return [module.validatorFingerprint({ coerceTypes: true }, {}, {}), module.serializerFingerprint({}, {})]
    }
    const real = load()
    const original = Object.getOwnPropertyDescriptor(process, 'versions')!
    for (const change of [{ v8: '13.8.0' }, { node: '99.0.0' }]) {
      Object.defineProperty(process, 'versions', { ...original, value: { ...process.versions, ...change } })
      try {
        const [validator, serializer] = load()
        expect(validator).to.be.a('string').and.not.equal(real[0])
        expect(serializer).to.be.a('string').and.not.equal(real[1])
      } finally {
        Object.defineProperty(process, 'versions', original)
      }
    }
  })

  it("Enclave's or a library's version that cannot be read (a bundle without package.json files): nothing is cached", () => {
    const proxyquire = require('proxyquire').noCallThru()
    const noEnclavePackage = proxyquire('../../src/runtime/schemas/code-cache/cache-fingerprint', { 'node:fs': { existsSync: () => false, readFileSync: () => '' } })
    expect(noEnclavePackage.validatorFingerprint({ coerceTypes: true }, {}, {})).to.equal(null)
    expect(noEnclavePackage.serializerFingerprint({}, {})).to.equal(null)
    for (const name of ['ajv', 'fast-json-stringify']) {
      const missing = proxyquire('../../src/runtime/schemas/code-cache/cache-fingerprint', { [`${name}/package.json`]: null })
      expect(missing.validatorFingerprint({ coerceTypes: true }, {}, {})).to.equal(null)
      expect(missing.serializerFingerprint({}, {})).to.equal(null)
    }
  })

  it('a schema holding Infinity is never keyed as its JSON text (null): a later maximum: null still fails the boot', async () => {
    const directory = cacheDirectory()
    const route = (maximum: unknown) => (app: Scope): void => {
      app.post('/s', { schema: { body: { type: 'object', properties: { n: { type: 'number', maximum: maximum as number } } } } }, (request) => request.body)
    }
    const infinite = server({ schemaCache: { directory } })
    route(Infinity)(infinite)
    await infinite.ready()
    expect((await infinite.inject(post({ n: 1e300 }, '/s'))).statusCode).to.equal(200)
    const nulled = server({ schemaCache: { directory } })
    route(null)(nulled)
    const error = await bootError(nulled)
    expect(error.message).to.match(/maximum should be number/)
  })

  it('shared schemas that are more than their JSON text (Infinity) make their compiler not cacheable', async () => {
    const directory = cacheDirectory()
    const boot = async (): Promise<Scope> => {
      const app = server({ schemaCache: { directory } })
      app.addSchema({ $id: 'big', type: 'number', maximum: Infinity })
      app.post('/s', { schema: { body: { type: 'object', properties: { n: { $ref: 'big#' } } } } }, (request) => request.body)
      await app.ready()
      return app
    }
    await boot()
    const again = await boot()
    expect(stats(again)).to.include({ hits: 0, misses: 0 })
    expect(stats(again).notCacheable).to.be.greaterThan(0)
    expect((await again.inject(post({ n: '5' }, '/s'))).body).to.equal('{"n":5}')
  })

  const unusableFiles = [
    {
      title: 'a corrupt cache file: the boot succeeds, compiles, warns once ("damaged"), and rewrites the file',
      content: 'enclave-schema-cache/2\n{"x":["ajv6","00",0,12',
      warning: /damaged/,
      notWarning: null,
    },
    {
      title: 'a cache file of another format (another Enclave version) is compiled and rewritten, with a warning that says so, not "damaged"',
      content: 'enclave-schema-cache/9\n{}\n',
      warning: /not for this version \(written as enclave-schema-cache\/9 by another Enclave version/,
      notWarning: /damaged/,
    },
  ]
  for (const { title, content, warning, notWarning } of unusableFiles) {
    it(title, async () => {
      const directory = cacheDirectory()
      writeFileSync(join(directory, SCHEMA_CACHE_FILE), content)
      const logger = recordingLogger()
      const app = server({ logger, schemaCache: { directory } })
      simpleRoute(app)
      await app.ready()
      expect(stats(app)).to.include({ hits: 0, misses: 2 })
      const warnings = logger.entries.filter((e) => e.level === 'warn').map((e) => String(e.msg))
      expect(warnings).to.have.length(1)
      expect(warnings[0]).to.match(warning)
      if (notWarning !== null) expect(warnings[0]).to.not.match(notWarning)
      expect((await app.inject(post({ n: '4' }, '/s'))).body).to.equal('{"n":4}')
      const again = server({ schemaCache: { directory } })
      simpleRoute(again)
      await again.ready()
      expect(stats(again)).to.include({ hits: 2, misses: 0 })
    })
  }

  it('a damaged entry (its text no longer matches its checksum) is compiled instead, with a warning', async () => {
    const directory = cacheDirectory()
    const first = server({ schemaCache: { directory } })
    simpleRoute(first)
    await first.ready()
    const file = join(directory, SCHEMA_CACHE_FILE)
    // Valid JSON, valid JavaScript, different behaviour: the checksum is what refuses it.
    const tampered = readFileSync(file, 'utf8').replace(/should be integer/g, 'should be INTEGER')
    expect(tampered).to.not.equal(readFileSync(file, 'utf8'))
    writeFileSync(file, tampered)
    const logger = recordingLogger()
    const app = server({ logger, schemaCache: { directory } })
    simpleRoute(app)
    await app.ready()
    expect(stats(app)).to.include({ hits: 1, misses: 1 })
    expect(logger.entries.some((e) => e.level === 'warn' && /checksum/.test(String(e.msg)))).to.equal(true)
    expect(JSON.parse((await app.inject(post({ n: 'x' }, '/s'))).body).message).to.equal('body/n should be integer')
  })

  it('an unwritable cache directory does not fail the boot: one warning, everything compiled', async () => {
    const directory = cacheDirectory()
    const blocker = join(directory, 'a-file')
    writeFileSync(blocker, '')
    const logger = recordingLogger()
    // A directory below a file cannot be created, whoever runs the test (root ignores permission bits).
    const app = server({ logger, schemaCache: { directory: join(blocker, 'cache') } })
    simpleRoute(app)
    app.post('/t', { schema: { body: { type: 'string' } } }, () => ({}))
    await app.ready()
    expect(stats(app)).to.include({ hits: 0, misses: 3 })
    expect(logger.entries.filter((e) => e.level === 'warn')).to.have.length(1)
    expect((await app.inject(post({ n: '4' }, '/s'))).body).to.equal('{"n":4}')
  })

  it("mode 'read' uses the cache and never writes it (one warning when something was compiled)", async () => {
    const directory = cacheDirectory()
    const logger = recordingLogger()
    const app = server({ logger, schemaCache: { directory, mode: 'read' } })
    simpleRoute(app)
    await app.ready()
    expect(existsSync(join(directory, SCHEMA_CACHE_FILE))).to.equal(false)
    const warnings = logger.entries.filter((e) => e.level === 'warn').map((e) => String(e.msg))
    expect(warnings).to.have.length(1)
    expect(warnings[0]).to.match(/mode 'read'/)
    const writer = server({ schemaCache: { directory } })
    simpleRoute(writer)
    await writer.ready()
    const reader = server({ schemaCache: { directory, mode: 'read' } })
    simpleRoute(reader)
    await reader.ready()
    expect(stats(reader)).to.include({ hits: 2, misses: 0 })
  })

  it('custom compilers are never cached (setValidatorCompiler, route compilers, compilersFactory)', async () => {
    const directory = cacheDirectory()
    const ajv = new Ajv()
    const app = server({ schemaCache: { directory } })
    app.setValidatorCompiler(({ schema }) => ajv.compile(schema))
    app.setSerializerCompiler(() => (data) => JSON.stringify(data))
    simpleRoute(app)
    app.post('/route', { schema: { body: { type: 'string' } }, validatorCompiler: ({ schema }) => ajv.compile(schema) }, () => ({}))
    await app.ready()
    expect(stats(app)).to.include({ hits: 0, misses: 0, notCacheable: 0 })
    const factory = server({
      schemaCache: { directory },
      schemaController: { compilersFactory: { buildValidator: () => ({ schema }) => ajv.compile(schema), buildSerializer: () => () => (data) => JSON.stringify(data) } },
    })
    simpleRoute(factory)
    await factory.ready()
    expect(stats(factory)).to.include({ hits: 0, misses: 0, notCacheable: 0 })
    expect(existsSync(join(directory, SCHEMA_CACHE_FILE))).to.equal(false)
  })

  it('a validator plugin the cache cannot name (not ajv-errors) or a function option: the validators are compiled, not cached', async () => {
    const directory = cacheDirectory()
    const plugin = (instance: { addFormat(name: string, fn: (s: string) => boolean): void }): void => instance.addFormat('even', (s) => s.length % 2 === 0)
    const boot = async (options: ServerOptions): Promise<Scope> => {
      const app = server({ ...options, schemaCache: { directory } })
      app.post('/s', { schema: { body: { type: 'string', format: 'even' }, response: { 200: { type: 'object', properties: { ok: { type: 'boolean' } } } } } }, () => ({ ok: true }))
      await app.ready()
      return app
    }
    for (const options of [{ validator: { plugins: [plugin] } }, { validator: { customOptions: { formats: { even: (s: string) => s.length % 2 === 0 } } } }] as ServerOptions[]) {
      await boot(options)
      const app = await boot(options)
      // The serializer is cached; the validator is not.
      expect(stats(app)).to.include({ hits: 1, misses: 0, notCacheable: 1 })
      expect((await app.inject(post('"abc"', '/s'))).statusCode).to.equal(400)
      expect((await app.inject(post('"ab"', '/s'))).statusCode).to.equal(200)
    }
  })

  it("schemaCompilation 'lazy' reads the cache on a route's first request, and ready({ compileAll: true }) fills it", async () => {
    const directory = cacheDirectory()
    const filler = server({ schemaCompilation: 'lazy', schemaCache: { directory } })
    simpleRoute(filler)
    await filler.ready()
    expect(existsSync(join(directory, SCHEMA_CACHE_FILE))).to.equal(false)
    await filler.ready({ compileAll: true })
    expect(stats(filler)).to.include({ misses: 2 })
    expect(existsSync(join(directory, SCHEMA_CACHE_FILE))).to.equal(true)
    const { result: lazy, compiles } = await countingAjvCompiles(async () => {
      const app = server({ schemaCompilation: 'lazy', schemaCache: { directory } })
      simpleRoute(app)
      await app.ready()
      expect(stats(app)).to.include({ hits: 0, misses: 0 })
      expect((await app.inject(post({ n: '5' }, '/s'))).body).to.equal('{"n":5}')
      return app
    })
    expect(compiles).to.equal(0)
    expect(stats(lazy)).to.include({ hits: 2, misses: 0 })
  })

  it('a bad schema (validator or serializer) still fails the boot with the same coded error, and nothing is written for it', async () => {
    const bad: RouteSchema[] = [
      { body: { type: 'object', properties: { a: { type: 'strnig' } } } },
      { response: { 200: { type: 'object', properties: { a: { $ref: '#/definitions/missing' } } } } },
    ]
    for (const schema of bad) {
      const directory = cacheDirectory()
      const boot = (cache: boolean): Promise<Error & { code?: string }> => {
        const app = server(cache ? { schemaCache: { directory } } : {})
        simpleRoute(app)
        app.post('/bad', { schema }, () => ({}))
        return bootError(app)
      }
      const without = await boot(false)
      const first = await boot(true)
      const second = await boot(true)
      expect(without.code).to.match(/^ENC_ERR_SCH_/)
      expect(first.code).to.equal(without.code)
      expect(first.message).to.equal(without.message)
      expect(second.message).to.equal(without.message)
      expect(existsSync(join(directory, SCHEMA_CACHE_FILE))).to.equal(false)
    }
  })

  it('an unknown schemaCache key, a misspelt option or mode: createServer() fails with a "did you mean"', () => {
    const attempt = (options: unknown): Error & { code?: string } => {
      try {
        server(options as ServerOptions)
      } catch (error) {
        return error as Error & { code?: string }
      }
      throw new Error('createServer() accepted it')
    }
    const wrongKey = attempt({ schemaCache: { directry: '/tmp/x' } })
    expect(wrongKey.code).to.equal('ENC_ERR_SERVER_INVALID_OPTION')
    expect(wrongKey.message).to.include("did you mean 'directory'")
    expect(attempt({ schemaCahce: { directory: '/tmp/x' } }).message).to.include("did you mean 'schemaCache'")
    expect(attempt({ schemaCache: { directory: '/tmp/x', mode: 'raed' } }).message).to.include("did you mean 'read'")
    expect(attempt({ schemaCache: { directory: '' } }).message).to.include('directory must be a non-empty path')
    expect(attempt({ schemaCache: '/tmp/x' }).message).to.include('must be an object { directory, mode? }')
  })
})
