// Scheduled tasks in a module, the two ways docs/recipes-realtime.md, "Scheduled tasks" shows: @fastify/schedule 7
// (toad-scheduler 4: `scope.scheduler`, stopped by the plugin's onClose hook) with a job a plugin
// entry adds from an injected service, and a provider's own setInterval started in
// onApplicationBootstrap and cleared in onModuleDestroy. A task every 50 ms runs while the app
// serves and never after close().
import 'reflect-metadata'
import { expect } from 'chai'
import fastifySchedule from '@fastify/schedule'
import { SimpleIntervalJob, Task, type ToadScheduler } from 'toad-scheduler'
import { Get, Module, Route, createApp, injectable, resolveProvider, usePlugin, type App, type Scope } from '../../src'
import { track } from '../support/servers'

const limitMs = 5_000
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

async function ticksReach(read: () => number, count: number): Promise<void> {
  for (const started = Date.now(); read() < count;) {
    if (Date.now() - started > limitMs) throw new Error(`only ${read()} ticks within ${limitMs} ms`)
    await sleep(20)
  }
}

@injectable()
class Heartbeat {
  ticks = 0
  beat(): void { this.ticks++ }
}

/** A plugin entry of the module: adds the job once @fastify/schedule (the entry before it) decorated the scope. */
async function heartbeatJob(scope: Scope, { heartbeat }: { heartbeat: Heartbeat }): Promise<void> {
  const { scheduler } = scope as Scope & { scheduler: ToadScheduler }
  scheduler.addSimpleIntervalJob(new SimpleIntervalJob({ milliseconds: 50 }, new Task('heartbeat', () => heartbeat.beat()), { id: 'heartbeat' }))
}

@injectable()
class Sweeper {
  ticks = 0
  private timer: NodeJS.Timeout | null = null
  onApplicationBootstrap(): void { this.timer = setInterval(() => { this.ticks++ }, 50) }
  onModuleDestroy(): void { if (this.timer !== null) clearInterval(this.timer); this.timer = null }
}

@Route('/ticks')
class TicksController {
  constructor(private readonly heartbeat: Heartbeat, private readonly sweeper: Sweeper) {}
  @Get('/')
  read() { return { heartbeat: this.heartbeat.ticks, sweeper: this.sweeper.ticks } }
}

@Module({
  providers: [Heartbeat, Sweeper],
  controllers: [TicksController],
  plugins: [fastifySchedule, usePlugin(heartbeatJob, { inject: [Heartbeat], useFactory: (heartbeat: Heartbeat) => ({ heartbeat }) })],
})
class OpsModule {}

describe('scheduled tasks in a module: @fastify/schedule and a provider\'s interval (test/ecosystem/schedule.test.ts)', function () {
  this.timeout(15_000)

  async function boot(): Promise<{ app: App; heartbeat: Heartbeat; sweeper: Sweeper }> {
    const app = track(await createApp(OpsModule))
    return { app, heartbeat: resolveProvider(app, Heartbeat), sweeper: resolveProvider(app, Sweeper) }
  }

  it('runs a 50 ms task both ways while the app serves; a route reads the counts', async () => {
    const { app, heartbeat, sweeper } = await boot()
    await ticksReach(() => Math.min(heartbeat.ticks, sweeper.ticks), 3)
    const response = await app.inject({ method: 'GET', url: '/ticks' })
    expect(response.statusCode).to.equal(200)
    const body = response.json() as { heartbeat: number; sweeper: number }
    expect(body.heartbeat).to.be.at.least(3)
    expect(body.sweeper).to.be.at.least(3)
  })

  it('close() stops both: no tick after it resolves (the plugin\'s onClose stops the scheduler, onModuleDestroy clears the interval)', async () => {
    const { app, heartbeat, sweeper } = await boot()
    await ticksReach(() => Math.min(heartbeat.ticks, sweeper.ticks), 2)
    await app.close()
    const after = { heartbeat: heartbeat.ticks, sweeper: sweeper.ticks }
    await sleep(250)   // five periods
    expect({ heartbeat: heartbeat.ticks, sweeper: sweeper.ticks }).to.deep.equal(after)
  })

  it('the job is declared in the module\'s context: the scheduler there knows it by id and reports it stopped after close()', async () => {
    let seen: ToadScheduler | undefined
    @Module({
      plugins: [fastifySchedule, async (scope: Scope) => { seen = (scope as Scope & { scheduler: ToadScheduler }).scheduler; seen.addSimpleIntervalJob(new SimpleIntervalJob({ milliseconds: 50 }, new Task('t', () => undefined), { id: 'probe' })) }],
    })
    class Probe {}
    const app = track(await createApp(Probe))
    expect(seen!.getById('probe').getStatus()).to.equal('running')
    await app.close()
    expect(seen!.getById('probe').getStatus()).to.equal('stopped')
  })
})
