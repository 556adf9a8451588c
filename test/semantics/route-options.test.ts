// Issue 12 §2 "Declarations, parsers and routing": the route options Fastify 3.27.4 offers for
// HEAD and prefixes (exposeHeadRoute, prefixTrailingSlash), find-my-way's constraints
// (constraints, version), and what onRoute hooks see and may change.
import { Readable } from 'node:stream'
import { expect } from 'chai'
import type { Reply, Request, RouteOptions, Scope } from '../../src'
import { bootError, build, recordingLogger, server, thrown } from '../runtime/helpers'

const hello = async (): Promise<{ hello: string }> => ({ hello: 'world' })

describe('semantics: route options for HEAD and prefixes (issue 12 §2)', () => {
  describe('exposeHeadRoute', () => {
    it('a route with exposeHeadRoute: true answers HEAD when the server option exposeHeadRoutes is false', async () => {
      const app = await build((root) => {
        root.get('/one', { exposeHeadRoute: true }, hello)
        root.get('/two', hello)
      }, { exposeHeadRoutes: false })
      const one = await app.inject({ method: 'HEAD', url: '/one' })
      expect(one.statusCode).to.equal(200)
      expect(one.headers['content-length']).to.equal(String(JSON.stringify({ hello: 'world' }).length))
      expect(one.body).to.equal('')
      expect((await app.inject({ method: 'HEAD', url: '/two' })).statusCode).to.equal(405)
    })

    it('a route with exposeHeadRoute: false does not answer HEAD although the server exposes HEAD routes', async () => {
      const app = await build((root) => { root.get('/no-head', { exposeHeadRoute: false }, hello) })
      const res = await app.inject({ method: 'HEAD', url: '/no-head' })
      expect(res.statusCode).to.equal(405)
      expect(res.headers.allow).to.equal('GET')
    })

    it('an exposeHeadRoute that is not a boolean is refused with ENC_ERR_ROUTE_INVALID', () => {
      const error = thrown(() => server().get('/x', { exposeHeadRoute: 'yes' as never }, hello))
      expect(error.code).to.equal('ENC_ERR_ROUTE_INVALID')
      expect(error.message).to.contain('exposeHeadRoute option must be true or false')
    })
  })

  describe('prefixTrailingSlash', () => {
    const routes = (option?: RouteOptions['prefixTrailingSlash']) => async (root: Scope): Promise<void> => {
      root.register(async (child: Scope) => { child.route({ method: 'GET', url: '/', prefixTrailingSlash: option, handler: hello }) }, { prefix: '/prefix' })
    }
    const status = async (app: Scope, url: string): Promise<number> => (await app.inject(url)).statusCode

    it("'both' (the default) serves a prefixed route '/' at /prefix and /prefix/", async () => {
      for (const option of [undefined, 'both'] as const) {
        const app = await build(routes(option))
        expect([await status(app, '/prefix'), await status(app, '/prefix/')]).to.deep.equal([200, 200])
      }
    })

    it("'slash' serves it at /prefix/ only, 'no-slash' at /prefix only", async () => {
      const slash = await build(routes('slash'))
      expect([await status(slash, '/prefix'), await status(slash, '/prefix/')]).to.deep.equal([404, 200])
      const noSlash = await build(routes('no-slash'))
      expect([await status(noSlash, '/prefix'), await status(noSlash, '/prefix/')]).to.deep.equal([200, 404])
    })

    it("'both' with ignoreTrailingSlash registers one route that answers both", async () => {
      const app = await build(routes('both'), { ignoreTrailingSlash: true })
      expect([await status(app, '/prefix'), await status(app, '/prefix/')]).to.deep.equal([200, 200])
    })

    it('the implicit HEAD route follows the same urls', async () => {
      const app = await build(routes('no-slash'))
      expect((await app.inject({ method: 'HEAD', url: '/prefix' })).statusCode).to.equal(200)
      expect((await app.inject({ method: 'HEAD', url: '/prefix/' })).statusCode).to.equal(404)
    })

    it('an unknown value is refused with ENC_ERR_ROUTE_INVALID and a "did you mean"', () => {
      const error = thrown(() => server().route({ method: 'GET', url: '/', prefixTrailingSlash: 'no_slash' as never, handler: hello }))
      expect(error.code).to.equal('ENC_ERR_ROUTE_INVALID')
      expect(error.message).to.contain("did you mean 'no-slash'")
    })
  })

  describe('a registration prefix written with its trailing slash (Fastify 3)', () => {
    it("serves a route '/' at /prefix/ only, and other routes under /prefix/", async () => {
      const app = await build((root) => {
        root.register(async (child: Scope) => {
          child.get('/', hello)
          child.get('/x', hello)
        }, { prefix: '/prefix/' })
      })
      expect((await app.inject('/prefix/')).statusCode).to.equal(200)
      expect((await app.inject('/prefix')).statusCode).to.equal(404)
      expect((await app.inject('/prefix/x')).statusCode).to.equal(200)
    })

    it('is inherited by a child registered without a prefix of its own', async () => {
      const app = await build((root) => {
        root.register(async (child: Scope) => {
          child.register(async (grandchild: Scope) => { grandchild.get('/', hello) })
        }, { prefix: '/v1/' })
      })
      expect((await app.inject('/v1/')).statusCode).to.equal(200)
      expect((await app.inject('/v1')).statusCode).to.equal(404)
    })
  })

  describe('onRoute hooks', () => {
    it("are called once for a route served at two urls, with routePath '' and the prefix", async () => {
      const seen: unknown[] = []
      await build((root) => {
        root.addHook('onRoute', (route: RouteOptions) => { seen.push({ url: route.url, routePath: (route as RouteOptions & { routePath: string }).routePath, prefix: route.prefix }) })
        root.register(async (child: Scope) => { child.get('/', hello) }, { prefix: '/prefix' })
      })
      expect(seen).to.deep.equal([{ url: '/prefix', routePath: '', prefix: '/prefix' }])
    })

    it('a url an onRoute hook moves is served there, while context.config.url, routerPath and routeOptions.url (Fastify 5\'s getter) keep the url as declared, and a prefixed \'/\' keeps its /prefix/ twin, as in Fastify 3.27.4 (and 5)', async () => {
      const app = await build((root) => {
        root.addHook('onRoute', (route: RouteOptions) => { const url = String(route.url); if (!url.endsWith('/')) route.url = `${url}-m` })
        root.register(async (child: Scope) => {
          const echo = async (request: Request, reply: Reply): Promise<unknown> => ({ url: request.url, routerPath: request.routerPath, config: reply.context.config.url, options: request.routeOptions.url })
          child.get('/x', echo)
          child.get('/', echo)
        }, { prefix: '/a' })
      })
      const answers: Record<string, unknown> = {}
      for (const url of ['/a/x', '/a/x-m', '/a', '/a-m', '/a/']) {
        const res = await app.inject({ url })
        answers[url] = res.statusCode === 200 ? res.json() : res.statusCode
      }
      // Fastify 3.27.4's answers for the same app (lib/route.js runs the hooks for the '/a' half
      // only and names each half by its url before the hooks ran).
      expect(answers).to.deep.equal({
        '/a/x': 404,
        '/a/x-m': { url: '/a/x-m', routerPath: '/a/x', config: '/a/x', options: '/a/x' },
        '/a': 404,
        '/a-m': { url: '/a-m', routerPath: '/a', config: '/a', options: '/a' },
        '/a/': { url: '/a/', routerPath: '/a/', config: '/a/', options: '/a/' },
      })
    })

    // Found by the differential (plugin-api 36:178): the HEAD copy named the moved url.
    it('the HEAD route of a GET route an onRoute hook moved names the url as declared too (routerPath, context.config.url): the HEAD is its GET without the body', async () => {
      const app = await build((root) => {
        root.addHook('onRoute', (route: RouteOptions) => { route.url = `${String(route.url)}-m` })
        root.get('/x', async (request: Request, reply: Reply) => ({ routerPath: request.routerPath, config: reply.context.config.url }))
      })
      const get = await app.inject({ url: '/x-m' })
      const head = await app.inject({ method: 'HEAD', url: '/x-m' })
      expect(get.json()).to.deep.equal({ routerPath: '/x', config: '/x' })
      expect(head.statusCode).to.equal(200)
      expect(head.headers['content-length']).to.equal(get.headers['content-length'])
    })

    it('see the HEAD route of a GET route too (method HEAD) when HEAD routes are asked for, as in Fastify 3; once by default', async () => {
      const declare = async (options: Record<string, unknown>, route: Record<string, unknown> = {}): Promise<string[]> => {
        const seen: string[] = []
        await build((root) => {
          root.addHook('onRoute', (r: RouteOptions) => { seen.push(`${String(r.method)} ${r.url}`) })
          root.get('/a', route, hello)
          root.route({ method: ['GET', 'POST'], url: '/b', handler: hello })
          root.register(async (child: Scope) => { child.get('/', hello) }, { prefix: '/p' })
        }, options)
        return seen
      }
      // Fastify 3.27.4's answers for the same app (its default exposeHeadRoutes is false).
      const twice = ['GET /a', 'HEAD /a', 'GET,POST /b', 'GET /p', 'HEAD /p', 'HEAD /p/']
      expect(await declare({ exposeHeadRoutes: true })).to.deep.equal(twice)
      expect(await declare({})).to.deep.equal(['GET /a', 'GET,POST /b', 'GET /p'])
      expect(await declare({}, { exposeHeadRoute: true })).to.deep.equal(['GET /a', 'HEAD /a', 'GET,POST /b', 'GET /p'])
      expect(await declare({ exposeHeadRoutes: true }, { exposeHeadRoute: false })).to.deep.equal(['GET /a', 'GET,POST /b', 'GET /p', 'HEAD /p', 'HEAD /p/'])
    })

    it('what an onRoute hook changes in the HEAD copy is not applied: the HEAD route stays the GET route\'s own', async () => {
      const app = await build((root) => {
        root.addHook('onRoute', (r: RouteOptions) => { if (r.method === 'HEAD') r.handler = async () => 'changed' })
        root.get('/a', async () => 'get')
      }, { exposeHeadRoutes: true })
      const res = await app.inject({ method: 'HEAD', url: '/a' })
      expect([res.statusCode, res.headers['content-length']]).to.deep.equal([200, '3'])
    })

    it("a route option 'prefix' (a plugin handing its own options on) is accepted and replaced by the registration prefix", async () => {
      const seen: unknown[] = []
      const app = await build((root) => {
        root.addHook('onRoute', (route: RouteOptions) => { seen.push(route.prefix) })
        root.register(async (child: Scope, opts: Record<string, unknown>) => { child.get('/foo', opts, hello) }, { prefix: '/v1' })
      })
      expect(seen).to.deep.equal(['/v1'])
      expect((await app.inject('/v1/foo')).statusCode).to.equal(200)
    })

    it('a url an onRoute hook percent-encodes (or one declared with non-ASCII characters) matches its encoded request path', async () => {
      const app = await build((root) => {
        root.register(async (child: Scope) => {
          child.addHook('onRoute', (route: RouteOptions) => { if (route.url === '/föö') route.url = encodeURI(route.url) })
          child.get('/föö', async () => 'here /föö')
          child.get('/bär', async () => 'here /bär')
        })
      })
      for (const path of ['/föö', '/bär']) {
        const res = await app.inject(encodeURI(path))
        expect([res.statusCode, res.body]).to.deep.equal([200, `here ${path}`])
      }
    })
  })

  describe('constraints (find-my-way version and host, Fastify 3)', () => {
    const v = (version: string) => async () => ({ version })

    it('a versioned route answers only requests whose Accept-Version satisfies it; no header: the unversioned route', async () => {
      const app = await build((root) => {
        root.get('/', { constraints: { version: '1.2.0' } }, v('1.2.0'))
        root.get('/', { version: '2.0.0' }, v('2.0.0'))
        root.get('/', v('none'))
      })
      const ask = async (version?: string) => {
        const res = await app.inject({ url: '/', headers: version === undefined ? {} : { 'accept-version': version } })
        return res.statusCode === 200 ? (res.json() as { version: string }).version : res.statusCode
      }
      expect([await ask('1.x'), await ask('2.x'), await ask(), await ask('3.x')]).to.deep.equal(['1.2.0', '2.0.0', 'none', 404])
      const head = await app.inject({ method: 'HEAD', url: '/', headers: { 'accept-version': '2.x' } })
      expect([head.statusCode, head.headers['content-length']]).to.deep.equal([200, String(JSON.stringify({ version: '2.0.0' }).length)])
    })

    it('an empty Accept-Version header is read as no header, as in Fastify 3.27.4: the unversioned route answers, a versioned-only path is 404', async () => {
      const app = await build((root) => {
        root.get('/', { version: '1.2.0' }, v('1.2.0'))
        root.get('/', v('none'))
        root.get('/only', { version: '1.2.0' }, v('1.2.0'))
      })
      const root = await app.inject({ url: '/', headers: { 'accept-version': '' } })
      expect([root.statusCode, root.json()]).to.deep.equal([200, { version: 'none' }])
      expect((await app.inject({ url: '/only', headers: { 'accept-version': '' } })).statusCode).to.equal(404)
    })

    it('a route constrained by host answers only that Host (a string or a RegExp)', async () => {
      const app = await build((root) => {
        root.get('/', { constraints: { host: 'api.example' } }, v('api'))
        root.get('/', { constraints: { host: /^admin\./ } }, v('admin'))
      })
      const host = async (name: string) => { const res = await app.inject({ url: '/', headers: { host: name } }); return res.statusCode === 200 ? res.json() : res.statusCode }
      expect([await host('api.example'), await host('admin.example'), await host('other.example')]).to.deep.equal([{ version: 'api' }, { version: 'admin' }, 404])
    })

    it('two routes with the same method, path and constraints are a duplicate; other constraints are not', async () => {
      const app = server()
      app.get('/', { version: '1.0.0' }, v('a'))
      app.get('/', { version: '1.0.0' }, v('b'))
      expect((await bootError(app)).code).to.equal('ENC_ERR_ROUTE_DUPLICATE')
    })

    it('an unknown constraint, or a value of the wrong type, is refused with ENC_ERR_ROUTE_INVALID', () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ constraints: { versoin: '1.0.0' } }, "did you mean 'version'"],
        [{ constraints: { version: 1 } }, 'constraints.version must be a string'],
        [{ constraints: { host: 1 } }, 'constraints.host must be a string or a RegExp'],
        [{ version: 2 }, 'the version option must be a string'],
        [{ constraints: 'v1' }, 'the constraints option must be an object'],
      ]
      for (const [option, message] of cases) {
        const error = thrown(() => server().route({ method: 'GET', url: '/', handler: hello, ...option } as RouteOptions))
        expect(error.code).to.equal('ENC_ERR_ROUTE_INVALID')
        expect(error.message).to.contain(message)
      }
    })
  })

  describe('declaration mistakes', () => {
    it('a shorthand given a handler in its options and as its last argument is refused (Fastify 3 refuses it too)', () => {
      const error = thrown(() => server().get('/', { handler: 'not a function' } as never, hello))
      expect(error.code).to.equal('ENC_ERR_ROUTE_INVALID')
      expect(error.message).to.contain('a handler is given both in the options and as the last argument')
    })

    it('a shorthand whose handler is the third argument and whose options are not an object is refused (Fastify 3 refuses it too)', () => {
      for (const options of ['', 1, [], undefined, null]) {
        const error = thrown(() => server().get('/', options as never, hello))
        expect(error.code).to.equal('ENC_ERR_ROUTE_INVALID')
        expect(error.message).to.contain('the options (second argument) must be an object when the handler is the third')
      }
    })
  })

  it("request.context and reply.context are one object holding the route's config (Fastify 3), the config routeOptions shows", async () => {
    const config = { role: 'admin' }
    const app = await build((root) => {
      const view = async (req: Request, reply: Reply) => ({
        same: req.context === reply.context, config: req.context.config,
        shared: req.context.config === req.routeConfig && req.routeOptions.config === req.routeConfig,
      })
      root.get('/', { config }, view)
      root.get('/none', view)
    })
    // As in Fastify 3 (lib/route.js), the config also names the route's url and method.
    expect((await app.inject('/')).json()).to.deep.equal({ same: true, config: { ...config, url: '/', method: 'GET' }, shared: true })
    expect((await app.inject('/none')).json()).to.deep.equal({ same: true, config: { url: '/none', method: 'GET' }, shared: true })
  })

  it('a stream a GET handler answers HEAD with is closed unread; an error it emits is logged and the reply stays 200', async () => {
    const logger = recordingLogger()
    const failing = new Readable({ read() {} })
    const app = await build((root) => {
      root.get('/stream', async () => {
        process.nextTick(() => failing.emit('error', new Error('source failed')))
        return failing
      })
    }, { logger })
    const res = await app.inject({ method: 'HEAD', url: '/stream' })
    expect([res.statusCode, res.headers['content-type'], res.body]).to.deep.equal([200, 'application/octet-stream', ''])
    await new Promise((resolve) => setImmediate(resolve))
    const entry = logger.entries.find((e) => e.msg === 'Error on Stream found for HEAD route')
    expect(entry?.level).to.equal('error')
    expect((entry?.obj.err as Error).message).to.equal('source failed')
  })
})
