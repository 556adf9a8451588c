// request.params where no route matched. The spec is silent; issue 12: as Fastify 3.27.4, which
// serves unknown URLs from two routes per not-found handler, `<prefix>` and `<prefix>/*`. Every
// expectation below is what Fastify 3.27.4 answered to the same app and request (session 16).
import { expect } from 'chai'
import type { Reply, Request, Scope } from '../../src'
import { build, rawRequest } from '../runtime/helpers'

type Seen = Array<[string, unknown]>

/** An app whose not-found handlers answer with what they and the hooks before them read. */
async function app(): Promise<{ app: Scope; seen: Seen }> {
  const seen: Seen = []
  const record = (where: string) => async (request: Request) => { seen.push([where, request.params]) }
  const answer = (name: string) => async (request: Request, reply: Reply) => {
    seen.push([name, request.params])
    return reply.code(404).send({ [name]: request.params, proto: Object.getPrototypeOf(request.params) === Object.prototype })
  }
  const server = await build((root) => {
    root.addHook('onRequest', record('onRequest'))
    root.addHook('preHandler', record('preHandler'))
    root.get('/known', async () => 'known')
    root.setNotFoundHandler(answer('root'))
    root.register(async (api: Scope) => {
      api.get('/x', async () => 'x')
      api.setNotFoundHandler({ preHandler: record('nf preHandler') }, answer('api'))
      api.register(async (deep: Scope) => { deep.setNotFoundHandler(answer('deep')) }, { prefix: '/deep' })
    }, { prefix: '/api' })
    root.register(async (slashed: Scope) => { slashed.setNotFoundHandler(answer('slashed')) }, { prefix: '/s/' })
  })
  return { app: server, seen }
}

async function body(server: Scope, url: string, method = 'GET'): Promise<Record<string, unknown>> {
  const res = await server.inject({ method: method as 'GET', url })
  expect(res.statusCode, `${method} ${url}`).to.equal(404)
  return JSON.parse(res.body) as Record<string, unknown>
}

describe("not-found params: Fastify 3's { '*': rest of the path } (issue 12)", () => {
  it("a root not-found handler reads the path without its leading slash as params['*'], a plain object, and {} for /", async () => {
    const { app: server } = await app()
    expect(await body(server, '/no/such/page')).to.deep.equal({ root: { '*': 'no/such/page' }, proto: true })
    expect(await body(server, '/')).to.deep.equal({ root: {}, proto: true })
    expect(await body(server, '/x/')).to.deep.equal({ root: { '*': 'x/' }, proto: true })
    expect(await body(server, '//x')).to.deep.equal({ root: { '*': '/x' }, proto: true })
  })

  it("params['*'] leaves out the query and a fragment, and is percent-decoded as a declared /* route's is", async () => {
    const { app: server } = await app()
    expect((await body(server, '/page?x=1&y=2')).root).to.deep.equal({ '*': 'page' })
    expect((await body(server, '/page#frag')).root).to.deep.equal({ '*': 'page' })
    expect((await body(server, '/a%2Fb%20c%3Fd?q=1')).root).to.deep.equal({ '*': 'a/b c?d' })
    expect((await body(server, '/%C3%A9t%C3%A9')).root).to.deep.equal({ '*': 'été' })
    expect((await body(server, '/a%2525')).root).to.deep.equal({ '*': 'a%25' })
  })

  it("a prefixed scope's not-found handler reads the rest after its prefix: {} on the prefix, '' on the prefix and a slash", async () => {
    const { app: server } = await app()
    expect((await body(server, '/api/no/such')).api).to.deep.equal({ '*': 'no/such' })
    expect((await body(server, '/api')).api).to.deep.equal({})
    expect((await body(server, '/api/')).api).to.deep.equal({ '*': '' })
    expect((await body(server, '/api/deep/z')).deep).to.deep.equal({ '*': 'z' })
    expect((await body(server, '/api/deep')).deep).to.deep.equal({})
    // Not under the prefix: the root's handler, with the whole path.
    expect((await body(server, '/apix')).root).to.deep.equal({ '*': 'apix' })
  })

  it("a prefix registered with a trailing slash ('/s/') has {} on '/s/', its rest below, and leaves '/s' to the root", async () => {
    const { app: server } = await app()
    expect((await body(server, '/s/')).slashed).to.deep.equal({})
    expect((await body(server, '/s/q/r')).slashed).to.deep.equal({ '*': 'q/r' })
    expect((await body(server, '/s')).root).to.deep.equal({ '*': 's' })
  })

  it("the onRequest and preHandler hooks on the not-found path, the handler's own preHandler included, read the same params", async () => {
    const { app: server, seen } = await app()
    await body(server, '/api/no/such')
    const star = { '*': 'no/such' }
    expect(seen).to.deep.equal([['onRequest', star], ['preHandler', star], ['nf preHandler', star], ['api', star]])
  })

  it('a HEAD and a method no route has (PROPFIND) to an unknown path get the same params', async () => {
    const { app: server, seen } = await app()
    const head = await server.inject({ method: 'HEAD', url: '/api/gone' })
    expect(head.statusCode).to.equal(404)
    expect(seen.at(-1)).to.deep.equal(['api', { '*': 'gone' }])
    expect((await body(server, '/api/gone', 'PROPFIND')).api).to.deep.equal({ '*': 'gone' })
  })

  it("hooks before a 405 read the params Fastify 3's not-found route gives there (it answers the wrong method from its not-found handler)", async () => {
    const { app: server, seen } = await app()
    const res = await server.inject({ method: 'DELETE', url: '/api/x' })
    expect(res.statusCode).to.equal(405)
    expect(seen).to.deep.equal([['onRequest', { '*': 'x' }], ['preHandler', { '*': 'x' }]])
  })

  it("an absolute-form target (GET http://host/api/z) is attributed by its path: the prefix's handler, with params['*']", async () => {
    const { app: server } = await app()
    const address = await server.listen({ port: 0, host: '127.0.0.1' })
    const res = await rawRequest(address, 'GET http://example.com/api/z?q=1 HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n')
    expect(res.status).to.equal(404)
    expect(JSON.parse(res.body)).to.deep.equal({ api: { '*': 'z' }, proto: true })
    await server.close()
  })

  it('a target that is not a path (GET *admin) and an undecodable URL keep {}: no not-found route of Fastify 3 matches them', async () => {
    const { app: server, seen } = await app()
    const address = await server.listen({ port: 0, host: '127.0.0.1' })
    const res = await rawRequest(address, 'GET *admin HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n')
    expect(res.status).to.equal(404)
    expect(JSON.parse(res.body)).to.deep.equal({ root: {}, proto: true })
    seen.length = 0
    expect((await server.inject('/%E9')).statusCode).to.equal(400)
    expect(seen).to.deep.equal([['onRequest', {}], ['preHandler', {}]])
    await server.close()
  })

  it("reply.callNotFound() keeps the calling route's params, not the not-found route's", async () => {
    const server = await build((root) => {
      root.get('/item/:id', async (_request: Request, reply: Reply) => reply.callNotFound())
      root.setNotFoundHandler(async (request: Request, reply: Reply) => reply.code(404).send(request.params))
    })
    expect(JSON.parse((await server.inject('/item/7')).body)).to.deep.equal({ id: '7' })
  })
})
