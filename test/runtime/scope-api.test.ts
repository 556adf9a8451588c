import { expect } from 'chai'
import request from 'supertest'
import { Server } from 'node:http'
import { lift, type Scope } from '../../src/runtime'
import { build, server } from './helpers'

// What these tests decorate on a scope: Scope has no catch-all (an undeclared name does not compile).
declare module '../../src/runtime' {
  interface ScopeDecorations { a?: unknown }
}

const operations = [
  // spec §4.2
  'addSchema', 'getSchemas', 'getSchema', 'setValidatorCompiler', 'setSerializerCompiler', 'setSchemaErrorFormatter',
  'setErrorHandler', 'decorateRequest', 'register', 'route', 'listen',
  // issue 2
  'get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'all', 'addHook', 'decorate', 'decorateReply',
  'hasDecorator', 'hasRequestDecorator', 'hasReplyDecorator', 'setNotFoundHandler', 'addContentTypeParser',
  'ready', 'close', 'inject',
]

describe('runtime: the scope API', () => {
  it('§4.2 every scope (root, child, grandchild, lifted) has every operation and the node http.Server', async () => {
    const seen: Record<string, Scope> = {}
    const app = await build((root) => {
      seen.root = root
      root.register(async (child) => {
        seen.child = child
        child.register(async (grandchild) => { seen.grandchild = grandchild })
      })
      root.register(lift(async (lifted) => { seen.lifted = lifted }))
    })
    expect(Object.keys(seen)).to.have.members(['root', 'child', 'grandchild', 'lifted'])
    for (const [where, scope] of Object.entries(seen)) {
      for (const name of operations) expect((scope as unknown as Record<string, unknown>)[name], `${where}.${name}`).to.be.a('function')
      expect(scope.server, `${where}.server`).to.be.instanceOf(Server)
      expect(scope.server).to.equal(app.server)
    }
    expect(seen.lifted).to.equal(seen.root)
  })

  it('createServer returns the root scope: no parent, an empty prefix, a path naming it', () => {
    const app = server({ name: 'api' })
    expect(app.parent).to.equal(null)
    expect(app.prefix).to.equal('')
    expect(app.path).to.equal('api')
    expect(server().path).to.equal('root')
  })

  it('a child scope path names its plugins from the root', async () => {
    let path = ''
    await build((root) => {
      root.register(async function users(users) {
        users.register(async function admin(admin) { path = admin.path })
      })
    })
    expect(path).to.equal('root > users > admin')
  })

  it('scope operations chain (each declaration returns the scope)', async () => {
    const app = await build((root) => {
      const same = root.decorate('a', 1).decorateRequest('b' as string, 2).decorateReply('c' as string, 3)
        .addHook('onRequest', async () => undefined).get('/x', async () => ({ ok: true }))
      expect(same).to.equal(root)
    })
    await request(app.server).get('/x').expect(200, { ok: true })
  })

  it('`server` works with supertest before listen() was called', async () => {
    const app = await build((root) => { root.get('/hello', async () => ({ hello: 'world' })) })
    expect(app.server.listening).to.equal(false)
    await request(app.server).get('/hello').expect('content-type', 'application/json; charset=utf-8').expect(200, { hello: 'world' })
  })

  it('inject runs the whole pipeline without a socket: method, url, headers, payload, query', async () => {
    const app = server()
    app.addHook('onRequest', async (req, reply) => { reply.header('x-hooked', String(req.headers['x-in'])) })
    app.post('/echo/:id', async (req) => ({ id: req.params.id, body: req.body, q: req.query.q }))
    // inject boots the server itself
    const res = await app.inject({ method: 'POST', url: '/echo/7?q=1', headers: { 'x-in': 'yes' }, payload: { a: 1 } })
    expect(res.statusCode).to.equal(200)
    expect(res.headers['x-hooked']).to.equal('yes')
    expect(res.json()).to.deep.equal({ id: '7', body: { a: 1 }, q: '1' })
    expect(app.server.listening).to.equal(false)
  })

  it('inject takes a plain URL string for a GET', async () => {
    const app = await build((root) => { root.get('/ping', async () => 'pong') })
    const res = await app.inject('/ping')
    expect(res.statusCode).to.equal(200)
    expect(res.body).to.equal('pong')
  })

  it('ready() resolves to the scope and boots only once', async () => {
    let loads = 0
    const app = server()
    app.register(async () => { loads++ })
    const [a, b] = await Promise.all([app.ready(), app.ready()])
    expect(a).to.equal(app)
    expect(b).to.equal(app)
    await app.ready()
    expect(loads).to.equal(1)
  })
})
