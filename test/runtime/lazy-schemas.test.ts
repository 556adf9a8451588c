import 'reflect-metadata'
import { expect } from 'chai'
import Ajv from 'ajv'
import { createApp, Module, Route, Post } from '../../src'
import type { Scope, ValidatorCompiler, ServerOptions } from '../../src'
import { server, track, bootError, recordingLogger } from '../support/servers'

const body = { type: 'object', properties: { name: { type: 'string', maxLength: 5 } }, required: ['name'] }
const badBody = { type: 'object', properties: { name: { type: 'strnig' } } }
const response = { 200: { type: 'object', properties: { name: { type: 'string' } } } }

/** A validator compiler that counts its calls, compiling with ajv 6. */
function countingCompiler(): ValidatorCompiler & { calls: number } {
  const ajv = new Ajv()
  const compiler = ((input: Parameters<ValidatorCompiler>[0]) => { compiler.calls++; return ajv.compile(input.schema) }) as ValidatorCompiler & { calls: number }
  compiler.calls = 0
  return compiler
}

function post(app: Scope, url: string, payload: unknown) {
  return app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json' } })
}

function lazyServer(options: ServerOptions = {}): Scope {
  return server({ schemaCompilation: 'lazy', ...options })
}

describe("schemaCompilation: 'lazy' (issue 16)", () => {
  it("is off by default: a bad schema fails ready() at boot, as before ('eager')", async () => {
    const app = server()
    app.post('/bad', { schema: { body: badBody } }, () => ({}))
    expect((await bootError(app)).code).to.equal('ENC_ERR_SCH_VALIDATION_BUILD')
  })

  it('ready() compiles nothing; the first request compiles its route, and later requests reuse it', async () => {
    const compiler = countingCompiler()
    const app = lazyServer()
    app.setValidatorCompiler(compiler)
    app.post('/a', { schema: { body, response } }, (request) => request.body)
    app.post('/b', { schema: { body } }, () => ({}))
    await app.ready()
    expect(compiler.calls).to.equal(0)
    const first = await post(app, '/a', { name: 'ann', extra: 1 })
    expect(first.statusCode).to.equal(200)
    expect(JSON.parse(first.body)).to.deep.equal({ name: 'ann' })
    expect((await post(app, '/a', { name: 'toolong' })).statusCode).to.equal(400)
    expect(compiler.calls).to.equal(1)
  })

  it('ready() does not normalize (copy) a lazy route\'s schema: inspect() or the first request does, once, and both use that copy', async () => {
    let reads = 0
    const schema = { get body() { reads++; return body }, response }
    const app = lazyServer()
    app.post('/a', { schema }, (request) => request.body)
    const declared = reads
    await app.ready()
    expect(reads).to.equal(declared)
    const shown = app.inspect().routes.find((r) => r.url === '/a')
    expect(shown?.schema.body).to.deep.equal(body)
    expect(shown?.schema.body).to.not.equal(body)
    expect(reads).to.equal(declared + 1)
    expect((await post(app, '/a', { name: 'toolong' })).statusCode).to.equal(400)
    expect((await post(app, '/a', { name: 'ann' })).statusCode).to.equal(200)
    expect(reads).to.equal(declared + 1)
  })

  it('concurrent first requests to a route compile it once', async () => {
    const compiler = countingCompiler()
    const app = lazyServer()
    app.setValidatorCompiler(compiler)
    app.post('/a', { schema: { body } }, () => ({ ok: true }))
    await app.listen({ port: 0 })
    const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/a`
    const answers = await Promise.all(Array.from({ length: 20 }, () =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"x"}' })))
    expect(answers.map((a) => a.status)).to.deep.equal(Array(20).fill(200))
    expect(compiler.calls).to.equal(1)
  })

  it('a GET route and its implicit HEAD share one compilation', async () => {
    const compiler = countingCompiler()
    const app = lazyServer()
    app.setValidatorCompiler(compiler)
    app.get('/g', { schema: { querystring: { type: 'object', properties: { q: { type: 'string' } } } } }, () => ({}))
    await app.ready()
    expect((await app.inject({ method: 'HEAD', url: '/g?q=1' })).statusCode).to.equal(200)
    expect((await app.inject({ method: 'GET', url: '/g?q=1' })).statusCode).to.equal(200)
    expect(compiler.calls).to.equal(1)
  })

  it('a schema that does not compile lets the app boot; its route answers 500 with the boot error code, logged, every time, and other routes work', async () => {
    const log = recordingLogger()
    const app = lazyServer({ logger: log })
    app.post('/bad', { schema: { body: badBody } }, () => ({}))
    app.post('/good', { schema: { body } }, () => ({ ok: true }))
    await app.ready()
    for (let i = 0; i < 2; i++) {
      const answer = await post(app, '/bad', { name: 'x' })
      expect(answer.statusCode).to.equal(500)
      const payload = JSON.parse(answer.body)
      expect(payload.code).to.equal('ENC_ERR_SCH_VALIDATION_BUILD')
      expect(payload.message).to.contain('POST /bad').and.not.contain('strnig')
    }
    const logged = log.entries.filter((e) => e.level === 'error' && (e.obj.err as { code?: string } | undefined)?.code === 'ENC_ERR_SCH_VALIDATION_BUILD')
    expect(logged.length).to.be.at.least(1)
    expect(String((logged[0].obj.err as Error).message)).to.contain('body schema of route POST /bad')
    expect((await post(app, '/good', { name: 'x' })).statusCode).to.equal(200)
  })

  it('response schemas are compiled before onRequest hooks, so an early 4xx is serialized by its schema', async () => {
    const app = lazyServer()
    app.get('/guarded', {
      schema: { response: { 401: { type: 'object', properties: { statusCode: { type: 'integer' }, message: { type: 'string' } } } } },
      onRequest: async (_request, reply) => { reply.code(401).send({ statusCode: 401, message: 'no', secret: 'x' }) },
    }, () => ({}))
    const answer = await app.inject({ method: 'GET', url: '/guarded' })
    expect(answer.statusCode).to.equal(401)
    expect(JSON.parse(answer.body)).to.deep.equal({ statusCode: 401, message: 'no' })
  })
})

describe("schemaCompilation: 'lazy', response serializers per status (issue 16 §1)", () => {
  const user = { type: 'object', properties: { name: { type: 'string' } } }
  // fast-json-stringify cannot build it (the key check passes): the coded boot error an eager boot throws.
  const bad404 = { type: 'object', properties: { reason: { $ref: 'nowhere#' } } }
  const routeWith404 = (app: Scope, schema404: Record<string, unknown>): void => {
    app.get('/users/:id', { schema: { response: { 200: user, 404: schema404 } } }, async (request, reply) => {
      if ((request.params as { id: string }).id === '0') return reply.code(404).send({ reason: 'none', secret: 1 })
      return { name: 'ann', secret: 1 }
    })
  }

  it('a response schema for 404 is compiled when a 404 is first sent, not on the route\'s first request', async () => {
    const app = lazyServer()
    routeWith404(app, { type: 'object', properties: { reason: { type: 'string' } } })
    await app.ready()
    const ok = await app.inject({ method: 'GET', url: '/users/1' })
    expect(JSON.parse(ok.body)).to.deep.equal({ name: 'ann' })
    const afterFirst = app.bootProfile()
    const missing = await app.inject({ method: 'GET', url: '/users/0' })
    expect(missing.statusCode).to.equal(404)
    expect(JSON.parse(missing.body)).to.deep.equal({ reason: 'none' })
    const afterNotFound = app.bootProfile()
    expect(afterNotFound.compiledRoutes).to.equal(afterFirst.compiledRoutes)
    expect(afterNotFound.codeBytes).to.be.greaterThan(afterFirst.codeBytes)
    expect(afterNotFound.totalMs).to.be.greaterThan(afterFirst.totalMs)
  })

  it('a bad 404 response schema lets the route answer 200; a 404 then answers 500 with the boot error\'s code, logged once', async () => {
    const eager = server()
    routeWith404(eager, bad404)
    const expected = await bootError(eager)
    const log = recordingLogger()
    const app = lazyServer({ logger: log })
    routeWith404(app, bad404)
    await app.ready()
    expect((await app.inject({ method: 'GET', url: '/users/1' })).statusCode).to.equal(200)
    for (let i = 0; i < 2; i++) {
      const answer = await app.inject({ method: 'GET', url: '/users/0' })
      expect(answer.statusCode).to.equal(500)
      const payload = JSON.parse(answer.body)
      expect(payload.code).to.equal(expected.code)
      expect(payload.message).to.contain('GET /users/:id').and.not.contain('nowhere')
    }
    const logged = log.entries.filter((e) => e.level === 'error' && e.msg === 'the schemas of route GET /users/:id do not compile')
    expect(logged).to.have.length(1)
    expect((logged[0].obj.err as { code?: string }).code).to.equal(expected.code)
  })

  it('a bad 404 response schema fails ready({ compileAll: true }) with the eager boot error, also after the route\'s first request', async () => {
    const eager = server()
    routeWith404(eager, bad404)
    const expected = await bootError(eager)
    const compileAll = async (app: Scope): Promise<(Error & { code?: string }) | null> => {
      try { await app.ready({ compileAll: true }) } catch (e) { return e as Error & { code?: string } }
      return null
    }
    const untouched = lazyServer()
    routeWith404(untouched, bad404)
    const before = await compileAll(untouched)
    expect(before?.code).to.equal(expected.code)
    expect(before?.message).to.equal(expected.message)
    const requested = lazyServer()
    routeWith404(requested, bad404)
    await requested.ready()
    expect((await requested.inject({ method: 'GET', url: '/users/1' })).statusCode).to.equal(200)
    const after = await compileAll(requested)
    expect(after?.code).to.equal(expected.code)
    expect(after?.message).to.equal(expected.message)
  })

  it('reply.serialize() for a status whose schema does not compile throws the same 500, with the boot error\'s code', async () => {
    const eager = server()
    routeWith404(eager, bad404)
    const expected = await bootError(eager)
    const app = lazyServer()
    app.get('/manual', { schema: { response: { 200: user, 404: bad404 } } }, (_request, reply) => {
      reply.code(404)
      return reply.serialize({ reason: 'x' })
    })
    const answer = await app.inject({ method: 'GET', url: '/manual' })
    expect(answer.statusCode).to.equal(500)
    expect(JSON.parse(answer.body).code).to.equal(expected.code)
    expect(JSON.parse(answer.body).message).to.contain('GET /manual')
  })

  it('a compilersFactory serializer builder that declines a status keeps the default key answering it, built on the first request', async () => {
    const statuses: string[] = []
    const app = lazyServer({
      schemaController: {
        compilersFactory: {
          // Declines 200 (undefined): 200 replies then go through the `default` schema, as under eager.
          buildSerializer: () => ({ httpStatus }) => {
            statuses.push(String(httpStatus))
            return httpStatus === '200' ? undefined as never : (data: unknown) => JSON.stringify({ via: httpStatus, data })
          },
        },
      },
    })
    app.get('/d', { schema: { response: { 200: user, default: { type: 'object' } } } }, () => ({ name: 'ann' }))
    const answer = await app.inject({ method: 'GET', url: '/d' })
    expect(JSON.parse(answer.body)).to.deep.equal({ via: 'default', data: { name: 'ann' } })
    expect(statuses.sort()).to.deep.equal(['200', 'default'])
  })

  it('a custom serializer compiler still builds every status on the route\'s first request', async () => {
    const statuses: string[] = []
    const app = lazyServer()
    app.setSerializerCompiler(({ httpStatus }) => { statuses.push(String(httpStatus)); return (data: unknown) => JSON.stringify(data) })
    routeWith404(app, { type: 'object' })
    await app.ready()
    await app.inject({ method: 'GET', url: '/users/1' })
    expect(statuses.sort()).to.deep.equal(['200', '404'])
  })
})

describe('ready({ compileAll: true }) (issue 16)', () => {
  it('fails a lazy app with a bad schema with the same coded error an eager boot throws', async () => {
    const eager = server()
    eager.post('/bad', { schema: { body: badBody } }, () => ({}))
    const expected = await bootError(eager)
    const app = lazyServer()
    app.post('/bad', { schema: { body: badBody } }, () => ({}))
    let error: (Error & { code?: string }) | null = null
    try { await app.ready({ compileAll: true }) } catch (e) { error = e as Error & { code?: string } }
    expect(error?.code).to.equal(expected.code)
    expect(error?.message).to.equal(expected.message)
  })

  it('compiles every route of a good lazy app once, so requests compile nothing more; also after a plain ready()', async () => {
    const compiler = countingCompiler()
    const app = lazyServer()
    app.setValidatorCompiler(compiler)
    app.post('/a', { schema: { body } }, () => ({}))
    app.post('/b', { schema: { body } }, () => ({}))
    await app.ready()
    await app.ready({ compileAll: true })
    expect(compiler.calls).to.equal(2)
    await post(app, '/a', { name: 'x' })
    await app.ready({ compileAll: true })
    expect(compiler.calls).to.equal(2)
  })
})

describe('schemaCompilation per scope and per module (issue 16)', () => {
  it('a scope can turn eager compilation back on under a lazy server, and its bad schema fails boot', async () => {
    const app = lazyServer()
    app.register(async (scope) => {
      scope.setSchemaCompilation('eager')
      scope.post('/bad', { schema: { body: badBody } }, () => ({}))
    })
    expect((await bootError(app)).code).to.equal('ENC_ERR_SCH_VALIDATION_BUILD')
  })

  it('a lazy scope under an eager server defers its own routes only, its children inherit it', async () => {
    const compiler = countingCompiler()
    const app = server()
    app.setValidatorCompiler(compiler)
    app.post('/eager', { schema: { body } }, () => ({}))
    app.register(async (scope) => {
      scope.setSchemaCompilation('lazy')
      scope.post('/lazy', { schema: { body } }, () => ({}))
      scope.register(async (child) => { child.post('/child', { schema: { body } }, () => ({})) })
    })
    await app.ready()
    expect(compiler.calls).to.equal(1)
    await post(app, '/child', { name: 'x' })
    expect(compiler.calls).to.equal(2)
  })

  it('a module option sets it for the module and its children', async () => {
    @Route()
    class LazyController {
      @Post('/bad', { schema: { body: badBody } })
      bad(): unknown { return {} }
    }
    @Module({ controllers: [LazyController], schemaCompilation: 'lazy' })
    class LazyModule {}
    @Module({ plugins: [LazyModule] })
    class RootModule {}
    const app = track(await createApp(RootModule, { logger: false }))
    expect((await post(app, '/bad', {})).statusCode).to.equal(500)
  })

  it('refuses a value other than eager or lazy, wherever it is given, with a coded error', async () => {
    expect(() => server({ schemaCompilation: 'sometimes' as never })).to.throw().with.property('code', 'ENC_ERR_SERVER_INVALID_OPTION')
    const app = server()
    app.register(async (scope) => { scope.setSchemaCompilation('later' as never) })
    expect((await bootError(app)).message).to.contain("'eager' or 'lazy'")
  })
})

describe('bootProfile() (issue 16)', () => {
  it('counts a shared compiled function\'s code for every route using it, reading its source once (issue 16 §1)', async () => {
    const app = server()
    for (let i = 0; i < 5; i++) app.post(`/same/${i}`, { schema: { body, response } }, () => ({}))
    const reads = new Map<unknown, number>()
    const toString = Function.prototype.toString
    Function.prototype.toString = function (this: Function) { reads.set(this, (reads.get(this) ?? 0) + 1); return toString.call(this) }
    try {
      await app.ready()
    } finally {
      Function.prototype.toString = toString
    }
    const routes = app.bootProfile().slowestRoutes
    expect(routes).to.have.length(5)
    expect(new Set(routes.map((r) => r.codeBytes)).size).to.equal(1)
    expect(routes[0].codeBytes).to.be.greaterThan(100)
    for (const [fn, count] of reads) expect(count, String(fn).slice(0, 60)).to.equal(1)
  })

  it('lists the slowest routes and scopes to compile, with milliseconds and generated code size', async () => {
    const app = server()
    app.post('/big', { schema: { body, response } }, () => ({}))
    app.register(async (scope) => { scope.get('/small', { schema: { querystring: { type: 'object', properties: { q: { type: 'string' } } } } }, () => ({})) }, { prefix: '/p' })
    await app.ready()
    const profile = app.bootProfile()
    expect(profile.schemaCompilation).to.equal('eager')
    expect(profile.compiledRoutes).to.equal(2)
    expect(profile.pendingRoutes).to.equal(0)
    expect(profile.slowestRoutes.map((r) => `${r.method} ${r.url}`)).to.have.members(['POST /big', 'GET /p/small'])
    for (const r of profile.slowestRoutes) {
      expect(r.ms).to.be.a('number').and.at.least(0)
      expect(r.codeBytes).to.be.greaterThan(100)
      expect(r.when).to.equal('boot')
    }
    const ms = profile.slowestRoutes.map((r) => r.ms)
    expect(ms).to.deep.equal([...ms].sort((a, b) => b - a))
    expect(profile.slowestScopes.map((s) => s.routes).reduce((a, b) => a + b)).to.equal(2)
    expect(profile.codeBytes).to.equal(profile.slowestRoutes.reduce((sum, r) => sum + r.codeBytes, 0))
  })

  it('reports CPU milliseconds next to wall milliseconds, per route, per scope and in total', async () => {
    // A CPU clock that only the route's validator compiler moves: 40 ms of CPU, whatever the wall time.
    type Usage = { user: number; system: number }
    const proc = process as unknown as { cpuUsage: () => Usage; threadCpuUsage?: () => Usage }
    let micros = 1_000_000
    const clock = (): Usage => ({ user: micros, system: 0 })
    const ownCpuUsage = Object.getOwnPropertyDescriptor(proc, 'cpuUsage')
    const ownThread = Object.getOwnPropertyDescriptor(proc, 'threadCpuUsage')
    const app = server()
    app.get('/cpu', {
      schema: { querystring: { type: 'object', properties: { q: { type: 'string' } } } },
      validatorCompiler: () => { micros += 40_000; return () => true },
    }, () => ({}))
    proc.cpuUsage = clock
    if (proc.threadCpuUsage !== undefined) proc.threadCpuUsage = clock
    try {
      await app.ready()
    } finally {
      if (ownCpuUsage === undefined) delete (proc as { cpuUsage?: unknown }).cpuUsage
      else Object.defineProperty(proc, 'cpuUsage', ownCpuUsage)
      if (ownThread !== undefined) Object.defineProperty(proc, 'threadCpuUsage', ownThread)
    }
    const profile = app.bootProfile()
    expect(profile.slowestRoutes).to.have.length(1)
    expect(profile.slowestRoutes[0].cpuMs).to.equal(40)
    expect(profile.slowestRoutes[0].ms).to.be.a('number').and.at.least(0)
    expect(profile.slowestScopes[0].cpuMs).to.equal(40)
    expect(profile.totalCpuMs).to.equal(40)
    expect(profile.totalMs).to.equal(profile.slowestRoutes[0].ms)
  })

  it('under lazy compilation counts routes still waiting for a first request, and records each when it comes', async () => {
    const app = lazyServer()
    app.post('/a', { schema: { body } }, () => ({}))
    app.post('/b', { schema: { body } }, () => ({}))
    app.get('/plain', () => ({}))
    await app.ready()
    expect(app.bootProfile()).to.include({ schemaCompilation: 'lazy', compiledRoutes: 0, pendingRoutes: 2 })
    await post(app, '/a', { name: 'x' })
    const profile = app.bootProfile()
    expect(profile).to.include({ compiledRoutes: 1, pendingRoutes: 1 })
    expect(profile.slowestRoutes[0]).to.include({ method: 'POST', url: '/a', when: 'first request' })
  })
})
