import 'reflect-metadata'
import { expect } from 'chai'
import request from 'supertest'
import { injectable } from 'tsyringe'
import { asClass, asValue, createContainer, Lifetime, type AwilixContainer } from 'awilix'
import { fastifyAwilixPlugin } from '@fastify/awilix'
import { Get, Module, Req, Route, usePlugin } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { lift, type Request, type Scope } from '../../src/runtime'
import { track } from '../support/servers'
import { poll } from '../support/until'
import { affected, modes, topology, unaffected } from './helpers'

type DiRequest = Request & { diScope?: AwilixContainer | null }

/** A request-scoped service with a dispose the plugin calls after the response (disposeOnResponse). */
class RequestCounter {
  static disposed = 0
  readonly id: string
  constructor({ requestId }: { requestId: string }) { this.id = requestId }
  dispose(): void { RequestCounter.disposed++ }
}

/** A singleton with awilix-manager's async init and dispose, run by the plugin's onReady and onClose hooks. */
class Database {
  state = 'new'
  async init(): Promise<void> { this.state = 'connected' }
  async close(): Promise<void> { this.state = 'closed' }
}

function freshContainer(): AwilixContainer {
  // A container per test: the plugin's default `diContainer` is a process-wide singleton.
  const container = createContainer({ injectionMode: 'PROXY' })
  container.register({
    greeting: asValue('hello from awilix'),
    database: asClass(Database, { lifetime: Lifetime.SINGLETON, asyncInit: 'init', asyncDispose: 'close' } as never),
    counter: asClass(RequestCounter, { lifetime: Lifetime.SCOPED, dispose: (c: RequestCounter) => c.dispose() }),
  })
  return container
}

const probe = async (req: Request) => {
  const scope = (req as DiRequest).diScope
  if (scope === undefined || scope === null) return { di: false }
  return { di: true, greeting: scope.resolve('greeting'), counter: scope.resolve<RequestCounter>('counter').id }
}

/** README: the plugin, then scoped registrations per request from an onRequest hook after the plugin's (one lifted plugin). */
const awilixWithRequestValues = lift(async (scope: Scope, options: { container: AwilixContainer }) => {
  await scope.register(fastifyAwilixPlugin, options as never)
  scope.addHook('onRequest', (req, _reply, done) => {
    (req as DiRequest).diScope!.register({ requestId: asValue(req.id) })
    done()
  })
})

// The per-request scope is disposed after the response; waited for, bounded, then asserted.
const until = (check: () => boolean): Promise<boolean> => poll(check, { ms: 500, every: 5 })

// @fastify/awilix README: `fastify.diContainer` (awilix), a `request.diScope` per request (disposed
// after the response), asyncInit/asyncDispose of awilix-manager on ready and close.
describe('@fastify/awilix in Enclave', () => {
  for (const mode of modes) {
    describe(`registered in a ${mode}`, () => {
      it('gives request.diScope, one scope per request, in the registering context and its descendants only', async () => {
        const app = await topology(mode, { plugin: awilixWithRequestValues, options: { container: freshContainer() }, probe })
        for (const path of affected) {
          const a = await request(app.server).get(path).expect(200)
          const b = await request(app.server).get(path).expect(200)
          expect(a.body, path).to.include({ di: true, greeting: 'hello from awilix' })
          expect(a.body.counter).to.not.equal(b.body.counter)
        }
        for (const path of unaffected) await request(app.server).get(path).expect(200, { di: false })
      })

      it('disposes the request scope after the response, inits the container on ready and disposes it on close', async () => {
        const container = freshContainer()
        const app = await topology(mode, { plugin: awilixWithRequestValues, options: { container }, probe })
        const database = container.resolve<Database>('database')
        expect(database.state, 'asyncInit on ready').to.equal('connected')
        const before = RequestCounter.disposed
        await request(app.server).get('/inside/probe').expect(200)
        await until(() => RequestCounter.disposed > before)
        expect(RequestCounter.disposed).to.equal(before + 1)
        await app.close()
        expect(database.state, 'asyncDispose on close').to.equal('closed')
      })
    })
  }

  it("works beside Enclave's own DI: a controller gets an Enclave provider and the request's awilix scope", async () => {
    @injectable() class Clock { now(): string { return 'enclave-time' } }
    const container = freshContainer()
    @Route('/both')
    class BothController {
      constructor(private readonly clock: Clock) {}
      @Get('/') both(@Req() req: Request) {
        return { enclave: this.clock.now(), awilix: (req as DiRequest).diScope!.resolve('clock') === this.clock }
      }
    }
    // usePlugin hands an Enclave provider to awilix: both containers then serve the same instance.
    @Module({
      providers: [Clock],
      plugins: [usePlugin(fastifyAwilixPlugin, { inject: [Clock], useFactory: (clock: Clock) => { container.register({ clock: asValue(clock) }); return { container } } })],
      controllers: [BothController],
    })
    class AppModule {}
    const app = await createApp(AppModule)
    track(app)
    await request(app.server).get('/both').expect(200, { enclave: 'enclave-time', awilix: true })
  })
})
