// Set-Cookie accumulates as in Fastify 3.27.4 (each cookie its own header line), but in the
// reply's own list: Fastify 3 pushes later cookies into the array the handler passed (README).
import { expect } from 'chai'
import type { Reply, Request } from '../../src'
import { build } from '../runtime/helpers'

describe('semantics: Set-Cookie set several times (Fastify 3 accumulates; README: the array given is copied)', () => {
  it('each cookie is its own header line, whichever way it was set; getHeader returns the list', async () => {
    const app = await build((root) => {
      root.get('/', (_req: Request, reply: Reply) => {
        reply.header('set-cookie', ['a=1', 'b=2']).header('Set-Cookie', 'c=3').headers({ 'set-cookie': 'd=4' })
        reply.send({ got: reply.getHeader('set-cookie') })
      })
    })
    const res = await app.inject('/')
    expect(res.headers['set-cookie']).to.deep.equal(['a=1', 'b=2', 'c=3', 'd=4'])
    expect(res.json()).to.deep.equal({ got: ['a=1', 'b=2', 'c=3', 'd=4'] })
    await app.close()
  })

  it('a shared array of default cookies is not grown by the cookies added after it', async () => {
    const defaults = ['theme=dark']
    const app = await build((root) => {
      root.get('/', (_req: Request, reply: Reply) => { reply.header('set-cookie', defaults).header('set-cookie', 'visit=1').send('ok') })
    })
    expect((await app.inject('/')).headers['set-cookie']).to.deep.equal(['theme=dark', 'visit=1'])
    expect((await app.inject('/')).headers['set-cookie']).to.deep.equal(['theme=dark', 'visit=1'])
    expect(defaults).to.deep.equal(['theme=dark'])
    await app.close()
  })
})
