// docs/migrating-from-nestjs.md, "Coming from NestJS": the rows for @Header, @Redirect, APP_INTERCEPTOR, APP_FILTER and an
// exception filter's ArgumentsHost, written as the table says, answer as it says.
import 'reflect-metadata'
import { expect } from 'chai'
import { injectable } from 'tsyringe'
import {
  ErrorHandler, Get, HttpError, Module, OnSend, Reply, Route, UseInterceptors, createApp,
  type CallHandler, type Interceptor, type InterceptorContext, type Request, type Reply as ReplyType,
} from '../../src'

class TeapotError extends Error {}

describe('docs/migrating-from-nestjs.md, "Coming from NestJS": @Header, @Redirect, APP_INTERCEPTOR, APP_FILTER, ArgumentsHost rows', () => {
  it('answers as the rows say', async () => {
    @injectable() class NoStore { handle(_request: Request, reply: ReplyType, payload: unknown) { reply.header('cache-control', 'no-store'); return payload } }
    @injectable() class Timing implements Interceptor {
      async intercept(_context: InterceptorContext, next: CallHandler) { return { data: await next() } }
    }
    @Route('/docs') @OnSend(NoStore) class Docs {
      @Get('/one') one(@Reply() reply: ReplyType) { reply.header('x-one', '1'); return { one: true } }
      @Get('/old') old(@Reply() reply: ReplyType) { return reply.redirect('https://docs.example', 301) }
      @Get('/teapot') teapot() { throw new TeapotError('short and stout') }
      @Get('/missing') missing() { throw new HttpError(404, 'no such page') }
    }
    @Module({ controllers: [Docs] }) class DocsModule {}
    @UseInterceptors(Timing)
    @Module({ providers: [Timing, NoStore], plugins: [DocsModule] })
    class AppModule {
      @ErrorHandler() onError(error: Error, _request: Request, reply: ReplyType) {
        if (error instanceof TeapotError) return reply.code(418).send({ teapot: error.message })
        throw error
      }
    }
    const app = await createApp(AppModule, { logger: false })
    const one = await app.inject('/docs/one')
    expect([one.statusCode, one.headers['x-one'], one.headers['cache-control'], one.json()]).to.deep.equal([200, '1', 'no-store', { data: { one: true } }])
    const old = await app.inject('/docs/old')
    expect([old.statusCode, old.headers.location]).to.deep.equal([301, 'https://docs.example'])
    const teapot = await app.inject('/docs/teapot')
    expect([teapot.statusCode, teapot.json()]).to.deep.equal([418, { teapot: 'short and stout' }])
    const missing = await app.inject('/docs/missing')
    expect([missing.statusCode, missing.json<{ message: string }>().message]).to.deep.equal([404, 'no such page'])
    await app.close()
  })
})
