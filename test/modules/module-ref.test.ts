// NestJS's ModuleRef (docs/migrating-from-nestjs.md, "Coming from NestJS"): injected into a module's provider, controller
// or module class, it looks providers up by token at run time from what that module sees;
// `{ strict: false }` from any module; `create()` builds a class no module provides.
import 'reflect-metadata'
import { expect } from 'chai'
import { inject, injectable } from 'tsyringe'
import { Get, Module, ModuleRef, RequestScoped, Route, Transient, createApp } from '../../src'

let serial = 0

describe('ModuleRef (docs/migrating-from-nestjs.md, "Coming from NestJS": moduleRef.get/resolve/create)', () => {
  const Secret = Symbol('Secret')
  @injectable() class Config { readonly name = 'config' }
  @Transient() class Draft { readonly id = ++serial }
  @RequestScoped() class Tenant {}
  @injectable() class Report { constructor(readonly config: Config) {} }
  @injectable() class NeedsSecret { constructor(@inject(Secret) readonly secret: string) {} }
  @Module({ providers: [{ provide: Secret, useValue: 'child only' }, { provide: 'child-service', useValue: 'from the child' }] }) class Child {}

  async function appWith(check: (ref: ModuleRef) => Promise<unknown> | unknown) {
    let outcome: unknown
    @injectable() class Lookup { constructor(readonly ref: ModuleRef) {} }
    @Module({ providers: [Config, Draft, Tenant, Lookup], plugins: [Child] }) class Root {
      constructor(readonly lookup: Lookup) {}
      async onModuleInit() {
        try { outcome = { value: await check(this.lookup.ref) } } catch (error) { outcome = { code: (error as { code?: string }).code, message: (error as Error).message } }
      }
    }
    const app = await createApp(Root)
    await app.close()
    return outcome as { value?: unknown; code?: string; message?: string }
  }

  it('get() gives the instance the module sees (the singleton itself)', async () => {
    const { value } = await appWith((ref) => [ref.get(Config) === ref.get(Config), ref.get(Config).name])
    expect(value).to.deep.equal([true, 'config'])
  })

  // Changed in session 22 (get() gave a fresh transient per call, each kept until close()): @nestjs/core 12.5.1's
  // get() throws InvalidClassScopeException for a transient provider, naming resolve().
  it('get() refuses a transient provider as NestJS does (ENC_ERR_MODULE_TRANSIENT naming resolve()); resolve() gives a fresh one per call', async () => {
    const refused = await appWith((ref) => ref.get(Draft))
    expect(refused.code).to.equal('ENC_ERR_MODULE_TRANSIENT')
    expect(refused.message).to.contain('moduleRef.get(Draft)').and.contain('moduleRef.resolve(Draft)').and.contain('Root')
    expect((await appWith((ref) => ref.get(Draft, { strict: false }))).code).to.equal('ENC_ERR_MODULE_TRANSIENT')
    const { value } = await appWith(async (ref) => { const [a, b] = [await ref.resolve(Draft), await ref.resolve(Draft)]; return [a instanceof Draft, a !== b] })
    expect(value).to.deep.equal([true, true])
  })

  it("get() refuses a child module's provider, naming { strict: false }; with strict: false it is found", async () => {
    const refused = await appWith((ref) => ref.get('child-service'))
    expect(refused.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_NOT_VISIBLE')
    expect(refused.message).to.contain("moduleRef.get('child-service')").and.contain('{ strict: false }')
    expect((await appWith((ref) => ref.get('child-service', { strict: false }))).value).to.equal('from the child')
  })

  it('resolve() is get() as a promise (with { strict: false } too)', async () => {
    expect((await appWith(async (ref) => (await ref.resolve(Config)).name)).value).to.equal('config')
    expect((await appWith((ref) => ref.resolve('child-service', undefined, { strict: false }))).value).to.equal('from the child')
  })

  it('refuses a request-scoped provider (it needs a request: resolveProvider(request, Token))', async () => {
    const refused = await appWith((ref) => ref.get(Tenant))
    expect(refused.code).to.equal('ENC_ERR_MODULE_REQUEST_SCOPE')
    expect(refused.message).to.contain('resolveProvider(request')
  })

  it('create() builds a class no module provides from what the module sees, and refuses one whose dependency it does not see', async () => {
    const made = await appWith(async (ref) => { const report = await ref.create(Report); return [report instanceof Report, report.config === ref.get(Config)] })
    expect(made.value).to.deep.equal([true, true])
    const refused = await appWith((ref) => ref.create(NeedsSecret))
    expect(refused.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_NOT_VISIBLE')
    expect(refused.message).to.contain('moduleRef.create(NeedsSecret)')
  })

  it('is injected into controllers, request-scoped ones included', async () => {
    @RequestScoped() class Ctx { readonly id = ++serial }
    @Route() class C {
      constructor(readonly ref: ModuleRef, readonly ctx: Ctx) {}
      @Get('/') get() { return { name: this.ref.get(Config).name } }
    }
    @Module({ providers: [Config, Ctx], controllers: [C] }) class Root {}
    const app = await createApp(Root)
    expect((await app.inject({ url: '/' })).json()).to.deep.equal({ name: 'config' })
    await app.close()
  })
})

describe('@Optional() as tsyringe writes it: @inject(token, { isOptional: true }) (docs/migrating-from-nestjs.md, "Coming from NestJS")', () => {
  it('gives undefined for a token no module provides, the value when one does, in singleton and request-scoped consumers', async () => {
    @injectable() class Mailer { constructor(@inject('smtp', { isOptional: true }) readonly smtp: string | undefined, @inject('from', { isOptional: true }) readonly from: string | undefined) {} }
    @RequestScoped() class Ctx { constructor(@inject('smtp', { isOptional: true }) readonly smtp: string | undefined) {} }
    @Route() class C {
      constructor(readonly mailer: Mailer, readonly ctx: Ctx) {}
      @Get('/') get() { return { smtp: this.mailer.smtp ?? null, from: this.mailer.from ?? null, ctx: this.ctx.smtp ?? null } }
    }
    @Module({ providers: [Mailer, Ctx, { provide: 'from', useValue: 'noreply@example.com' }], controllers: [C] }) class Root {}
    const app = await createApp(Root)
    expect((await app.inject({ url: '/' })).json()).to.deep.equal({ smtp: null, from: 'noreply@example.com', ctx: null })
    await app.close()
  })
})
