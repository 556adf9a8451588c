// docs/errors.md, ENC_ERR_REPLY_ALREADY_SENT: a handler that calls reply.send() and then returns a
// value (an Express habit: `res.json(x)` then `return`) answers the first payload; the warn line
// says the returned value was dropped and what to write, not "reply.send() was called after the
// reply was sent", a call the handler made once (newcomer24c).
import 'reflect-metadata'
import { expect } from 'chai'
import { Get, Module, Reply, Route, createApp } from '../../src'
import { recordingLogger, server } from '../support/servers'

@Route('/profile')
class ProfileController {
  @Get('/sync')
  sync(@Reply() reply: Reply): { b: number } { reply.send({ a: 1 }); return { b: 2 } }

  @Get('/async')
  async later(@Reply() reply: Reply): Promise<{ b: number }> { reply.send({ a: 1 }); return { b: 2 } }

  @Get('/return-reply')
  async returnsReply(@Reply() reply: Reply): Promise<Reply> { return reply.send({ a: 1 }) }
}

@Module({ controllers: [ProfileController] })
class ProfileModule {}

describe('dx: a value returned after reply.send() (ENC_ERR_REPLY_ALREADY_SENT)', () => {
  it('sync and async handlers: the first payload is the answer, and one warn line names the route and says the returned value was ignored', async () => {
    const logger = recordingLogger()
    const app = await createApp(ProfileModule, { logger })
    try {
      for (const path of ['sync', 'async']) {
        const response = await app.inject({ url: `/profile/${path}` })
        expect(response.json(), path).to.deep.equal({ a: 1 })
        await new Promise((resolve) => setImmediate(resolve))
        const warns = logger.entries.filter((e) => e.level === 'warn')
        expect(warns, path).to.have.length(1)
        expect(warns[0].obj.code).to.equal('ENC_ERR_REPLY_ALREADY_SENT')
        expect(warns[0].msg).to.equal(`GET /profile/${path}: the handler returned a value after the reply was sent (by its own reply.send(), or by handlerTimeout's 503); the value was ignored. Return the value or call reply.send(), not both (after reply.send(), return reply or nothing)`)
        logger.entries.length = 0
      }
    } finally {
      await app.close()
    }
  })

  it('`return reply.send(x)` is not a second answer: no warn line', async () => {
    const logger = recordingLogger()
    const app = await createApp(ProfileModule, { logger })
    try {
      expect((await app.inject({ url: '/profile/return-reply' })).json()).to.deep.equal({ a: 1 })
      expect(logger.entries.filter((e) => e.level === 'warn')).to.deep.equal([])
    } finally {
      await app.close()
    }
  })

  it('a second reply.send() call keeps its own message', async () => {
    const logger = recordingLogger()
    const app = server({ logger })
    app.get('/twice', (_request, reply) => { reply.send({ a: 1 }); reply.send({ b: 2 }) })
    try {
      expect((await app.inject({ url: '/twice' })).json()).to.deep.equal({ a: 1 })
      const warns = logger.entries.filter((e) => e.level === 'warn')
      expect(warns.map((e) => e.msg)).to.deep.equal(['reply.send() was called after the reply was sent; ignored'])
    } finally {
      await app.close()
    }
  })
})
