import 'reflect-metadata'
import { expect } from 'chai'
import { injectable } from 'tsyringe'
import { Get, Module, Reply, Route, UseInterceptors } from '../../src/decorators'
import type { CallHandler, Interceptor, InterceptorContext } from '../../src/decorators'
import { createApp } from '../../src/modules'
import type { Reply as ReplyType } from '../../src/runtime'
import { recordingLogger } from '../support/servers'

// NestJS's response-header interceptor: `return next.handle().pipe(tap(() => reply.header('x-took', ms)))`,
// here `next().then(...)` (the tap form) or `const value = await next(); reply.header(...); return value`.

@injectable() class TapHeader implements Interceptor {
  intercept(context: InterceptorContext, next: CallHandler) {
    const started = Date.now()
    return next().then((value) => { (context.reply as ReplyType).header('x-took', String(Date.now() - started)); return value })
  }
}
@injectable() class AsyncHeader implements Interceptor {
  async intercept(context: InterceptorContext, next: CallHandler) {
    const value = await next()
    ;(context.reply as ReplyType).header('x-after', 'yes')
    return value
  }
}

describe('interceptors that set a header after next() (NestJS tap / the async form)', () => {
  it('a method that returns its value: the header set after next() (tap form and async form) is sent with the answer', async () => {
    @Route('/') class Items {
      @UseInterceptors(TapHeader, AsyncHeader) @Get('/items') list() { return ['a'] }
    }
    @Module({ controllers: [Items], providers: [TapHeader, AsyncHeader] }) class AppModule {}
    const app = await createApp(AppModule)
    const response = await app.inject('/items')
    expect(response.json()).to.deep.equal(['a'])
    expect(response.headers['x-took']).to.match(/^\d+$/)
    expect(response.headers['x-after']).to.equal('yes')
    await app.close()
  })

  it('a method that sent through reply: the response is out before next() resolves, so the header is lost (as NestJS with @Res()) and a warning names the route, the header and the fix, once per route', async () => {
    const logger = recordingLogger()
    @Route('/') class Items {
      @UseInterceptors(AsyncHeader) @Get('/sent') sent(@Reply() reply: ReplyType) { reply.header('x-own', '1').send({ ok: true }) }
      @UseInterceptors(AsyncHeader) @Get('/returned') returned(@Reply() reply: ReplyType) { setImmediate(() => reply.send({ later: true })); return reply }
    }
    @Module({ controllers: [Items], providers: [AsyncHeader] }) class AppModule {}
    const app = await createApp(AppModule, { logger })
    for (let i = 0; i < 3; i++) {
      const response = await app.inject('/sent')
      expect(response.json()).to.deep.equal({ ok: true })
      expect(response.headers['x-own']).to.equal('1')
      expect(response.headers['x-after']).to.equal(undefined)
    }
    const later = await app.inject('/returned')
    expect(later.json()).to.deep.equal({ later: true })
    expect(later.headers['x-after']).to.equal(undefined)
    // The interceptor's after-part runs once the response is out, after inject() resolved: let it run.
    for (let i = 0; i < 50 && logger.entries.filter((e) => e.level === 'warn').length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10))
    const warnings = logger.entries.filter((e) => e.level === 'warn' && typeof e.msg === 'string' && e.msg.includes('after next() resolved'))
    expect(warnings.map((w) => w.obj.route)).to.deep.equal(['Items.sent', 'Items.returned'])
    expect(warnings[0].obj.headers).to.deep.equal(['x-after'])
    expect(warnings[0].msg).to.contain("'x-after'").and.contain('Return the value from the method').and.contain('@OnSend')
    await app.close()
  })

  it('no warning when the method sent through reply and no interceptor set anything after it', async () => {
    const logger = recordingLogger()
    @injectable() class Before implements Interceptor {
      intercept(context: InterceptorContext, next: CallHandler) { (context.reply as ReplyType).header('x-before', 'yes'); return next() }
    }
    @Route('/') class Items { @UseInterceptors(Before) @Get('/sent') sent(@Reply() reply: ReplyType) { reply.send({ ok: true }) } }
    @Module({ controllers: [Items], providers: [Before] }) class AppModule {}
    const app = await createApp(AppModule, { logger })
    const response = await app.inject('/sent')
    expect(response.headers['x-before']).to.equal('yes')
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(logger.entries.filter((e) => e.level === 'warn')).to.deep.equal([])
    await app.close()
  })
})
