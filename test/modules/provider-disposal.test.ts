// close() releases what the app created: class and factory providers, modules and controllers,
// newest first, each through onClose() and/or dispose(); useValue providers belong to their creator.
import 'reflect-metadata'
import { expect } from 'chai'
import { inject, injectable } from 'tsyringe'
import { Get, Hook, Module, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { lift } from '../../src/runtime'
import { recordingLogger } from '../support/servers'
import { declarationError } from '../decorators/helpers'

describe('providers are released on close() (docs/operations.md, "Shutdown")', () => {
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
    // onClose hooks newest first (avvio's order): the lifted Audit's, added as it loads, before Root's own
    expect(events).to.deep.equal(['Audit hook, db open: true', 'Root hook, db open: true', 'Db.dispose'])
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

  describe('a factory provider\'s dispose option: releases a client that has neither onClose() nor dispose() (dx2 item 5)', () => {
    // Like an ioredis client: quit() is how it closes, and nothing else names it.
    class Client { constructor(readonly name: string, readonly events: string[]) {} async quit() { await Promise.resolve(); this.events.push(`${this.name}.quit`) } }

    it('awaits dispose(value) on close(), newest first with the other instances, and once', async () => {
      const events: string[] = []
      @injectable() class Repo { constructor(@inject('redis') readonly redis: Client) {} dispose() { events.push(`Repo (redis still open: ${!events.includes('redis.quit')})`) } }
      @Module({
        providers: [
          Repo,
          { provide: 'redis', useFactory: async () => new Client('redis', events), dispose: (client: Client) => client.quit() },
          { provide: 'cache', useFactory: (redis: Client) => new Client('cache', events), inject: ['redis'], dispose: (client: Client) => client.quit() },
        ],
      })
      class Root {}
      const app = await createApp(Root)
      expect(events).to.deep.equal([])
      await app.close()
      expect(events).to.deep.equal(['Repo (redis still open: true)', 'cache.quit', 'redis.quit'])
    })

    it('is called instead of the value\'s own onClose()/dispose(), with a plain value too', async () => {
      const events: string[] = []
      @Module({
        providers: [
          { provide: 'pool', useFactory: () => ({ dispose: () => { events.push('own dispose') } }), dispose: () => { events.push('entry dispose') } },
          { provide: 'port', useFactory: () => 6391, dispose: (port: number) => { events.push(`port ${port}`) } },
        ],
      })
      class Root {}
      const app = await createApp(Root)
      await app.close()
      expect(events).to.deep.equal(['port 6391', 'entry dispose'])
    })

    it('logs a failing dispose and still releases the others', async () => {
      const events: string[] = []
      const logger = recordingLogger()
      @Module({
        providers: [
          { provide: 'first', useFactory: () => new Client('first', events), dispose: (c: Client) => c.quit() },
          { provide: 'broken', useFactory: () => new Client('broken', events), dispose: () => { throw new Error('connection reset') } },
        ],
      })
      class Root {}
      const app = await createApp(Root, { logger })
      await app.close()
      expect(events).to.deep.equal(['first.quit'])
      const failure = logger.entries.find((e) => e.level === 'error')
      expect(failure?.msg).to.equal('Client (factory provider dispose) failed while the app was closing')
      expect((failure?.obj.err as Error).message).to.equal('connection reset')
    })

    it('applies to an override\'s useFactory too', async () => {
      const events: string[] = []
      @Module({ providers: [{ provide: 'redis', useValue: new Client('real', events) }] }) class Root {}
      const app = await createApp(Root, { overrides: [['redis', { useFactory: () => new Client('fake', events), dispose: (c: Client) => c.quit() }]] })
      await app.close()
      expect(events).to.deep.equal(['fake.quit'])
    })

    it('is refused at declaration when it is not a function, or is given to a useValue/useClass provider', () => {
      for (const entry of [{ provide: 'a', useFactory: () => 1, dispose: 'quit' }, { provide: 'b', useValue: 1, dispose: () => undefined }]) {
        const error = declarationError(() => Module({ providers: [entry as never] })(class Root {}))
        expect(error.code).to.equal('ENC_ERR_DECL_MODULE_ENTRY')
        expect(error.message).to.contain('{ provide, useClass | useValue | useExisting | useFactory[, inject, dispose] }')
      }
    })
  })
})
