// The HEAD a GET route answers by itself is the GET without its body (README: GET routes answer
// HEAD by default): its Content-Length is the GET's, the payload's, also where the handler set a
// wrong one (the GET corrects it; Fastify 3's exposeHeadRoutes sets the payload's length too).
// A declared HEAD route keeps its handler's own length (the GET body's), as in Fastify 3.
import { expect } from 'chai'
import { server } from '../support/servers'

describe('runtime: the Content-Length of a GET route\'s own HEAD answer', () => {
  it('is the GET\'s (the payload\'s) where the handler announced another one', async () => {
    const app = server()
    app.get('/lie', (_request, reply) => { reply.header('content-length', '40').type('text/plain').send('short') })
    const get = await app.inject({ method: 'GET', url: '/lie' })
    const head = await app.inject({ method: 'HEAD', url: '/lie' })
    expect(get.headers['content-length']).to.equal('5')
    expect(head.statusCode).to.equal(200)
    expect(head.headers['content-length']).to.equal(get.headers['content-length'])
    expect(head.payload).to.equal('')
  })

  it('is 0, as the GET\'s, where the handler sent nothing but announced a length (Fastify 3\'s headRouteOnSendHandler)', async () => {
    const app = server()
    app.get('/none', (_request, reply) => { reply.header('content-length', '40').send() })
    const get = await app.inject({ method: 'GET', url: '/none' })
    const head = await app.inject({ method: 'HEAD', url: '/none' })
    expect(get.headers['content-length']).to.equal('0')
    expect(head.headers['content-length']).to.equal('0')
  })

  it('a declared HEAD route keeps the length its handler announces', async () => {
    const app = server()
    app.head('/file', (_request, reply) => { reply.header('content-length', '1234').send() })
    app.head('/file2', (_request, reply) => { reply.header('content-length', '99').send('') })
    expect((await app.inject({ method: 'HEAD', url: '/file' })).headers['content-length']).to.equal('1234')
    expect((await app.inject({ method: 'HEAD', url: '/file2' })).headers['content-length']).to.equal('99')
  })
})
