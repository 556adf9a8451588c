// Request targets that are not a path (RFC 9112 §3.2): the asterisk form and absolute URLs. Fastify
// 3.27.4 routes only a path and `http(s)://host/path`; anything else is a 404. find-my-way 9 alone
// would take any first character for the root's '/', so `GET *admin` reached the route `/admin`.
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
