// Async factory providers (NestJS's `useFactory: async () => ...`): createApp() awaits them at boot,
// so whoever injects the token gets the value, never a Promise, whatever the listing order.
import 'reflect-metadata'
import { expect } from 'chai'
import { inject, injectable } from 'tsyringe'
import { Get, Module, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

describe('async factory providers are awaited at boot', () => {
  it('injects the value an async factory resolves to, even into a class listed before it', async () => {
    @injectable() class Books { constructor(@inject('DB') readonly db: { ready: boolean }) {} }
    @Route() class BooksController {
      constructor(readonly books: Books) {}
      @Get('/ready') ready() { return { ready: this.books.db.ready, isPromise: this.books.db instanceof Promise } }
    }
    @Module({ providers: [Books, { provide: 'DB', useFactory: async () => { await tick(); return { ready: true } } }], controllers: [BooksController] })
    class Root {}
    const app = await createApp(Root)
    const response = await app.inject({ url: '/ready' })
    expect(response.json()).to.deep.equal({ ready: true, isPromise: false })
    await app.close()
  })

  it('awaits the async factories a factory injects before calling it, in any listing order', async () => {
    const seen: unknown[] = []
    @Module({
      providers: [
        { provide: 'repo', useFactory: (pool: unknown) => { seen.push(pool); return { pool } }, inject: ['pool'] },
        { provide: 'pool', useFactory: async (url: string) => { await tick(); return { url } }, inject: ['url'] },
        { provide: 'url', useValue: 'postgres://x' },
      ],
    })
    class Root {}
    const app = await createApp(Root)
    expect(seen).to.deep.equal([{ url: 'postgres://x' }])
    await app.close()
  })

  it("awaits a parent module's async factory before a child module's class uses it", async () => {
    @injectable() class Users { constructor(@inject('config') readonly config: { region: string }) {} }
    @Route() class UsersController { constructor(readonly users: Users) {} @Get('/region') get() { return { region: this.users.config.region } } }
    @Module({ providers: [Users], controllers: [UsersController] }) class UsersModule {}
    @Module({ plugins: [UsersModule], providers: [{ provide: 'config', useFactory: async () => { await tick(); return { region: 'eu' } } }] }) class Root {}
    const app = await createApp(Root)
    expect((await app.inject({ url: '/region' })).json()).to.deep.equal({ region: 'eu' })
    await app.close()
  })

  it('fails boot with ENC_ERR_MODULE_INSTANTIATION naming the provider when its promise rejects, and disposes what was built', async () => {
    const disposed: string[] = []
    @Module({
      providers: [
        { provide: 'cache', useFactory: () => ({ dispose: () => { disposed.push('cache') } }) },
        { provide: 'DB', useFactory: async () => { await tick(); throw new Error('connection refused') } },
      ],
    })
    class Root {}
    const error = await createApp(Root).then(() => null, (e: unknown) => e as Error & { code?: string })
    expect(error?.code).to.equal('ENC_ERR_MODULE_INSTANTIATION')
    expect(error?.message).to.include("provider 'DB'").and.include('Root').and.include('connection refused')
    expect(disposed).to.deep.equal(['cache'])
  })

  it('disposes the value an async factory resolved to on close()', async () => {
    const disposed: string[] = []
    @Module({ providers: [{ provide: 'client', useFactory: async () => ({ dispose: () => { disposed.push('client') } }) }] }) class Root {}
    const app = await createApp(Root)
    await app.close()
    expect(disposed).to.deep.equal(['client'])
  })

  it('refuses with ENC_ERR_MODULE_ASYNC_PROVIDER when a class a factory injects needs an async factory not yet awaited', async () => {
    @injectable() class Repo { constructor(@inject('pool') readonly pool: unknown) {} }
    @Module({
      providers: [
        { provide: 'service', useFactory: (repo: Repo) => ({ repo }), inject: [Repo] },
        Repo,
        { provide: 'pool', useFactory: async () => ({}) },
      ],
    })
    class Root {}
    const error = await createApp(Root).then(() => null, (e: unknown) => e as Error & { code?: string })
    expect(error?.code).to.equal('ENC_ERR_MODULE_ASYNC_PROVIDER')
    expect(error?.message).to.include("'pool'").and.include('inject')
  })
})
