// Request targets that are not a path (RFC 9112 §3.2): the asterisk form and absolute URLs. Fastify
// 3.27.4 routes only a path and `http(s)://host/path`; anything else is a 404. find-my-way 9 alone
// would take any first character for the root's '/', so `GET *admin` reached the route `/admin`.
// `OPTIONS *` reaches an OPTIONS `*` route, as in Fastify 3.
import { expect } from 'chai'
import type { Scope } from '../../src/runtime'
import { build, rawRequest } from './helpers'

async function serving(): Promise<{ app: Scope; address: string }> {
  const app = await build((root) => {
    root.get('/', async (req) => ({ root: req.url }))
    root.get('/admin', async () => ({ admin: true }))
  })
  return { app, address: await app.listen(0) }
}

const get = (target: string, method = 'GET'): string => `${method} ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`

describe('request targets that are not a path', () => {
  it('`*admin` and `*` do not reach `/admin` or `/`: 404', async () => {
    const { app, address } = await serving()
    for (const target of ['*admin', '*', '*?x=1', '**', '*/admin']) {
      const res = await rawRequest(address, get(target))
      expect(res.status, target).to.equal(404)
      expect(JSON.parse(res.body), target).to.deep.equal({ statusCode: 404, error: 'Not Found', message: `Route GET:${target} not found` })
    }
    await app.close()
  })

  it('`OPTIONS *` and `POST *` are a 404, not a 405 naming the root route\'s methods', async () => {
    const { app, address } = await serving()
    for (const method of ['OPTIONS', 'POST']) {
      const res = await rawRequest(address, get('*', method))
      expect(res.status, method).to.equal(404)
      expect(res.headers.allow, method).to.equal(undefined)
    }
    await app.close()
  })

  it('`OPTIONS *` reaches an OPTIONS catch-all route `*` (a CORS preflight route) with params { \'*\': \'*\' }, as in Fastify 3; not `/:id`, a prefixed catch-all or another method\'s', async () => {
    const app = await build((root) => {
      root.options('/:id', async () => ({ id: true }))
      root.get('*', async () => ({ get: true }))
      root.register(async (api) => { api.options('*', async () => ({ api: true })) }, { prefix: '/api' })
    })
    const address = await app.listen(0)
    for (const method of ['OPTIONS', 'GET']) expect((await rawRequest(address, get('*', method))).status, method).to.equal(404)
    await app.close()
    const cors = await build((root) => {
      root.addHook('onRequest', async (_request, reply) => { reply.header('x-hook', 'ran') })
      root.options('/:id', async () => ({ id: true }))
      root.options('*', async (request) => ({ url: request.url, params: request.params }))
    })
    const res = await rawRequest(await cors.listen(0), get('*', 'OPTIONS'))
    expect([res.status, JSON.parse(res.body), res.headers['x-hook']]).to.deep.equal([200, { url: '*', params: { '*': '*' } }, 'ran'])
    await cors.close()
  })

  it('`OPTIONS *` with only an OPTIONS `/*` route is a 404 (Fastify 3 matches the asterisk form to `*`, not `/*`)', async () => {
    const app = await build((root) => { root.options('/*', async () => ({ slashStar: true })) })
    const address = await app.listen(0)
    expect((await rawRequest(address, get('*', 'OPTIONS'))).status).to.equal(404)
    expect(JSON.parse((await rawRequest(address, get('/anything', 'OPTIONS'))).body)).to.deep.equal({ slashStar: true })
    await app.close()
  })

  it('an absolute URL with a lower-case http(s) scheme and a path is routed by its path, as in Fastify 3', async () => {
    const { app, address } = await serving()
    expect(JSON.parse((await rawRequest(address, get('http://x/admin'))).body)).to.deep.equal({ admin: true })
    expect((await rawRequest(address, get('https://x/'))).status).to.equal(200)
    await app.close()
  })

  it('an absolute URL Fastify 3 does not route (upper-case scheme, no path, another scheme) is a 404', async () => {
    const { app, address } = await serving()
    for (const target of ['HTTP://x/admin', 'http://x', 'http://x?q=1', 'ftp://x/admin']) {
      expect((await rawRequest(address, get(target))).status, target).to.equal(404)
    }
    await app.close()
  })
})
