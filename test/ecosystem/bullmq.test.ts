// BullMQ 6 on a real redis-server this file starts (test/ecosystem/redis/processes.ts), in a module:
// a POST enqueues a job, a Worker in the same process (a provider: onModuleInit starts it,
// onApplicationShutdown closes it and the queue) processes it, a GET reports its state, a failing
// attempt is retried; the worker's progress is pushed to Server-Sent Events clients (a live feed
// with ids and Last-Event-ID replay, docs/streams-and-sse.md, "Stream replies, downloads and Server-Sent Events").
// After app.close() no connection of the app is left on the redis-server.
import 'reflect-metadata'
import { expect } from 'chai'
import { EventEmitter } from 'node:events'
import { get as httpGet, type IncomingMessage } from 'node:http'
import { PassThrough } from 'node:stream'
import Redis from 'ioredis'
import { Queue, Worker, type ConnectionOptions, type Job } from 'bullmq'
import { Body, Get, Headers, HttpError, Module, Params, Post, Reply, Route, createApp, inject, injectable, resolveProvider, type App } from '../../src'
import { track } from '../support/servers'
import { startRedis, stop, type Child } from './redis/processes'

const limitMs = 8_000
const REDIS = Symbol('redis connection options')

/** The live feed: every event has an id; the last 100 are kept for Last-Event-ID. */
@injectable()
class Feed {
  readonly events = new EventEmitter()
  private readonly history: { id: number; frame: string }[] = []
  private nextId = 1
  publish(data: unknown): void {
    const id = this.nextId++
    const frame = `id: ${id}\ndata: ${JSON.stringify(data)}\n\n`
    this.history.push({ id, frame })
    if (this.history.length > 100) this.history.shift()
    this.events.emit('event', frame)
  }
  /** A stream for one client: what it missed after `lastEventId`, then every new event. */
  subscribe(lastEventId: number | null): PassThrough {
    const stream = new PassThrough()
    stream.write('retry: 1000\n\n')
    if (lastEventId !== null) for (const event of this.history) if (event.id > lastEventId) stream.write(event.frame)
    const send = (frame: string): void => { stream.write(frame) }
    this.events.on('event', send)
    // 'close': the client left or close() ended the stream: unsubscribe, once.
    stream.once('close', () => { this.events.off('event', send) })
    return stream
  }
}

@injectable()
class Jobs {
  queue!: Queue
  worker!: Worker
  readonly attempts: number[] = []
  constructor(@inject(REDIS) private readonly connection: ConnectionOptions, private readonly feed: Feed) {}
  onModuleInit(): void {
    this.queue = new Queue('reports', { connection: this.connection })
    this.worker = new Worker('reports', async (job: Job<{ name: string; failFirst?: boolean }>) => {
      this.attempts.push(job.attemptsMade)
      if (job.data.failFirst === true && job.attemptsMade === 0) throw new Error('flaky upstream')
      await job.updateProgress(50)
      return { report: `${job.data.name}.csv` }
    }, { connection: this.connection })
    this.worker.on('progress', (job, progress) => this.feed.publish({ job: job.id, progress }))
    this.worker.on('completed', (job) => this.feed.publish({ job: job.id, state: 'completed' }))
  }
  async onApplicationShutdown(): Promise<void> {
    await this.worker.close()
    await this.queue.close()
  }
}

const NewReport = { type: 'object', properties: { name: { type: 'string', minLength: 1 }, failFirst: { type: 'boolean' } }, required: ['name'], additionalProperties: false } as const

@Route('/reports')
class ReportsController {
  constructor(private readonly jobs: Jobs, private readonly feed: Feed) {}
  @Post('/', { schema: { body: NewReport } })
  async enqueue(@Body() body: { name: string; failFirst?: boolean }) {
    const job = await this.jobs.queue.add('report', body, { attempts: 3, backoff: { type: 'fixed', delay: 20 } })
    return { id: job.id }
  }
  @Get('/live')
  live(@Headers('last-event-id') lastEventId: string | undefined, @Reply() reply: Reply) {
    const last = lastEventId !== undefined && /^\d+$/.test(lastEventId) ? Number(lastEventId) : null
    return reply.type('text/event-stream').header('cache-control', 'no-cache').send(this.feed.subscribe(last))
  }
  @Get('/:id')
  async state(@Params('id') id: string) {
    // The state first, then the job: read the other way round, a job that completes between the two
    // reads is reported 'completed' with the fields of its earlier attempt (seen under load).
    const state = await this.jobs.queue.getJobState(id)
    const job = await this.jobs.queue.getJob(id)
    if (job === undefined || state === 'unknown') throw new HttpError(404, 'no such job')
    return { id, state, attemptsMade: job.attemptsMade, result: job.returnvalue ?? null }
  }
}

function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const limit = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: nothing within ${limitMs} ms`)), limitMs) })
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer))
}

/** An SSE client on node:http: its response, and the text read so far. */
function openFeed(base: string, headers: Record<string, string> = {}): Promise<{ response: IncomingMessage; text: () => string; until: (pattern: string) => Promise<void> }> {
  return new Promise((resolve, reject) => {
    const req = httpGet(`${base}/reports/live`, { headers }, (response) => {
      let text = ''
      const waiters: (() => void)[] = []
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => { text += chunk; for (const w of waiters.splice(0)) w() })
      const until = (pattern: string): Promise<void> => within(new Promise<void>((done) => {
        const check = (): void => { if (text.includes(pattern)) done(); else waiters.push(check) }
        check()
      }), `the feed to show ${pattern}`)
      resolve({ response, text: () => text, until })
    })
    req.on('error', reject)
  })
}

describe('BullMQ jobs and a Server-Sent Events feed in a module (test/ecosystem/bullmq.test.ts)', function () {
  this.timeout(20_000)
  let redis: Child | undefined
  let port = 0
  before(async () => { ({ child: redis, port } = await startRedis()) })
  after(async () => { await stop(redis) })

  async function boot(): Promise<{ app: App; base: string; jobs: Jobs; feed: Feed }> {
    const connection: ConnectionOptions = { host: '127.0.0.1', port, maxRetriesPerRequest: null }
    @Module({ providers: [{ provide: REDIS, useValue: connection }, Feed, Jobs], controllers: [ReportsController] })
    class OpsModule {}
    const app = track(await createApp(OpsModule))
    await app.listen({ port: 0, host: '127.0.0.1' })
    const address = app.server.address()
    if (address === null || typeof address === 'string') throw new Error('no port')
    return { app, base: `http://127.0.0.1:${address.port}`, jobs: resolveProvider(app, Jobs), feed: resolveProvider(app, Feed) }
  }

  const post = (base: string, body: unknown) => fetch(`${base}/reports`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

  async function stateOf(base: string, id: string, state: string): Promise<Record<string, unknown>> {
    for (const started = Date.now(); Date.now() - started < limitMs;) {
      const body = await (await fetch(`${base}/reports/${id}`)).json() as Record<string, unknown>
      if (body.state === state) return body
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    throw new Error(`job ${id} never reached ${state}`)
  }

  it('a POST enqueues a job, the worker processes it (a failed attempt retried), a GET reports it completed, the feed shows its progress', async () => {
    const { base, jobs } = await boot()
    const feed = await openFeed(base)
    expect(feed.response.statusCode).to.equal(200)
    expect(feed.response.headers['content-type']).to.equal('text/event-stream')
    const created = await post(base, { name: 'daily', failFirst: true })
    expect(created.status).to.equal(200)
    const { id } = await created.json() as { id: string }
    expect(await stateOf(base, id, 'completed')).to.deep.equal({ id, state: 'completed', attemptsMade: 2, result: { report: 'daily.csv' } })
    expect(jobs.attempts).to.deep.equal([0, 1])
    await feed.until(`"state":"completed"`)
    expect(feed.text()).to.include(`data: {"job":"${id}","progress":50}\n\n`)
    feed.response.destroy()
    expect((await fetch(`${base}/reports/999`)).status).to.equal(404)
    const invalid = await post(base, { name: '' })
    expect(invalid.status).to.equal(400)
    expect(await invalid.json()).to.include({ statusCode: 400, error: 'Bad Request' })
  })

  it('Last-Event-ID replays the events a reconnecting client missed, and only those', async () => {
    const { base, feed } = await boot()
    for (let i = 0; i < 3; i++) feed.publish({ n: i })   // ids 1, 2, 3
    const client = await openFeed(base, { 'last-event-id': '1' })
    await client.until('"n":2')
    feed.publish({ n: 3 })
    await client.until('"n":3')
    expect(client.text()).to.equal('retry: 1000\n\nid: 2\ndata: {"n":1}\n\nid: 3\ndata: {"n":2}\n\nid: 4\ndata: {"n":3}\n\n')
    client.response.destroy()
  })

  it('100 clients connecting and leaving leave no listener behind (each stream\'s close unsubscribes)', async () => {
    const { base, feed } = await boot()
    const warnings: Error[] = []
    const onWarning = (warning: Error): void => { warnings.push(warning) }
    process.on('warning', onWarning)
    try {
      for (let i = 0; i < 100; i++) {
        const client = await openFeed(base)
        await client.until('retry:')
        client.response.destroy()
      }
      // Each server-side stream closes once its socket does; bounded wait for the last ones.
      for (const started = Date.now(); feed.events.listenerCount('event') > 0 && Date.now() - started < limitMs;) await new Promise((resolve) => setTimeout(resolve, 10))
      expect(feed.events.listenerCount('event')).to.equal(0)
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).to.deep.equal([])
    } finally { process.off('warning', onWarning) }
  })

  it('app.close() ends the open feeds, closes the worker and the queue: no connection of the app is left on redis-server', async () => {
    const probe = new Redis({ host: '127.0.0.1', port, lazyConnect: true })
    await probe.connect()
    try {
      await probe.client('SETNAME', 'probe')
      const others = async (): Promise<number> => (String(await probe.client('LIST'))).trim().split('\n').filter((line) => !line.includes('name=probe')).length
      const before = await others()
      const { app, base, jobs } = await boot()
      const { id } = await (await post(base, { name: 'weekly' })).json() as { id: string }
      await stateOf(base, id, 'completed')
      expect(await others()).to.be.greaterThan(before)
      const client = await openFeed(base)
      const ended = new Promise<void>((resolve) => client.response.once('end', () => resolve()))
      await within(app.close(), 'app.close()')
      await within(ended, 'the feed ended cleanly by close()')
      expect(jobs.worker.isRunning()).to.equal(false)
      expect(await others()).to.equal(before)
    } finally { await probe.quit() }
  })
})
