// Issue 12 §3: the plugin-loading API real plugins use, with Fastify's names and semantics:
// fastify-plugin metadata, awaited register(), after(), ready(cb), decorate dependencies,
// hasPlugin/pluginName/version.
import { expect } from 'chai'
import request from 'supertest'
import { fp } from '../support/scope-plugin'
import { createServer, lift, type Scope } from '../../src/runtime'
import { bootError, server, thrown } from './helpers'
import { tlsCert, tlsKey } from '../support/tls'

// What these tests decorate on a scope: Scope has no catch-all (an undeclared name does not compile).
declare module '../../src/runtime' {
  interface ScopeDecorations { a?: unknown; answer?: unknown; b?: unknown; counter?: unknown; db?: unknown; test?: unknown; users?: unknown }
}

describe('plugin API: fastify-plugin metadata', () => {
  it('Symbol.for(\'skip-override\') runs the plugin in the registering scope, like lift()', async () => {
    const app = server()
    const plugin = async (scope: Scope) => { scope.decorateRequest('user', 'ada') }
    ;(plugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true
    app.register(async (child) => {
      child.register(plugin)
      child.get('/seen', async (req) => ({ user: req.user ?? null }))
    }, { prefix: '/a' })
    app.get('/root', async (req) => ({ user: req.user ?? null }))
    await app.ready()
    await request(app.server).get('/a/seen').expect(200, { user: 'ada' })
    await request(app.server).get('/root').expect(200, { user: null })
  })

  it('a plugin without skip-override stays encapsulated (its decorator is invisible to the registering scope)', async () => {
    const app = server()
    app.register(async (child) => {
      child.register(async (inner) => { inner.decorateRequest('user', 'ada') })
      child.get('/seen', async (req) => ({ user: req.user ?? null }))
    })
    await app.ready()
    await request(app.server).get('/seen').expect(200, { user: null })
  })

  it('names the scope after plugin-meta name, then Symbol.for(\'fastify.display-name\'), and records it for hasPlugin()', async () => {
    const app = server()
    const seen: Record<string, unknown> = {}
    const named = async function inner(scope: Scope) { seen.path = scope.path; seen.pluginName = scope.pluginName }
    ;(named as unknown as Record<symbol, string>)[Symbol.for('fastify.display-name')] = 'display-name'
    app.register(fp(async (scope: Scope) => { seen.fpHas = scope.hasPlugin('my-plugin') }, { name: 'my-plugin' }))
    app.register(named)
    app.register(async (child) => { seen.childHas = child.hasPlugin('my-plugin'); seen.unknown = child.hasPlugin('other') })
    await app.ready()
    expect(seen).to.deep.equal({ fpHas: true, path: 'root > display-name', pluginName: 'display-name', childHas: true, unknown: false })
    expect(app.hasPlugin('my-plugin')).to.equal(true)
    expect(app.hasPlugin('display-name')).to.equal(true)
  })

  it('refuses at boot a plugin whose plugin-meta dependency is not registered before it (ENC_ERR_PLUGIN_DEPENDENCY)', async () => {
    const app = server()
    app.register(fp(async () => {}, { name: 'needs-auth', dependencies: ['auth'] }))
    const error = await bootError(app)
    expect(error.code).to.equal('ENC_ERR_PLUGIN_DEPENDENCY')
    expect(error.message).to.include("plugin 'needs-auth' registered in root depends on 'auth'")
  })

  it('accepts the dependency when it is registered first, in the scope or an ancestor', async () => {
    const app = server()
    app.register(fp(async () => {}, { name: 'auth' }))
    app.register(async (child) => { child.register(fp(async () => {}, { name: 'needs-auth', dependencies: ['auth'] })) })
    await app.ready()
  })

  it('refuses at boot a plugin whose plugin-meta decorators are not visible (ENC_ERR_PLUGIN_MISSING_DECORATOR)', async () => {
    const app = server()
    app.decorate('db', {})
    app.register(fp(async () => {}, { name: 'uses-things', decorators: { fastify: ['db', 'cache'], request: ['user'], reply: [] } }))
    const error = await bootError(app)
    expect(error.code).to.equal('ENC_ERR_PLUGIN_MISSING_DECORATOR')
    // Fastify's facts, one sentence per missing decorator, then where it is registered.
    expect(error.message).to.include("The decorator 'cache' required by 'uses-things' is not present in the scope; The decorator 'user' required by 'uses-things' is not present in Request")
      .and.include("(plugin 'uses-things' registered in root)").and.not.include("'db'")
  })

  it('checks the plugin-meta fastify range against the Fastify 5 plugin API Enclave offers (ENC_ERR_PLUGIN_VERSION)', async () => {
    const app = server()
    expect(app.version).to.equal('5.0.0')
    app.register(fp(async () => {}, { name: 'ok', fastify: '5.x' }))
    app.register(fp(async () => {}, { name: 'ok-range', fastify: '>=4' }))
    app.register(fp(async () => {}, { name: 'old-plugin', fastify: '3.x' }))
    const error = await bootError(app)
    expect(error.code).to.equal('ENC_ERR_PLUGIN_VERSION')
    expect(error.message).to.include("plugin 'old-plugin' registered in root expects Fastify '3.x'")
  })

  it("scope.version is the floor of the Fastify 5 plugin API Enclave offers: a plugin asking for a later minor (fastify: '>=5.3.0') is refused with ENC_ERR_PLUGIN_VERSION rather than loaded without the API it counts on", async () => {
    const app = server()
    app.register(fp(async () => {}, { name: 'any-five', fastify: '^5.0.0' }))
    app.register(fp(async () => {}, { name: 'newer-five', fastify: '>=5.3.0' }))
    const error = await bootError(app)
    expect(error.code).to.equal('ENC_ERR_PLUGIN_VERSION')
    expect(error.message).to.include("plugin 'newer-five' registered in root expects Fastify '>=5.3.0'")
  })

  it('takes an ES module namespace or an import() promise (its default export), as Fastify does', async () => {
    const app = server()
    app.register({ default: async (scope: Scope) => { scope.get('/esm', async () => ({ esm: true })) } } as never)
    app.register(Promise.resolve({ default: async (scope: Scope) => { scope.get('/dynamic', async () => ({ dynamic: true })) } }) as never)
    await app.ready()
    await request(app.server).get('/esm').expect(200, { esm: true })
    await request(app.server).get('/dynamic').expect(200, { dynamic: true })
  })

  it('a lifted or fastify-plugin default export given as import() runs in the registering scope, as in Fastify', async () => {
    const app = server()
    const users = lift(async (scope: Scope) => { scope.decorate('users', ['alice']); scope.decorateRequest('user', null) }, { name: 'users' })
    const counter = fp(async (scope: Scope) => { scope.decorate('counter', 1) }, { name: 'counter' })
    await app.register(Promise.resolve({ default: users }))
    app.register(Promise.resolve({ default: counter }))
    app.get('/user', async (req) => ({ user: (req as unknown as { user: unknown }).user }))
    await app.ready()
    expect(app.users).to.deep.equal(['alice'])
    expect(app.counter).to.equal(1)
    expect(app.printPlugins()).to.include('users (lifted)')
    await request(app.server).get('/user').expect(200, { user: null })
  })

  it('register(import()) that fails before boot reaches it (a missing file behind a slow plugin) rejects ready() with the import error, not an unhandled rejection that ends the process', async () => {
    const unhandled: unknown[] = []
    const record = (reason: unknown): void => { unhandled.push(reason) }
    process.on('unhandledRejection', record)
    try {
      const app = server()
      app.register(async () => { await new Promise((resolve) => setTimeout(resolve, 30)) })
      const missing = Object.assign(new Error("Cannot find module './missing-plugin'"), { code: 'ERR_MODULE_NOT_FOUND' })
      app.register(Promise.reject(missing) as never)
      const error = await bootError(app)
      expect(error).to.equal(missing)
      // Node reports an unhandled rejection after the microtasks of the tick it happened in.
      await new Promise((resolve) => setImmediate(resolve))
      expect(unhandled).to.deep.equal([])
    } finally {
      process.off('unhandledRejection', record)
    }
  })
})

describe('plugin API: incremental loading (avvio)', () => {
  it('awaiting register() loads the plugin before the next line: its decorator and onRoute hook are there', async () => {
    const app = server()
    const onRoute: string[] = []
    await app.register(fp(async (scope: Scope) => {
      scope.decorate('answer', 42)
      scope.addHook('onRoute', (route) => { onRoute.push(route.url as string) })
    }))
    expect(app.answer).to.equal(42)
    app.get('/after', async () => ({ ok: true }))
    await app.ready()
    expect(onRoute).to.deep.equal(['/after'])
  })

  it('without await, a route declared right after register() is not seen by the plugin\'s onRoute hook (Fastify\'s order)', async () => {
    const app = server()
    const onRoute: string[] = []
    app.register(fp(async (scope: Scope) => { scope.addHook('onRoute', (route) => { onRoute.push(route.url as string) }) }))
    app.get('/before-load', async () => ({ ok: true }))
    await app.ready()
    expect(onRoute).to.deep.equal([])
  })

  it('awaits nested registrations inside a plugin, in order', async () => {
    const app = server()
    const order: string[] = []
    app.register(async (scope) => {
      order.push('outer start')
      await scope.register(async () => { order.push('inner') })
      order.push('outer after inner')
    })
    app.register(async () => { order.push('sibling') })
    await app.ready()
    expect(order).to.deep.equal(['outer start', 'inner', 'outer after inner', 'sibling'])
  })

  it('after(cb) runs once the plugins registered before it loaded, in both callback styles', async () => {
    const app = server()
    const order: string[] = []
    app.register(async () => { order.push('first') })
    app.after((error) => { order.push(`after1 ${String(error)}`) })
    app.register(async () => { order.push('second') })
    app.after((_error, done) => { order.push('after2'); done() })
    await app.ready()
    expect(order).to.deep.equal(['first', 'after1 null', 'second', 'after2'])
  })

  it('ready(cb) calls back with null when booted and with the error when boot fails', async () => {
    const ok = server()
    const good = await new Promise<Error | null>((resolve) => { ok.ready((error) => resolve(error)) })
    expect(good).to.equal(null)
    const bad = server()
    bad.register(async () => { throw new Error('plugin failed') })
    const failed = await new Promise<Error | null>((resolve) => { bad.ready((error) => resolve(error)) })
    expect(failed?.message).to.equal('plugin failed')
  })

  it('a booted scope is not thenable: returning it from an async function does not hang', async () => {
    const app = createServer()
    await app.ready()
    const same = await (async () => app)()
    expect(same).to.equal(app)
    await app.close()
  })
})

describe('plugin API: decorators', () => {
  it('decorate(name, value, dependencies) refuses a missing dependency (ENC_ERR_DEC_MISSING_DEPENDENCY) and accepts a visible one', async () => {
    const app = server()
    expect(thrown(() => app.decorate('b', 1, ['a'])).code).to.equal('ENC_ERR_DEC_MISSING_DEPENDENCY')
    app.decorate('a', 1)
    app.decorate('b', 2, ['a'])
    expect(thrown(() => app.decorateRequest('r' as string, null, ['missing'])).message).to.include("decorateRequest('r') in root depends on 'missing'")
    await app.ready()
  })

  it('decorate(name, value, dependencies) with dependencies that are not an array is refused (ENC_ERR_DEC_DEPENDENCY_INVALID_TYPE; issue 12 §3)', () => {
    const app = server()
    const error = thrown(() => app.decorate('test', () => {}, {} as never))
    expect(error.code).to.equal('ENC_ERR_DEC_DEPENDENCY_INVALID_TYPE')
    expect(error.message).to.include("the dependencies of decorator 'test' must be an array of decorator names, got object")
    expect(thrown(() => app.decorateReply('r' as string, 1, 'a' as never)).code).to.equal('ENC_ERR_DEC_DEPENDENCY_INVALID_TYPE')
  })

  it('takes symbol names for instance, request and reply decorators', async () => {
    const kFlag = Symbol('flag')
    const app = server()
    app.decorate(kFlag, 'instance')
    app.decorateRequest(kFlag, 'request')
    app.decorateReply(kFlag, 'reply')
    app.get('/s', async (req, reply) => ({ r: (req as unknown as Record<symbol, string>)[kFlag], p: (reply as unknown as Record<symbol, string>)[kFlag] }))
    await app.ready()
    expect((app as unknown as Record<symbol, string>)[kFlag]).to.equal('instance')
    expect(app.hasRequestDecorator(kFlag)).to.equal(true)
    await request(app.server).get('/s').expect(200, { r: 'request', p: 'reply' })
  })

  it('a child scope sees what a plugin stored directly on its parent (Fastify children inherit by prototype)', async () => {
    const kList = Symbol('list')
    const app = server()
    let seen: unknown = null
    app.register(fp(async (scope: Scope) => { (scope as unknown as Record<symbol, string[]>)[kList] = ['from parent'] }))
    app.register(async (child) => { seen = (child as unknown as Record<symbol, string[]>)[kList] })
    await app.ready()
    expect(seen).to.deep.equal(['from parent'])
  })

  it('initialConfig shows the server options with resolved limits, frozen', async () => {
    const app = server({ bodyLimit: 2048 })
    expect(app.initialConfig.bodyLimit).to.equal(2048)
    expect(Object.isFrozen(app.initialConfig)).to.equal(true)
    expect(server().initialConfig.bodyLimit).to.equal(1024 * 1024)
  })

  it('initialConfig holds every limit and timeout with its default when not given (keepAliveTimeout, maxRequestsPerSocket, connectionTimeout ...), as Fastify 3\'s does', () => {
    const config = server({ keepAliveTimeout: 1_000 }).initialConfig
    expect([config.keepAliveTimeout, config.maxRequestsPerSocket, config.connectionTimeout, config.maxParamLength]).to.deep.equal([1_000, 0, 0, 100])
  })

  it("initialConfig holds Fastify 3's other listed options with their defaults when not given (ignoreTrailingSlash, caseSensitive, requestIdLogLabel ...), and the values given", () => {
    const pick = (config: Readonly<Record<string, unknown>>): unknown[] => ['caseSensitive', 'ignoreTrailingSlash', 'jsonShorthand', 'disableRequestLogging', 'requestIdHeader', 'requestIdLogLabel',
      'onProtoPoisoning', 'onConstructorPoisoning', 'http2SessionTimeout'].map((key) => config[key])
    // Fastify 3.27.4's values, but requestIdHeader: off by default in Enclave (README differences).
    expect(pick(server().initialConfig)).to.deep.equal([true, false, true, false, false, 'reqId', 'error', 'error', 5_000])
    const given = server({ caseSensitive: false, ignoreTrailingSlash: true, jsonShorthand: false, disableRequestLogging: true, requestIdHeader: 'x-id', requestIdLogLabel: 'rid',
      onProtoPoisoning: 'remove', onConstructorPoisoning: 'ignore', http2: true, http2SessionTimeout: 9_000 }).initialConfig
    expect(pick(given)).to.deep.equal([false, true, false, true, 'x-id', 'rid', 'remove', 'ignore', 9_000])
  })

  it('initialConfig shows an https object holding TLS material as true, as Fastify 3 does, so a plugin that logs its config cannot hand out the key', () => {
    const secure = server({ https: { key: tlsKey, cert: tlsCert } }).initialConfig
    expect(secure.https).to.equal(true)
    expect(JSON.stringify(secure)).not.to.include('PRIVATE KEY')
    expect(server({ http2: true, https: { allowHTTP1: true, key: tlsKey, cert: tlsCert } }).initialConfig.https).to.equal(true)
    expect(server().initialConfig.https).to.equal(undefined)
  })
})

describe('plugin API: what Enclave does not offer', () => {
  it('a plugin calling a Fastify method Enclave lacks fails boot with ENC_ERR_PLUGIN_UNSUPPORTED_API naming it', async () => {
    const app = server()
    app.register(fp(async (scope: Scope) => { (scope as unknown as { setGenReqId(fn: () => string): void }).setGenReqId(() => 'id') }, { name: 'needs-gen-req-id' }))
    const error = await bootError(app)
    expect(error.code).to.equal('ENC_ERR_PLUGIN_UNSUPPORTED_API')
    expect(error.message).to.include('setGenReqId() was called in root')
  })

  it("Fastify 3's setDefaultRoute() and getDefaultRoute() fail with ENC_ERR_PLUGIN_UNSUPPORTED_API instead of 'is not a function' (setNotFoundHandler answers unknown URLs)", () => {
    const app = server() as unknown as { setDefaultRoute(fn: unknown): void; getDefaultRoute(): unknown }
    expect(() => { app.setDefaultRoute(() => undefined) }).to.throw().with.property('code', 'ENC_ERR_PLUGIN_UNSUPPORTED_API')
    expect(() => app.getDefaultRoute()).to.throw(/getDefaultRoute\(\) was called in root/)
  })

  it('the refusal of setDefaultRoute() and getDefaultRoute() names the replacement, setNotFoundHandler(), in a plugin too (boot fails, naming its path)', async () => {
    expect(() => { (server() as unknown as { setDefaultRoute(fn: unknown): void }).setDefaultRoute(() => undefined) }).to.throw(/setDefaultRoute\(\) was called in root: .*removed in Fastify 5: answer unknown URLs with setNotFoundHandler\(/)
    const app = server()
    app.register(async (scope: Scope) => { (scope as unknown as { getDefaultRoute(): unknown }).getDefaultRoute() }, { prefix: '/v1' })
    const error = await bootError(app)
    expect(error.code).to.equal('ENC_ERR_PLUGIN_UNSUPPORTED_API')
    expect(error.message).to.match(/getDefaultRoute\(\) was called in .*setNotFoundHandler\(/)
    // Methods with no replacement keep the plain refusal.
    expect(() => { (server() as unknown as { setGenReqId(fn: unknown): void }).setGenReqId(() => 'x') }).to.throw(/cannot run in Enclave yet/)
  })
})
