// A route that meets no onRoute hook and carries no plugin option is recorded without running the
// hooks' part of the declaration (the scope chain, the read-noting proxy, the HEAD copy; issue 16,
// session 27). These pin down that skipping it changes nothing a user sees: the methods, the
// params check, the implicit HEAD route. The neighbouring cases (a hook, or an option only a hook
// reads) take the full declaration; they sit in their own describe, so each name says which path ran.
import { expect } from 'chai'
import type { RouteOptions, Scope } from '../../src'
import { build, server, thrown } from './helpers'

const ok = async (): Promise<{ ok: boolean }> => ({ ok: true })

describe('runtime: a route declared where no onRoute hook runs and no plugin option is given', () => {
  it('serves every method it names, whatever their case, with no onRoute hook anywhere', async () => {
    const app = await build((root) => { root.route({ method: ['get', 'Post'] as never, url: '/m', handler: ok }) })
    expect((await app.inject({ method: 'GET', url: '/m' })).statusCode).to.equal(200)
    expect((await app.inject({ method: 'POST', url: '/m' })).statusCode).to.equal(200)
    expect((await app.inject({ method: 'PUT', url: '/m' })).statusCode).to.equal(405)
  })

  it('still refuses a params schema that requires a name the path lacks, given inline or by $ref', () => {
    const inline = thrown(() => server().get('/books/:bookId', { schema: { params: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } } }, ok))
    expect(inline.code).to.equal('ENC_ERR_ROUTE_INVALID')
    expect(inline.message).to.contain("requires 'id'")
    const app = server()
    app.addSchema({ $id: 'bookParams', type: 'object', properties: { id: { type: 'string' } }, required: ['id'] })
    const byRef = thrown(() => app.get('/books/:bookId', { schema: { params: { $ref: 'bookParams#' } } }, ok))
    expect(byRef.code).to.equal('ENC_ERR_ROUTE_INVALID')
    expect(byRef.message).to.contain("requires 'id'")
  })

  it('serves HEAD for a GET declared with exposeHeadRoutes and no onRoute hook anywhere', async () => {
    const app = await build((root) => { root.get('/h', ok) }, { exposeHeadRoutes: true })
    const head = await app.inject({ method: 'HEAD', url: '/h' })
    expect(head.statusCode).to.equal(200)
    expect(head.body).to.equal('')
    expect(head.headers['content-type']).to.match(/application\/json/)
  })
})

describe('runtime: a route declared with onRoute hooks or plugin options (the full declaration)', () => {
  it('still refuses an option that neither Enclave nor any onRoute hook reads (ENC_ERR_ROUTE_INVALID)', () => {
    const error = thrown(() => server().route({ method: 'GET', url: '/x', handler: ok, helmetz: false } as never))
    expect(error.code).to.equal('ENC_ERR_ROUTE_INVALID')
    expect(error.message).to.contain("unknown route option 'helmetz'")
  })

  it("runs a grandparent scope's onRoute hook for a route two plugins down", async () => {
    const seen: string[] = []
    const app = await build((root) => {
      root.addHook('onRoute', (route: RouteOptions) => {
        seen.push(String(route.url))
        route.url = `${String(route.url)}-renamed`
      })
      root.register(async (outer: Scope) => {
        outer.register(async (inner: Scope) => { inner.get('/deep', ok) }, { prefix: '/inner' })
      }, { prefix: '/outer' })
    })
    expect(seen).to.deep.equal(['/outer/inner/deep'])
    expect((await app.inject({ method: 'GET', url: '/outer/inner/deep-renamed' })).statusCode).to.equal(200)
    expect((await app.inject({ method: 'GET', url: '/outer/inner/deep' })).statusCode).to.equal(404)
  })

  it("lets a grandparent's onRoute hook read a plugin option that no hook of the route's own scope reads", async () => {
    const read: unknown[] = []
    await build((root) => {
      root.addHook('onRoute', (route: RouteOptions) => { read.push((route as RouteOptions & { audit?: string }).audit) })
      root.register(async (child: Scope) => { child.get('/a', { audit: 'yes' } as never, ok) })
    })
    expect(read).to.deep.equal(['yes'])
  })
})
