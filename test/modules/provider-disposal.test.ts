// close() releases what the app created: class and factory providers, modules and controllers,
// newest first, each through onClose() and/or dispose(); useValue providers belong to their creator.
import 'reflect-metadata'
import { expect } from 'chai'
import { inject, injectable } from 'tsyringe'
import { Get, Hook, Module, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { lift } from '../../src/runtime'
import { recordingLogger } from '../support/servers'

describe('providers are released on close() (README "Shutdown")', () => {
  it('disposes a useFactory provider (it was never disposed before)', async () => {
    const disposed: string[] = []
    @Module({ providers: [{ provide: 'client', useFactory: () => ({ dispose: () => { disposed.push('client') } }) }] }) class Root {}
    const app = await createApp(Root)
    expect(disposed).to.deep.equal([])
    await app.close()
    expect(disposed).to.deep.equal(['client'])
  })

  it('releases in reverse creation order: a dependant before what it depends on, whatever the listing order', async () => {
    const events: string[] = []
    @injectable() class Pool { dispose() { events.push('Pool') } }
    @injectable() class Repo { constructor(readonly pool: Pool) {} async dispose() { await Promise.resolve(); events.push('Repo') } }
    @injectable() class Service { constructor(readonly repo: Repo) {} onClose() { events.push('Service') } }
    // Listed dependants first: factories are built before classes (an async one is awaited there),
    // so cache builds Repo and Pool, then Service is built.
    @Module({ providers: [Service, Repo, { provide: 'cache', useFactory: (repo: Repo) => ({ repo, dispose: () => { events.push('cache') } }), inject: [Repo] }, Pool] })
    class Root {}
    const app = await createApp(Root)
    await app.close()
    expect(events).to.deep.equal(['Service', 'cache', 'Repo', 'Pool'])
  })

  it('releases a child module\'s providers before its parent\'s, and each instance once', async () => {
    const events: string[] = []
    @injectable() class Db { dispose() { events.push('Db') } }
    @injectable() class Users { constructor(readonly db: Db) {} dispose() { events.push('Users') } }
    @Route() class UsersController { constructor(readonly users: Users, readonly db: Db) {} @Get('/u') get() { return {} } }
    @Module({ providers: [Users], controllers: [UsersController] }) class UsersModule {}
    @Module({ plugins: [UsersModule], providers: [Db] }) class Root {}
    const app = await createApp(Root)
    await app.close()
    expect(events).to.deep.equal(['Users', 'Db'])
  })

  it('calls onClose() and then dispose() when an instance has both', async () => {
    const events: string[] = []
    @injectable() class Both { onClose() { events.push('onClose') } dispose() { events.push('dispose') } }
    @Module({ providers: [Both] }) class Root {}
    const app = await createApp(Root)
    await app.close()
    expect(events).to.deep.equal(['onClose', 'dispose'])
  })

  it('does not dispose a useValue provider: the code that built the value owns it', async () => {
    const events: string[] = []
    const shared = { dispose: () => { events.push('shared') } }
    @Module({ providers: [{ provide: 'shared', useValue: shared }] }) class Root {}
    const app = await createApp(Root)
    await app.close()
    expect(events).to.deep.equal([])
  })

  it('runs module onClose hooks (also of lifted modules) while the providers are still open', async () => {
    const events: string[] = []
    @injectable() class Db { open = true; dispose() { this.open = false; events.push('Db.dispose') } }
    @Module({}) class Audit { constructor(@inject(Db) readonly db: Db) {} @Hook('onClose') async closing() { events.push(`Audit hook, db open: ${this.db.open}`) } }
    @Module({ plugins: [lift(Audit)], providers: [Db] }) class Root { constructor(readonly db: Db) {} @Hook('onClose') async closing() { events.push(`Root hook, db open: ${this.db.open}`) } }
    const app = await createApp(Root)
    await app.close()
    expect(events).to.deep.equal(['Root hook, db open: true', 'Audit hook, db open: true', 'Db.dispose'])
  })

  it('logs a failing dispose() and still disposes the others', async () => {
    const events: string[] = []
    const logger = recordingLogger()
    @injectable() class First { dispose() { events.push('First') } }
    @injectable() class Broken { constructor(readonly first: First) {} dispose() { throw new Error('socket already gone') } }
    @Module({ providers: [First, Broken] }) class Root {}
    const app = await createApp(Root, { logger })
    await app.close()
    expect(events).to.deep.equal(['First'])
    const failure = logger.entries.find((e) => e.level === 'error')
    expect(failure?.msg).to.equal('Broken.dispose() failed while the app was closing')
    expect((failure?.obj.err as Error).message).to.equal('socket already gone')
  })

  it('gives up on a dispose() that never settles after pluginTimeout, logs it, and goes on', async () => {
    const events: string[] = []
    const logger = recordingLogger()
    @injectable() class First { dispose() { events.push('First') } }
    @injectable() class Stuck { constructor(readonly first: First) {} dispose() { return new Promise(() => undefined) } }
    @Module({ providers: [First, Stuck] }) class Root {}
    const app = await createApp(Root, { logger, pluginTimeout: 50 })
    await app.close()
    expect(events).to.deep.equal(['First'])
    expect((logger.entries.find((e) => e.level === 'error')?.obj.err as Error).message).to.match(/Stuck\.dispose\(\) did not finish within 50 ms/)
  })

  it('disposes what a failed boot had already built, useFactory values included', async () => {
    const events: string[] = []
    @Route() class Broken { @Get('/broken', { schema: { querystring: { $ref: 'missing#' } } }) get() { return {} } }
    @Module({ providers: [{ provide: 'client', useFactory: () => ({ dispose: () => { events.push('client') } }) }], controllers: [Broken] }) class Root {}
    const error = await createApp(Root).then(() => null, (e: unknown) => e)
    expect(error).to.be.instanceOf(Error)
    expect(events).to.deep.equal(['client'])
  })
})
