import 'reflect-metadata'
import { expect } from 'chai'
import { injectable } from 'tsyringe'
import { Get, Hook, Module, Route } from '../../src/decorators'
import { createApp, override, resolveProvider } from '../../src/modules'
import type { Request, Reply } from '../../src/runtime'

async function bootError(root: Function): Promise<Error & { code?: string }> {
  try { const app = await createApp(root); await app.close() } catch (error) { return error as Error & { code?: string } }
  throw new Error('createApp() booted')
}

describe('NestJS habits met porting a cats service (nest27)', () => {
  describe("a module class's configure(consumer) (NestJS's NestModule middleware)", () => {
    @Route('/') class Hello { @Get('/') hello() { return { hello: 'world' } } }

    it('is refused at boot with ENC_ERR_MODULE_NEST_MIDDLEWARE naming the module path and the onRequest hook that replaces it', async () => {
      class RequestIdMiddleware { use(_req: unknown, _res: unknown, next: () => void) { next() } }
      @Module({ controllers: [Hello] }) class CatsModule {
        configure(consumer: { apply(...m: unknown[]): { forRoutes(...r: unknown[]): void } }) { consumer.apply(RequestIdMiddleware).forRoutes('*') }
      }
      @Module({ plugins: [CatsModule] }) class AppModule {}
      const error = await bootError(AppModule)
      expect(error.code).to.equal('ENC_ERR_MODULE_NEST_MIDDLEWARE')
      expect(error.message).to.contain('Module CatsModule (AppModule > CatsModule) has configure(consumer)')
        .and.contain("@Hook('onRequest')").and.contain('@OnRequest(Class)').and.contain('@fastify/middie').and.contain('rename it')
    })

    it('is refused when inherited from a base module class too', async () => {
      class BaseModule { configure(_consumer: unknown) {} }
      @Module({ controllers: [Hello] }) class AppModule extends BaseModule {}
      expect((await bootError(AppModule)).code).to.equal('ENC_ERR_MODULE_NEST_MIDDLEWARE')
    })

    it("is accepted as Enclave's own when it carries @Hook(), or takes another number of parameters (a helper of the module's)", async () => {
      @Module({ controllers: [Hello] }) class Hooked {
        @Hook('onRequest') async configure(_request: Request, reply: Reply) { reply.header('x-configured', 'yes') }
      }
      @Module({ controllers: [Hello] }) class Helper { configure() { return 1 } }
      for (const root of [Hooked, Helper]) {
        const app = await createApp(root)
        try {
          const response = await app.inject({ url: '/' })
          expect(response.statusCode).to.equal(200)
          if (root === Hooked) expect(response.headers['x-configured']).to.equal('yes')
        } finally { await app.close() }
      }
    })
  })

  describe('an abstract class as a provider token (NestJS: { provide: Notifier, useClass: SmtpNotifier })', () => {
    abstract class Notifier { abstract notify(message: string): string }
    @injectable() class SmtpNotifier extends Notifier { notify(message: string) { return `smtp:${message}` } }
    @injectable() class Signup { constructor(readonly notifier: Notifier) {} }
    @Route('/') class Signups {
      constructor(private readonly signup: Signup) {}
      @Get('/') welcome() { return { sent: this.signup.notifier.notify('welcome') } }
    }
    @Module({ providers: [{ provide: Notifier, useClass: SmtpNotifier }, { provide: 'NOTIFIER', useExisting: Notifier }, Signup], controllers: [Signups] })
    class AppModule {}

    it('is injected by constructor type, aliased by useExisting and read by resolveProvider(), one instance', async () => {
      const app = await createApp(AppModule)
      try {
        expect((await app.inject({ url: '/' })).json()).to.deep.equal({ sent: 'smtp:welcome' })
        const notifier = resolveProvider(app, Notifier)
        expect(notifier).to.be.instanceOf(SmtpNotifier)
        expect(resolveProvider(app, 'NOTIFIER')).to.equal(notifier)
        expect(resolveProvider(app, Signup).notifier).to.equal(notifier)
      } finally { await app.close() }
    })

    it('is replaced by override(Notifier, { useValue }) in a test', async () => {
      const app = await createApp(AppModule, { overrides: [override(Notifier, { useValue: { notify: (m: string) => `fake:${m}` } })] })
      try {
        expect((await app.inject({ url: '/' })).json()).to.deep.equal({ sent: 'fake:welcome' })
      } finally { await app.close() }
    })
  })
})
