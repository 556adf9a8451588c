import { expect } from 'chai'
import { Readable } from 'node:stream'
import { createServer } from '../../src/runtime'

describe('HEAD replies carry no body, also under inject()', () => {
  it('an implicit HEAD of a JSON GET route answers its headers, content-length included, and an empty body', async () => {
    const app = createServer()
    app.get('/a', async () => ({ hello: 'world' }))
    const head = await app.inject({ method: 'HEAD', url: '/a' })
    expect(head.statusCode).to.equal(200)
    expect(head.body).to.equal('')
    expect(head.headers['content-length']).to.equal(String(JSON.stringify({ hello: 'world' }).length))
    expect(head.headers['content-type']).to.equal('application/json; charset=utf-8')
    await app.close()
  })

  it('a stream payload on HEAD is closed, not sent', async () => {
    const app = createServer()
    let destroyed = false
    app.get('/s', async (_request, reply) => {
      const stream = Readable.from(['chunk'])
      stream.once('close', () => { destroyed = true })
      reply.type('text/plain')
      return stream
    })
    const head = await app.inject({ method: 'HEAD', url: '/s' })
    expect(head.statusCode).to.equal(200)
    expect(head.body).to.equal('')
    expect(destroyed).to.equal(true)
    const get = await app.inject({ method: 'GET', url: '/s' })
    expect(get.body).to.equal('chunk')
    await app.close()
  })
})
