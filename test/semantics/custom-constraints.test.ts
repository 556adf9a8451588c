// Fastify 3.27.4's custom constraint strategies (createServer({ constraints })) and its deprecated
// versioning option, as find-my-way 4 serves them there (checked side by side with fastify 3.27.4).
import { spawnSync } from 'node:child_process'
import { expect } from 'chai'
import type { ConstraintStrategy, RouteOptions, ServerOptions } from '../../src'
import { bootError, build, server, thrown } from '../runtime/helpers'

function mapStore(): { get(key: unknown): unknown; set(key: unknown, value: unknown): void } {
  const entries = new Map<unknown, unknown>()
  return { get: (key) => entries.get(key) ?? null, set: (key, value) => { entries.set(key, value) } }
}

function tenantStrategy(mustMatchWhenDerived = false): ConstraintStrategy {
  return { name: 'tenant', storage: mapStore, deriveConstraint: (req) => req.headers['x-tenant'], validate: () => {}, mustMatchWhenDerived }
}

const says = (text: string) => async () => ({ text })

async function ask(app: ReturnType<typeof server>, url: string, headers: Record<string, string> = {}): Promise<string | number> {
  const res = await app.inject({ url, headers })
  return res.statusCode === 200 ? (res.json() as { text: string }).text : res.statusCode
}

describe('semantics: custom constraint strategies and the versioning option (Fastify 3)', () => {
  it('a custom header strategy routes by its derived value; an unconstrained route on the path answers any other value', async () => {
    const app = await build((root) => {
      root.get('/', { constraints: { tenant: 'acme' } }, says('acme'))
      root.get('/', { constraints: { tenant: 'globex' } }, says('globex'))
      root.get('/', says('anyone'))
      root.get('/only/:id', { constraints: { tenant: 'acme' } }, says('acme only'))
    }, { constraints: { tenant: tenantStrategy() } })
    expect([
      await ask(app, '/', { 'x-tenant': 'acme' }), await ask(app, '/', { 'x-tenant': 'globex' }),
      await ask(app, '/', { 'x-tenant': 'initech' }), await ask(app, '/'),
      await ask(app, '/only/1', { 'x-tenant': 'acme' }), await ask(app, '/only/1'),
    ]).to.deep.equal(['acme', 'globex', 'anyone', 'anyone', 'acme only', 404])
  })

  it('deriveConstraint is called only once a route uses the strategy (a strategy no route uses costs nothing)', async () => {
    let calls = 0
    const strategy = { ...tenantStrategy(), deriveConstraint: (req: { headers: Record<string, unknown> }) => { calls++; return req.headers['x-tenant'] } }
    const idle = await build((root) => { root.get('/', says('plain')) }, { constraints: { tenant: strategy } })
    expect(await ask(idle, '/', { 'x-tenant': 'acme' })).to.equal('plain')
    expect(calls).to.equal(0)
    const used = await build((root) => { root.get('/', { constraints: { tenant: 'acme' } }, says('acme')) }, { constraints: { tenant: strategy } })
    expect(await ask(used, '/', { 'x-tenant': 'acme' })).to.equal('acme')
    expect(calls).to.equal(1)
  })

  it('a derived value no route is constrained to answers 404 when the path has only constrained routes', async () => {
    const app = await build((root) => { root.get('/', { constraints: { tenant: 'acme' } }, says('acme')) }, { constraints: { tenant: tenantStrategy() } })
    expect([await ask(app, '/', { 'x-tenant': 'other' }), await ask(app, '/')]).to.deep.equal([404, 404])
  })

  it('mustMatchWhenDerived: a request with a derived value reaches only routes constrained to it, even a static route of a path without constraints', async () => {
    const app = await build((root) => {
      root.get('/', { constraints: { tenant: 'acme' } }, says('acme'))
      root.get('/', says('anyone'))
      root.get('/open', says('open'))
    }, { constraints: { tenant: tenantStrategy(true) } })
    expect([
      await ask(app, '/', { 'x-tenant': 'acme' }), await ask(app, '/', { 'x-tenant': 'other' }), await ask(app, '/'),
      await ask(app, '/open'), await ask(app, '/open', { 'x-tenant': 'acme' }),
    ]).to.deep.equal(['acme', 404, 'anyone', 'open', 404])
  })

  it('the versioning option (deprecated) routes by its deriveVersion into its own storage: any string is a version, and a derived version turns away unversioned routes', async () => {
    const app = await build((root) => {
      root.get('/', { constraints: { version: 'application/vnd.api+json;version=2' } }, says('v2'))
      root.get('/', { version: 'application/vnd.api+json;version=3' }, says('v3'))
      root.get('/open', says('open'))
    }, { versioning: { storage: mapStore, deriveVersion: (req) => req.headers.accept } })
    expect([
      await ask(app, '/', { accept: 'application/vnd.api+json;version=2' }), await ask(app, '/', { accept: 'application/vnd.api+json;version=3' }),
      await ask(app, '/', { accept: 'application/vnd.api+json;version=4' }), await ask(app, '/open'),
      await ask(app, '/open', { accept: 'application/json' }), await ask(app, '/', { 'accept-version': '2.x' }),
    ]).to.deep.equal(['v2', 'v3', 404, 'open', 404, 404])
  })

  it('the versioning option refuses a route whose version is not a string, quoting its validation', () => {
    const app = server({ versioning: { storage: mapStore, deriveVersion: (req) => req.headers.accept } })
    const error = thrown(() => app.route({ method: 'GET', url: '/', constraints: { version: 2 }, handler: says('x') } as unknown as RouteOptions))
    expect(error.code).to.equal('ENC_ERR_ROUTE_INVALID')
    expect(error.message).to.contain('Version constraint should be a string.')
  })

  it('the versioning option emits the FastifyDeprecation warning FSTDEP009 once per process', () => {
    // A child process: the warning is once per process, so this one may have emitted it already.
    const script = `
      const warnings = []
      process.on('warning', (w) => warnings.push(w.name + ':' + w.code))
      const { createServer } = require(${JSON.stringify(require.resolve('../../src'))})
      const versioning = { storage: () => new Map(), deriveVersion: (req) => req.headers.accept }
      createServer({ versioning })
      createServer({ versioning })
      setImmediate(() => process.stdout.write(JSON.stringify(warnings)))`
    const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 20_000 })
    expect(JSON.parse(child.stdout)).to.deep.equal(['FastifyDeprecation:FSTDEP009'])
  })

  it("a custom strategy's validate() refusing a route value fails the declaration with ENC_ERR_ROUTE_INVALID and its message", () => {
    const strict = { ...tenantStrategy(), validate: (value: unknown) => { if (value !== 'acme') throw new Error('unknown tenant') } }
    const app = server({ constraints: { tenant: strict } })
    const error = thrown(() => app.get('/', { constraints: { tenant: 'initech' } }, says('x')))
    expect(error.code).to.equal('ENC_ERR_ROUTE_INVALID')
    expect(error.message).to.contain("refused by the 'tenant' strategy's validate(): unknown tenant")
  })

  it('a constraint no strategy of the server names is refused, with a did-you-mean over the custom names', () => {
    const app = server({ constraints: { tenant: tenantStrategy() } })
    const error = thrown(() => app.get('/', { constraints: { tennant: 'acme' } }, says('x')))
    expect(error.code).to.equal('ENC_ERR_ROUTE_INVALID')
    expect(error.message).to.contain("unknown constraint 'tennant'").and.contain("did you mean 'tenant'")
  })

  it('two routes with the same method, path and custom constraint value are a duplicate; another value is not', async () => {
    const options = { constraints: { tenant: tenantStrategy() } }
    await build((root) => { root.get('/', { constraints: { tenant: 'a' } }, says('a')); root.get('/', { constraints: { tenant: 'b' } }, says('b')) }, options)
    const app = server(options)
    app.get('/', { constraints: { tenant: 'a' } }, says('a'))
    app.get('/', { constraints: { tenant: 'a' } }, says('again'))
    expect((await bootError(app)).code).to.equal('ENC_ERR_ROUTE_DUPLICATE')
  })

  it('a deriveConstraint that throws answers that request 500 and the server keeps serving', async () => {
    const fragile = { ...tenantStrategy(), deriveConstraint: (req: { headers: Record<string, unknown> }) => { if (req.headers['x-boom'] !== undefined) throw new Error('boom'); return req.headers['x-tenant'] } }
    const app = await build((root) => { root.get('/', { constraints: { tenant: 'acme' } }, says('acme')) }, { constraints: { tenant: fragile } })
    const failed = await app.inject({ url: '/', headers: { 'x-boom': '1' } })
    expect(failed.statusCode).to.equal(500)
    expect(failed.json()).to.include({ statusCode: 500, error: 'Internal Server Error' })
    expect(await ask(app, '/', { 'x-tenant': 'acme' })).to.equal('acme')
  })

  it('hasRoute() and findRoute() know routes with a custom constraint', async () => {
    const app = server({ constraints: { tenant: tenantStrategy() } })
    app.get('/t', { constraints: { tenant: 'acme' } }, says('acme'))
    expect(app.hasRoute({ method: 'GET', url: '/t', constraints: { tenant: 'acme' } })).to.equal(true)
    expect(app.hasRoute({ method: 'GET', url: '/t', constraints: { tenant: 'other' } })).to.equal(false)
    expect(app.findRoute({ method: 'GET', url: '/t', constraints: { tenant: 'acme' } })).to.not.equal(null)
    await app.ready()
  })

  describe('a bad strategy is refused by createServer() with ENC_ERR_SERVER_INVALID_OPTION naming the option and the fix', () => {
    const strategy = tenantStrategy()
    const cases: Array<[string, unknown, string]> = [
      ['not an object', { constraints: [] }, 'createServer({ constraints }): must be an object of strategies by name'],
      ['a strategy that is not an object', { constraints: { tenant: 'x-tenant' } }, 'createServer({ constraints: { tenant } }): must be a strategy object'],
      ['a name other than its key', { constraints: { tenant: { ...strategy, name: 'org' } } }, "the strategy's name must be its key 'tenant'"],
      ['no storage', { constraints: { tenant: { ...strategy, storage: undefined } } }, 'storage must be a function returning a store'],
      ['no deriveConstraint', { constraints: { tenant: { ...strategy, deriveConstraint: 'x-tenant' } } }, 'deriveConstraint must be a function (req, ctx)'],
      ['an async deriveConstraint', { constraints: { tenant: { ...strategy, deriveConstraint: async () => 'a' } } }, 'deriveConstraint must be synchronous'],
      ['no validate (Fastify 3 requires one)', { constraints: { tenant: { ...strategy, validate: undefined } } }, 'validate must be a function'],
      ['a non-boolean mustMatchWhenDerived', { constraints: { tenant: { ...strategy, mustMatchWhenDerived: 'yes' } } }, 'mustMatchWhenDerived must be true or false'],
      ['versioning without deriveVersion', { versioning: { storage: mapStore } }, 'createServer({ versioning }): deriveVersion must be a function'],
      ['versioning that is not an object', { versioning: true }, 'createServer({ versioning }): must be an object { storage, deriveVersion }'],
      ['versioning and constraints.version together', { versioning: { storage: mapStore, deriveVersion: () => undefined }, constraints: { version: { ...strategy, name: 'version' } } }, 'keep one'],
    ]
    for (const [what, options, message] of cases) {
      it(what, () => {
        const error = thrown(() => server(options as ServerOptions))
        expect(error.code).to.equal('ENC_ERR_SERVER_INVALID_OPTION')
        expect(error.message).to.contain(message)
      })
    }
  })
})
