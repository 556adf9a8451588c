import 'reflect-metadata'
import { expect } from 'chai'
import helmet from '@fastify/helmet'
import request from 'supertest'
import { createServer, lift, type Scope } from '../../src/runtime'
import { openapiRoute } from '../../src/plugins'
import { buildNotesApp } from './notes-app'

describe('openapiRoute(): serves the document and Swagger UI (opt-in)', () => {
  let app: Scope
  before(async () => { app = await buildNotesApp({ lift: (m) => lift(m as never) }) })
  after(async () => { await app.close() })

  it('serves app.openapi(info) as JSON at its path, without listing its own routes', async () => {
    const response = await request(app.server).get('/openapi.json').expect(200).expect('content-type', /application\/json/)
    expect(response.body).to.deep.equal(JSON.parse(JSON.stringify(app.openapi({ title: 'Notes', version: '2.0.0' }))))
    expect(Object.keys(response.body.paths)).to.not.include.members(['/openapi.json', '/docs', '/docs/', '/docs/{file}'])
  })

  it('serves a Swagger UI page that loads the document, and the swagger-ui-dist files it needs', async () => {
    const page = await request(app.server).get('/docs').expect(200).expect('content-type', /text\/html/)
    expect(page.text).to.include('<script src="/docs/swagger-initializer.js"></script>')
    const initializer = await request(app.server).get('/docs/swagger-initializer.js').expect(200).expect('content-type', /javascript/)
    expect(initializer.text).to.include('SwaggerUIBundle({ url: "/openapi.json"')
    const slashed = await request(app.server).get('/docs/').expect(200).expect('content-type', /text\/html/)
    expect(slashed.text).to.equal(page.text)
    const bundle = await request(app.server).get('/docs/swagger-ui-bundle.js').expect(200).expect('content-type', /javascript/)
    expect(bundle.text.length).to.be.greaterThan(100_000)
    await request(app.server).get('/docs/swagger-ui.css').expect(200).expect('content-type', /text\/css/)
  })

  it('serves nothing else of the package directory', async () => {
    const response = await request(app.server).get('/docs/package.json').expect(404)
    expect(response.body).to.deep.equal({ statusCode: 404, error: 'Not Found', message: 'Route GET:/docs/package.json not found' })
    await request(app.server).get('/docs/..%2Fpackage.json').expect(404)
  })

  it('follows the prefix it is registered with', async () => {
    const server = createServer()
    server.register(openapiRoute({ path: '/spec.json', ui: '/ui' }), { prefix: '/api' })
    server.get('/x', async () => ({}))
    await server.ready()
    const spec = await request(server.server).get('/api/spec.json').expect(200)
    expect(Object.keys(spec.body.paths)).to.deep.equal(['/x'])
    expect((await request(server.server).get('/api/ui').expect(200)).text).to.include('<script src="/api/ui/swagger-initializer.js">')
    expect((await request(server.server).get('/api/ui/swagger-initializer.js').expect(200)).text).to.include('url: "/api/spec.json"')
    await server.close()
  })

  it('escapes the prefix and ui it embeds in the page (configuration cannot inject markup)', async () => {
    const server = createServer()
    server.register(openapiRoute({ ui: '/d"><img src=x onerror=alert(1)>' }), { prefix: "/a'b&c" })
    await server.ready()
    const page = await server.inject({ url: `/a'b&c/d"><img src=x onerror=alert(1)>` })
    expect(page.statusCode).to.equal(200)
    expect(page.body).to.not.include('<img')
    expect(page.body).to.include('href="/a&#39;b&amp;c/d&quot;&gt;&lt;img src=x onerror=alert(1)&gt;/swagger-ui.css"')
    const initializer = await server.inject({ url: `/a'b&c/d"><img src=x onerror=alert(1)>/swagger-initializer.js` })
    expect(initializer.body).to.include(`url: "/a'b&c/openapi.json"`)
    await server.close()
  })

  it("runs no inline script, so the page loads under @fastify/helmet's default CSP (script-src 'self')", async () => {
    const server = createServer()
    await server.register(helmet)
    server.register(openapiRoute({ ui: '/docs' }))
    await server.ready()
    const page = await request(server.server).get('/docs').expect(200)
    expect(page.headers['content-security-policy']).to.match(/script-src 'self'[;]/)
    const scripts = [...page.text.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)]
    expect(scripts).to.have.length(3)
    for (const [, attributes, body] of scripts) {
      expect(body, 'inline script content').to.equal('')
      const src = /src="([^"]+)"/.exec(attributes)?.[1]
      expect(src, 'each script is a same-origin file').to.match(/^\/docs\//)
      await request(server.server).get(src!).expect(200).expect('content-type', /javascript/)
    }
    expect(page.text).to.not.match(/ on[a-z]+=/)    // no inline event handlers either (script-src-attr 'none')
    await server.close()
  })

  it('refuses ui when swagger-ui-dist is not installed, saying how to fix it (coded)', () => {
    // The app's node_modules without the package: resolution of that one name fails, as it would.
    const loader = require('node:module') as { _resolveFilename: (request: string, ...rest: unknown[]) => string }
    const resolve = loader._resolveFilename
    loader._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]) {
      if (request === 'swagger-ui-dist' || request.startsWith('swagger-ui-dist/')) throw Object.assign(new Error(`Cannot find module '${request}'`), { code: 'MODULE_NOT_FOUND' })
      return resolve.call(this, request, ...rest)
    }
    try {
      expect(() => openapiRoute({ ui: '/docs' })).to.throw(/npm install swagger-ui-dist/).with.property('code', 'ENC_ERR_OPENAPI_UI_MISSING')
      expect(() => openapiRoute({})).to.not.throw()
    } finally {
      loader._resolveFilename = resolve
    }
  })

  it('refuses a path that does not start with / (coded)', () => {
    expect(() => openapiRoute({ path: 'openapi.json' })).to.throw().with.property('code', 'ENC_ERR_OPENAPI_INVALID_OPTIONS')
  })
})
