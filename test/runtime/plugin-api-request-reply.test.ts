// Issue 12 §3: the request and reply members real plugins use, with Fastify's names and
// semantics: server, routeOptions, reply.context.config, ip/ips/hostname/protocol with
// trustProxy, getHeaders, redirect, hijack, callNotFound, serialize; and Fastify's prefix rule
// for plugins wrapped by fastify-plugin.
import { expect } from 'chai'
import http from 'node:http'
import request from 'supertest'
import { fp } from '../support/scope-plugin'
import { createServer, type Scope } from '../../src/runtime'
import { build, thrown } from './helpers'

describe('plugin API: request and reply', () => {
  it('request.server and reply.server are the scope of the route being served', async () => {
    let scope: Scope | null = null
    const app = await build((root) => {
      root.register(async (child) => {
        scope = child
        child.get('/s', async (req, reply) => ({ request: req.server === child, reply: reply.server === child }))
      })
    })
    expect(scope).to.not.equal(null)
    await request(app.server).get('/s').expect(200, { request: true, reply: true })
  })

  it('request.routeOptions holds the full url, the method, config and schema; reply.context.config is Fastify 3\'s view', async () => {
    const schema = { querystring: { type: 'object', properties: { q: { type: 'string' } } } }
    const app = await build((root) => {
      root.register(async (child) => {
        child.get('/r/:id', { config: { role: 'admin' }, schema }, async (req, reply) => ({
          url: req.routeOptions.url, method: req.routeOptions.method, config: req.routeOptions.config,
          schema: req.routeOptions.schema === schema, bodyLimit: req.routeOptions.bodyLimit, context: reply.context.config, routerPath: req.routerPath,
        }))
      }, { prefix: '/v1' })
    })
    await request(app.server).get('/v1/r/7').expect(200, {
      url: '/v1/r/:id', method: 'GET', config: { role: 'admin', url: '/v1/r/:id', method: 'GET' }, schema: true, bodyLimit: 1048576,
      context: { role: 'admin', url: '/v1/r/:id', method: 'GET' }, routerPath: '/v1/r/:id',
    })
  })

  it('request.routeOptions is one frozen object per route and method, the same on every request (built on first read, not at boot)', async () => {
    const seen: unknown[] = []
    const app = await build((root) => {
      root.route({ method: ['GET', 'POST'], url: '/o', config: { a: 1 }, handler: async (req) => { seen.push(req.routeOptions); return { method: req.routeOptions.method } } })
    })
    await request(app.server).get('/o').expect(200, { method: 'GET' })
    await request(app.server).get('/o').expect(200, { method: 'GET' })
    await request(app.server).post('/o').expect(200, { method: 'POST' })
    expect(seen[0]).to.equal(seen[1])
    expect(seen[2]).to.not.equal(seen[0])
    expect(Object.isFrozen(seen[0])).to.equal(true)
    expect((seen[2] as { config: unknown }).config).to.equal((seen[0] as { config: unknown }).config)
  })

  it("request.routeOptions has Fastify 5's exposeHeadRoute, prefixTrailingSlash, handlerTimeout, logLevel and version (the request's Accept-Version once a route is versioned), as Fastify 5.x shows them on the same app", async () => {
    const fields = ['method', 'url', 'bodyLimit', 'attachValidation', 'logLevel', 'exposeHeadRoute', 'prefixTrailingSlash', 'handlerTimeout', 'version'] as const
    type Any = any // eslint-disable-line @typescript-eslint/no-explicit-any
    const shown = async (make: (options: Record<string, unknown>) => Any): Promise<Array<Record<string, unknown>>> => {
      const seen: Array<Record<string, unknown>> = []
      const app = make({ handlerTimeout: 5000, exposeHeadRoutes: true })
      const record = async (req: Any): Promise<object> => { seen.push(Object.fromEntries(fields.map((f) => [f, req.routeOptions[f]]))); return {} }
      app.get('/a', record)
      app.get('/v', { constraints: { version: '1.2.0' } }, record)
      app.register(async (c: Any) => { c.get('/', { exposeHeadRoute: false, prefixTrailingSlash: 'slash', logLevel: 'warn' }, record) }, { prefix: '/p' })
      await app.ready()
      await app.inject({ url: '/a' })
      // Once a route is versioned an unversioned one no longer matches a request naming a version (404 on both).
      await app.inject({ url: '/a', headers: { 'accept-version': '1.x' } })
      await app.inject({ url: '/v', headers: { 'accept-version': '1.x' } })
      await app.inject({ url: '/p/' })
      await app.close()
      return seen
    }
    const theirs = await shown((options) => require('fastify5')(options))
    const ours = await shown((options) => createServer(options as never))
    expect(ours).to.deep.equal(theirs)
    expect(ours.map((o) => [o.exposeHeadRoute, o.prefixTrailingSlash, o.handlerTimeout, o.version])).to.deep.equal([
      [true, 'both', 5000, undefined], [true, 'both', 5000, '1.x'], [false, 'slash', 5000, undefined],
    ])
  })

  it('request.routeOptions stays frozen with a version: a copy per read once a route is versioned, still read-only; reply.routeOptions shows the same', async () => {
    const seen: Array<Readonly<Record<string, unknown>>> = []
    const app = await build((root) => {
      root.get('/v', { constraints: { version: '2.0.0' } }, async (req, reply) => { seen.push(req.routeOptions, (reply as unknown as { routeOptions: Readonly<Record<string, unknown>> }).routeOptions); return {} })
    })
    await request(app.server).get('/v').set('accept-version', '2.x').expect(200)
    expect(seen[0].version).to.equal('2.x')
    // reply.routeOptions is the request's, as in Fastify 5 (lib/reply.js), version included.
    expect(seen[1].version).to.equal('2.x')
    expect(Object.isFrozen(seen[0])).to.equal(true)
    expect(() => { (seen[0] as Record<string, unknown>).exposeHeadRoute = false }).to.throw(TypeError)
  })

  it('request.routeOptions.config is an empty object on the not-found handler (plugins read it in onRequest hooks)', async () => {
    const app = await build((root) => {
      root.addHook('onRequest', async (req, reply) => { reply.header('x-config', JSON.stringify(req.routeOptions.config)) })
    })
    const res = await request(app.server).get('/missing').expect(404)
    expect(res.headers['x-config']).to.equal('{}')
  })

  it('without trustProxy, ip is the socket peer and X-Forwarded-* are ignored', async () => {
    const app = await build((root) => {
      root.get('/ip', async (req) => ({ ip: req.ip, ips: req.ips ?? null, hostname: req.hostname, protocol: req.protocol }))
    })
    const res = await request(app.server).get('/ip').set('x-forwarded-for', '203.0.113.9').set('x-forwarded-host', 'evil.example').set('x-forwarded-proto', 'https').expect(200)
    expect(res.body.ip).to.match(/127\.0\.0\.1$/)
    expect(res.body.ips).to.equal(null)
    expect(res.body.hostname).to.match(/^127\.0\.0\.1:\d+$/)
    expect(res.body.protocol).to.equal('http')
  })

  it('with trustProxy, ip/ips/hostname/protocol come from X-Forwarded-* of a trusted proxy', async () => {
    const app = await build((root) => {
      root.get('/ip', async (req) => ({ ip: req.ip, ips: req.ips, hostname: req.hostname, protocol: req.protocol }))
    }, { trustProxy: true })
    const res = await request(app.server).get('/ip').set('x-forwarded-for', '203.0.113.9, 198.51.100.2').set('x-forwarded-host', 'api.example').set('x-forwarded-proto', 'https').expect(200)
    expect(res.body.ip).to.equal('203.0.113.9')
    expect(res.body.ips.slice(1)).to.deep.equal(['198.51.100.2', '203.0.113.9'])
    expect(res.body.hostname).to.equal('api.example')
    expect(res.body.protocol).to.equal('https')
  })

  it('X-Forwarded-Host and -Proto count only from a trusted peer (Fastify 3.27.4 reads them from any peer), and a forwarded HTTPS is https', async () => {
    const untrusted = await build((root) => {
      root.get('/ip', async (req) => ({ hostname: req.hostname, protocol: req.protocol }))
    }, { trustProxy: '10.0.0.0/8' })
    await request(untrusted.server).get('/ip').set('host', 'good.example').set('x-forwarded-host', 'evil.example').set('x-forwarded-proto', 'https')
      .expect(200, { hostname: 'good.example', protocol: 'http' })
    const trusted = await build((root) => { root.get('/p', async (req) => ({ protocol: req.protocol })) }, { trustProxy: true })
    await request(trusted.server).get('/p').set('x-forwarded-proto', 'HTTPS').expect(200, { protocol: 'https' })
    await request(trusted.server).get('/p').set('x-forwarded-proto', 'gopher').expect(200, { protocol: 'http' })
  })

  it("request.host and request.port (Fastify 5's names) come from the same Host as hostname", async () => {
    const app = await build((root) => {
      root.get('/h', async (req) => ({ hostname: req.hostname, host: req.host, port: req.port }))
    })
    await request(app.server).get('/h').set('host', 'shop.example:8080').expect(200, { hostname: 'shop.example:8080', host: 'shop.example:8080', port: 8080 })
    await request(app.server).get('/h').set('host', 'shop.example').expect(200, { hostname: 'shop.example', host: 'shop.example', port: null })
    await request(app.server).get('/h').set('host', '[::1]:3000').expect(200, { hostname: '[::1]:3000', host: '[::1]:3000', port: 3000 })
  })

  it("reply.elapsedTime (Fastify 4+) and reply.getResponseTime() (Fastify 3) count from the request's arrival", async () => {
    const app = await build((root) => {
      root.get('/t', async (_req, reply) => {
        const before = reply.elapsedTime
        await new Promise((resolve) => setTimeout(resolve, 30))
        return { before, after: reply.elapsedTime, legacy: reply.getResponseTime() }
      })
    })
    const { before, after, legacy } = (await request(app.server).get('/t').expect(200)).body as { before: number; after: number; legacy: number }
    expect(before).to.be.at.least(0)
    expect(after - before).to.be.at.least(25)
    expect(legacy).to.be.at.least(after)
  })

  it('trustProxy as a hop count or an address list trusts only those hops', async () => {
    const app = await build((root) => { root.get('/ip', async (req) => ({ ip: req.ip })) }, { trustProxy: '127.0.0.1/8,::1,::ffff:127.0.0.1' })
    await request(app.server).get('/ip').set('x-forwarded-for', '10.0.0.1, 203.0.113.9').expect(200, { ip: '203.0.113.9' })
    // A hop count trusts that many hops from the server: the socket peer, then 203.0.113.9.
    const hops = await build((root) => { root.get('/ip', async (req) => ({ ip: req.ip })) }, { trustProxy: 2 })
    await request(hops.server).get('/ip').set('x-forwarded-for', '10.0.0.1, 203.0.113.9').expect(200, { ip: '10.0.0.1' })
  })

  it('reply.hasHeader and getHeaders read what was set, lower-cased', async () => {
    const app = await build((root) => {
      root.get('/h', async (_req, reply) => {
        reply.header('X-One', '1').header('x-two', '2')
        return { has: reply.hasHeader('x-one'), missing: reply.hasHeader('x-three'), all: reply.getHeaders() }
      })
    })
    await request(app.server).get('/h').expect(200, { has: true, missing: false, all: { 'x-one': '1', 'x-two': '2' } })
  })

  it('reply.redirect(url, code) and Fastify 3\'s redirect(code, url); 302 by default', async () => {
    const app = await build((root) => {
      root.get('/a', async (_req, reply) => reply.redirect('/target'))
      root.get('/b', async (_req, reply) => reply.redirect('/moved', 301))
      root.get('/c', async (_req, reply) => reply.redirect(307, '/temp'))
      root.get('/bad', async (_req, reply) => reply.redirect(undefined as unknown as string))
    })
    const a = await request(app.server).get('/a').redirects(0).expect(302)
    expect(a.headers.location).to.equal('/target')
    expect((await request(app.server).get('/b').redirects(0).expect(301)).headers.location).to.equal('/moved')
    expect((await request(app.server).get('/c').redirects(0).expect(307)).headers.location).to.equal('/temp')
    await request(app.server).get('/bad').expect(500)
  })

  it('reply.redirect without a string target throws ENC_ERR_REPLY_INVALID_REDIRECT (answered 500, logged)', async () => {
    let code: string | undefined
    const app = await build((root) => {
      root.setErrorHandler(async (error, _req, reply) => { code = error.code as string; reply.code(500).send({ code }) })
      root.get('/bad', async (_req, reply) => reply.redirect(42 as unknown as string))
    })
    await request(app.server).get('/bad').expect(500, { code: 'ENC_ERR_REPLY_INVALID_REDIRECT' })
    expect(code).to.equal('ENC_ERR_REPLY_INVALID_REDIRECT')
  })

  it('reply.hijack() hands the response over: the framework writes nothing, not even on an undefined return', async () => {
    const app = await build((root) => {
      root.get('/raw', async (_req, reply) => {
        reply.hijack()
        reply.raw.writeHead(200, { 'content-type': 'text/plain' })
        reply.raw.end('written by hand')
      })
    }, { handlerTimeout: 1000 })
    const res = await request(app.server).get('/raw').expect(200)
    expect(res.text).to.equal('written by hand')
    expect(res.headers['content-length']).to.equal(undefined)
  })

  it('reply.callNotFound() answers with the not-found handler covering the URL, keeping headers set so far', async () => {
    const app = await build((root) => {
      root.register(async (child) => {
        child.setNotFoundHandler(async (req, reply) => reply.code(404).send({ notFound: req.url }))
        child.get('/maybe/:id', async (req, reply) => {
          reply.header('x-kept', 'yes')
          if (req.params.id === 'none') return reply.callNotFound()
          return { id: req.params.id }
        })
      }, { prefix: '/api' })
    })
    await request(app.server).get('/api/maybe/1').expect(200, { id: '1' })
    const res = await request(app.server).get('/api/maybe/none').expect(404, { notFound: '/api/maybe/none' })
    expect(res.headers['x-kept']).to.equal('yes')
  })

  it('reply.serialize() uses the route\'s response schema for the current status', async () => {
    const app = await build((root) => {
      root.get('/ser', { schema: { response: { 200: { type: 'object', properties: { kept: { type: 'string' } } } } } },
        async (_req, reply) => reply.type('text/plain').send(reply.serialize({ kept: 'yes', dropped: 'no' })))
    })
    const res = await request(app.server).get('/ser').expect(200)
    expect(res.text).to.equal('{"kept":"yes"}')
  })
})

describe('plugin API: prefixes of plugins wrapped by fastify-plugin', () => {
  it('a fastify-plugin-wrapped plugin keeps `prefix` as its own option: the framework does not apply it', async () => {
    const seen: Record<string, unknown> = {}
    const app = await build((root) => {
      root.register(async (child) => {
        child.register(fp(async (scope: Scope, opts: { prefix?: string }) => {
          seen.optionPrefix = opts.prefix
          seen.scopePrefix = scope.prefix
          scope.get(`${opts.prefix ?? ''}/file`, async () => ({ served: true }))
        }), { prefix: '/assets' })
      }, { prefix: '/api' })
    })
    expect(seen).to.deep.equal({ optionPrefix: '/assets', scopePrefix: '/api' })
    await request(app.server).get('/api/assets/file').expect(200, { served: true })
  })

  it('an encapsulated plugin gets `prefix` applied by the framework (its own scope)', async () => {
    const app = await build((root) => {
      root.register(async (scope) => { scope.get('/file', async () => ({ served: true })) }, { prefix: '/assets' })
    })
    await request(app.server).get('/assets/file').expect(200, { served: true })
  })
})

describe('plugin API: trustProxy option', () => {
  it('refuses at createServer a trustProxy address list proxy-addr cannot read (ENC_ERR_SERVER_INVALID_TRUST_PROXY)', () => {
    const error = thrown(() => createServer({ trustProxy: 'not-an-address' }))
    expect(error.code).to.equal('ENC_ERR_SERVER_INVALID_TRUST_PROXY')
    expect(error.message).to.include("trustProxy: 'not-an-address'")
  })
})

describe('plugin API: setNotFoundHandler(options, handler)', () => {
  it('runs the options\' preValidation and preHandler hooks before the not-found handler, in its scope only', async () => {
    const ran: string[] = []
    const app = await build((root) => {
      root.register(async (api) => {
        api.setNotFoundHandler({
          preValidation: async (req) => { ran.push(`preValidation ${req.url}`) },
          preHandler: [async (_req, reply) => { reply.header('x-pre', 'handler') }],
        }, async (req, reply) => reply.code(404).send({ missing: req.url }))
      }, { prefix: '/api' })
    })
    const res = await request(app.server).get('/api/nope').expect(404, { missing: '/api/nope' })
    expect(res.headers['x-pre']).to.equal('handler')
    const outside = await request(app.server).get('/other').expect(404)
    expect(outside.headers['x-pre']).to.equal(undefined)
    expect(ran).to.deep.equal(['preValidation /api/nope'])
  })

  it('refuses a hook option that is not a function', () => {
    const app = createServer()
    const error = thrown(() => app.setNotFoundHandler({ preHandler: 'nope' as never }, async () => ({})))
    expect(error.code).to.equal('ENC_ERR_HOOK_INVALID_HANDLER')
  })
  it('reply.raw.statusCode follows reply.code() and an error status before the reply is written, as in Fastify', async () => {
    const seen: Array<{ raw: number, status: number }> = []
    const app = await build((root) => {
      root.addHook('onSend', async (_req, reply, payload) => { seen.push({ raw: reply.raw.statusCode, status: reply.statusCode }); return payload })
      root.get('/code', async (_req, reply) => reply.code(503).send({ down: true }))
      root.get('/thrown', async () => { throw Object.assign(new Error('gone'), { statusCode: 410 }) })
    })
    await request(app.server).get('/code').expect(503, { down: true })
    await request(app.server).get('/thrown').expect(410)
    expect(seen).to.deep.equal([{ raw: 503, status: 503 }, { raw: 410, status: 410 }])
  })
  it('reply.raw.statusCode follows an assigned reply.statusCode by the time onSend hooks run, as with Fastify\'s setter', async () => {
    const seen: number[] = []
    const app = await build((root) => {
      root.addHook('onSend', async (_req, reply, payload) => { seen.push(reply.raw.statusCode); return payload })
      root.get('/assigned', async (_req, reply) => { reply.statusCode = 503; return { down: true } })
    })
    await request(app.server).get('/assigned').expect(503, { down: true })
    expect(seen).to.deep.equal([503])
  })
  it('a status set on reply.raw alone is the one reply.send() sends while the reply\'s own was never chosen (Express middleware under @fastify/express); code() and an assigned statusCode still win', async () => {
    const app = await build((root) => {
      root.get('/raw', (_req, reply) => { reply.raw.statusCode = 201; reply.send({ made: true }) })
      root.get('/raw-then-code', (_req, reply) => { reply.raw.statusCode = 201; reply.code(202).send({ made: true }) })
      root.get('/code-then-raw', (_req, reply) => { reply.code(202); reply.raw.statusCode = 201; reply.send({ made: true }) })
      root.get('/assigned-then-raw', (_req, reply) => { reply.statusCode = 409; reply.raw.statusCode = 201; reply.send({ made: true }) })
      root.get('/raw-informational', (_req, reply) => { reply.raw.statusCode = 102; reply.send({ made: true }) })
    })
    await request(app.server).get('/raw').expect(201, { made: true })
    await request(app.server).get('/raw-then-code').expect(202)
    await request(app.server).get('/code-then-raw').expect(202)
    await request(app.server).get('/assigned-then-raw').expect(409)
    await request(app.server).get('/raw-informational').expect(200)   // not a final status: the reply's own stands
  })
  it("reply.writeEarlyHints() (Fastify 5's) writes a 103 Early Hints response before the final one", async () => {
    const app = await build((root) => {
      root.get('/page', async (_req, reply) => {
        await new Promise<void>((resolve) => reply.writeEarlyHints({ link: ['</a.css>; rel=preload; as=style', '</b.js>; rel=preload; as=script'] }, resolve))
        return 'page'
      })
    })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = app.server.address() as { port: number }
    const result = await new Promise<{ hints: Array<{ statusCode: number, link: unknown }>, status: number }>((resolve, reject) => {
      const hints: Array<{ statusCode: number, link: unknown }> = []
      const req = http.get({ host: '127.0.0.1', port, path: '/page' }, (res) => { res.resume(); res.on('end', () => resolve({ hints, status: res.statusCode! })) })
      req.on('information', (info) => hints.push({ statusCode: info.statusCode, link: info.headers.link }))
      req.on('error', reject)
    })
    expect(result.status).to.equal(200)
    expect(result.hints).to.deep.equal([{ statusCode: 103, link: '</a.css>; rel=preload; as=style, </b.js>; rel=preload; as=script' }])
  })
})
