import { expect } from 'chai'
import { Get, Module, Route, createApp, inject, injectable, lift } from '../../src'

// In an app of hundreds of tokens, a string or symbol token nothing provides is most often misspelt.
describe('boot error for a token nothing provides: did you mean the closest provided token, and where it is provided', () => {
  const failure = (root: Function) => createApp(root).then(() => { throw new Error('expected a boot error') }, (error: Error & { code?: string }) => error)

  it("names 'FEATURE_FLAGS_CLIENT' and its module for an injected 'FEATURE_FLAGS_CLENT', four modules down", async () => {
    @injectable() class FlagsReader { constructor(@inject('FEATURE_FLAGS_CLENT') readonly flags: unknown) {} }
    @Route('/flags') class FlagsController { constructor(readonly reader: FlagsReader) {} @Get('/') get() { return {} } }
    @Module({ providers: [FlagsReader], controllers: [FlagsController] }) class FlagsModule {}
    @Module({ plugins: [FlagsModule] }) class OpsModule {}
    @Module({ plugins: [OpsModule] }) class AdminModule {}
    @Module({ providers: [{ provide: 'FEATURE_FLAGS_CLIENT', useValue: {} }, { provide: 'MAILER', useValue: {} }], plugins: [AdminModule] }) class AppModule {}
    const error = await failure(AppModule)
    expect(error.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_NOT_VISIBLE')
    expect(error.message).to.contain("provider FlagsReader in AppModule > AdminModule > OpsModule > FlagsModule needs 'FEATURE_FLAGS_CLENT'")
      .and.contain("Did you mean 'FEATURE_FLAGS_CLIENT' (provided by AppModule)?")
  })

  it('matches a symbol by its description, and suggests nothing when no provided name is close', async () => {
    const DB_POOL = Symbol('DB_POOL')
    @injectable() class Repo { constructor(@inject(Symbol('DB_POLL')) readonly pool: unknown) {} }
    @Module({ providers: [Repo, { provide: DB_POOL, useValue: {} }] }) class AppModule {}
    const error = await failure(AppModule)
    expect(error.message).to.contain('Did you mean Symbol(DB_POOL) (provided by AppModule)?')
    @injectable() class Other { constructor(@inject('SOMETHING_ELSE_ENTIRELY') readonly x: unknown) {} }
    @Module({ providers: [Other, { provide: 'MAILER', useValue: {} }] }) class Far {}
    expect((await failure(Far)).message).to.not.contain('Did you mean')
  })
})

describe('boot error for a provider in a sibling subtree: the lift() to suggest when its module is lifted already', () => {
  it('names the module the provider is lifted into (lifting the lifted module again would change nothing)', async () => {
    @injectable() class Db {}
    @injectable() class Digest { constructor(readonly db: Db) {} }
    @Route('/digest') class DigestController { constructor(readonly digest: Digest) {} @Get('/') get() { return {} } }
    @Module({ providers: [Db] }) class DatabaseModule {}
    @Module({ plugins: [lift(DatabaseModule)] }) class AppModule {}
    @Module({ providers: [Digest], controllers: [DigestController] }) class NotifyModule {}
    @Module({ plugins: [AppModule, NotifyModule] }) class TestHost {}
    const error = await createApp(TestHost).then(() => null, (caught: Error & { code?: string }) => caught)
    expect(error?.code).to.equal('ENC_ERR_MODULE_DEPENDENCY_NOT_VISIBLE')
    expect(error?.message).to.contain('It is provided by TestHost > AppModule > lift(DatabaseModule)')
      .and.contain('or lift() AppModule, which DatabaseModule is lifted into, so they provide into its parent.')
  })
})
