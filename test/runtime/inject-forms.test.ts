// Fastify 3's other inject() forms, which a Fastify user's tests call: the chained builder and the
// callback. Each boots the server first, as inject(options) does.
import { expect } from 'chai'
import { createServer, type InjectResponse } from '../../src/runtime'

function app() {
  const server = createServer()
  server.get('/', async (req) => ({ query: req.query, header: req.headers['x-a'] ?? null }))
  server.post('/', async (req) => ({ body: req.body }))
  return server
}

describe('inject() forms (Fastify 3)', () => {
  it('inject() without options is a chain: inject().get(url).query().headers().end()', async () => {
    const server = app()
    const res = await server.inject().get('/').query({ a: '1' }).headers({ 'x-a': 'v' }).end()
    expect([res.statusCode, res.json()]).to.deep.equal([200, { query: { a: '1' }, header: 'v' }])
    await server.close()
  })

  it('a chain is also a promise: await inject().post(url).body(value)', async () => {
    const server = app()
    const res = await server.inject().post('/').body({ z: 1 })
    expect(res.json()).to.deep.equal({ body: { z: 1 } })
    await server.close()
  })

  it('inject(options, callback) hands the response to the callback', async () => {
    const server = app()
    const res = await new Promise<InjectResponse | undefined>((resolve, reject) => {
      server.inject({ url: '/?b=2' }, (error, response) => { if (error) reject(error); else resolve(response) })
    })
    expect(res?.json()).to.deep.equal({ query: { b: '2' }, header: null })
    await server.close()
  })

  it('a boot that fails reaches the chain as a rejection and the callback as its error', async () => {
    const server = createServer()
    server.register(async () => { throw new Error('boot fails') })
    const chained = await server.inject().get('/').end().then(() => null, (error: Error) => error.message)
    expect(chained).to.equal('boot fails')
    const called = await new Promise<string | undefined>((resolve) => { server.inject('/', (error) => { resolve(error?.message) }) })
    expect(called).to.equal('boot fails')
  })
})
