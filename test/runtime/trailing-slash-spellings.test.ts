// Under ignoreTrailingSlash Fastify 3's router (find-my-way 4) registers each path under its
// other spelling too (`/a` for `/a/`, `/a/` for `/a`), so two routes sharing a spelling are a
// duplicate there: found by the differential tester (seed 27 case 234: a prefixed `/` route with
// prefixTrailingSlash 'slash' at `/x/api//` beside a `/` route of the same prefix at `/x/api/`).
import { expect } from 'chai'
import { bootError, server } from './helpers'

describe('runtime: routes that share a spelling under ignoreTrailingSlash', () => {
  for (const [first, second] of [['/a/', '/a//'], ['/a', '/a//'], ['/a//', '/a'], ['/', '//']]) {
    it(`${first} then ${second} is ENC_ERR_ROUTE_DUPLICATE naming the option, as Fastify 3 refuses it`, async () => {
      const app = server({ ignoreTrailingSlash: true })
      app.get(first, async () => 'first')
      app.register(async function later(s) { s.get(second, async () => 'second') })
      const error = await bootError(app)
      expect(error.code).to.equal('ENC_ERR_ROUTE_DUPLICATE')
      expect(error.message).to.contain(`GET ${second} is declared twice`).and.contain('ignoreTrailingSlash').and.contain('in root and in root > later')
    })
  }

  it('a prefixed `/` route with prefixTrailingSlash \'slash\' and a `/` route of a sibling with the same prefix are a duplicate', async () => {
    const app = server({ ignoreTrailingSlash: true })
    app.register(async (s) => { s.route({ method: 'DELETE', url: '/', prefixTrailingSlash: 'slash', handler: async () => 'a' }) }, { prefix: '/x/api/' })
    app.register(async (s) => { s.delete('/', async () => 'b') }, { prefix: '/x/api/' })
    expect((await bootError(app)).code).to.equal('ENC_ERR_ROUTE_DUPLICATE')
  })

  it('a static route ending in `//` also answers its other spelling (`/x//` at `/x/`), not `/x` or `/x///`, as in Fastify 3 (seed 41 case 229)', async () => {
    const app = server({ ignoreTrailingSlash: true })
    app.put('/x//', async () => 'x')
    app.register(async (s) => { s.route({ method: 'PUT', url: '/', prefixTrailingSlash: 'slash', handler: async () => 'slash' }) }, { prefix: '/api/api/' })
    await app.ready()
    const status = async (url: string): Promise<string> => { const r = await app.inject({ method: 'PUT', url }); return `${r.statusCode} ${r.statusCode === 200 ? r.body : ''}` }
    expect(await Promise.all(['/x/', '/x//', '/x/?q=1', '/x', '/x///'].map(status))).to.deep.equal(['200 x', '200 x', '200 x', '404 ', '404 '])
    expect(await Promise.all(['/api/api/', '/api/api//', '/api/api'].map(status))).to.deep.equal(['200 slash', '200 slash', '404 '])
    await app.close()
  })

  it('paths that share no spelling still boot, each answering its own (`/a` and `/a///`; other methods; without the option)', async () => {
    const app = server({ ignoreTrailingSlash: true })
    app.get('/a', async () => 'a')
    app.get('/a///', async () => 'a3')
    app.post('/a//', async () => 'post')
    await app.ready()
    expect((await app.inject('/a/')).body).to.equal('a')
    expect((await app.inject('/a///')).body).to.equal('a3')
    expect((await app.inject({ method: 'POST', url: '/a//' })).body).to.equal('post')
    const strict = server()
    strict.get('/a/', async () => 'one')
    strict.get('/a//', async () => 'two')
    await strict.ready()
    expect((await strict.inject('/a//')).body).to.equal('two')
    await Promise.all([app.close(), strict.close()])
  })
})
