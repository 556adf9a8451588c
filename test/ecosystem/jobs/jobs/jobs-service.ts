import { createHash, randomUUID } from 'node:crypto'
import { PassThrough } from 'node:stream'
import { Queue, QueueEvents, UnrecoverableError, Worker, type Job } from 'bullmq'
import { HttpError, Logger, injectable } from '../../../../src'
import { Config } from '../config'
import { RedisClient } from '../redis'
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher'
import type { NewJob } from './job-schemas'

export interface JobView { id: string; type: string; state: string; progress?: number; attempts?: number; result?: Record<string, unknown>; failedReason?: string }
type JobResult = Record<string, unknown>
/** What is queued: the body plus the JWT subject that enqueued it, so only its owner sees or cancels it. */
type JobData = NewJob & { owner: string }

const shutdown = 'shutdown'

/** Waits `ms`, or less when `signal` aborts; its listener comes off either way (one per step otherwise piles up). */
const delay = (ms: number, signal?: AbortSignal) => new Promise<void>((resolve) => {
  const onAbort = () => { clearTimeout(timer); resolve() }
  const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve() }, ms)
  signal?.addEventListener('abort', onAbort, { once: true })
})

/** The queue, its worker and its events; the worker starts with the app and drains when it closes. */
@injectable()
export class JobsService {
  queue!: Queue<JobData, JobResult>
  worker!: Worker<JobData, JobResult>
  events!: QueueEvents
  constructor(private readonly config: Config, private readonly redis: RedisClient, private readonly webhooks: WebhookDispatcher, private readonly log: Logger) {}

  async onModuleInit(): Promise<void> {
    const connection = this.redis.client
    const prefix = this.config.queuePrefix
    this.queue = new Queue('jobs', { connection, prefix })
    this.events = new QueueEvents('jobs', { connection: connection.duplicate(), prefix })
    this.worker = new Worker<JobData, JobResult>('jobs', (job, _token, signal) => this.run(job, signal), { connection, prefix, concurrency: 4 })
    // publish() reads subscribers and adds to a queue on Redis: when Redis hiccups it rejects, and
    // nothing awaits an event listener, so the rejection is logged here rather than left unhandled.
    this.worker.on('completed', (job, result) => {
      this.webhooks.publish(job.data.owner, 'job.completed', { id: job.id, type: job.data.type, result }).catch((error: unknown) => this.log.error({ err: error, jobId: job.id }, 'job.completed webhook not published'))
    })
    this.worker.on('failed', (job, error) => {
      if (job === undefined) return
      if (job.attemptsMade >= (job.opts.attempts ?? 1) || error instanceof UnrecoverableError) {
        this.webhooks.publish(job.data.owner, 'job.failed', { id: job.id, type: job.data.type, reason: error.message }).catch((err: unknown) => this.log.error({ err, jobId: job.id }, 'job.failed webhook not published'))
      }
    })
    await Promise.all([this.queue.waitUntilReady(), this.events.waitUntilReady(), this.worker.waitUntilReady()])
  }

  /** Runs one job; every line it logs carries the job's id. */
  private async run(job: Job<JobData, JobResult>, signal?: AbortSignal): Promise<JobResult> {
    const log = this.log.child({ jobId: job.id, jobType: job.data.type })
    log.info({ attempt: job.attemptsMade + 1 }, 'job started')
    const data = job.data
    if (data.type === 'email') {
      log.info({ to: data.to }, 'email sent')
      return { delivered: true }
    }
    for (let step = 1; step <= data.steps; step++) {
      await delay(data.stepMs, signal)
      if (signal?.aborted === true) {
        // Stopped by shutdown: a plain error, so BullMQ retries it; cancelled by a client: never retried.
        if (signal.reason === shutdown) { log.warn({ step }, 'job stopped by shutdown'); throw new Error('stopped by shutdown') }
        log.warn({ step }, 'job cancelled')
        throw new UnrecoverableError('cancelled')
      }
      await job.updateProgress(Math.round((step / data.steps) * 100))
    }
    log.info('job finished')
    return { rows: data.steps * 1000 }
  }

  /**
   * Enqueues once per (owner, idempotency key): the same key and body answer the owner's first job;
   * another body is a 422. The key is scoped by the caller's subject, so another user's key never
   * hands out someone else's job.
   */
  async enqueue(body: NewJob, idempotencyKey: string | undefined, owner: string): Promise<{ job: JobView; created: boolean }> {
    const id = randomUUID()
    const key = idempotencyKey === undefined ? undefined : `idempotency:${owner}:${idempotencyKey}`
    if (key !== undefined) {
      const fingerprint = createHash('sha256').update(JSON.stringify(body)).digest('hex')
      const stored = await this.redis.client.set(key, JSON.stringify({ fingerprint, id }), 'EX', 86_400, 'NX')
      if (stored === null) {
        const previous = JSON.parse((await this.redis.client.get(key)) ?? '{}') as { fingerprint?: string; id?: string }
        if (previous.fingerprint !== fingerprint) throw new HttpError(422, 'Idempotency-Key was used with another body')
        return { job: await this.status(previous.id ?? '', owner), created: false }
      }
    }
    try {
      await this.queue.add(body.type, { ...body, owner }, { jobId: id, attempts: 3, backoff: { type: 'exponential', delay: 200 }, removeOnComplete: { age: 86_400 } })
    } catch (error) {
      // The key would otherwise point at a job that was never queued for 24 h: a retry must enqueue.
      if (key !== undefined) await this.redis.client.del(key).catch(() => undefined)
      throw error
    }
    return { job: { id, type: body.type, state: 'waiting' }, created: true }
  }

  /** The job, if `owner` enqueued it: another user's job is a 404 like a missing one, so ids do not leak. */
  private async owned(id: string, owner: string): Promise<Job<JobData, JobResult>> {
    const job = await this.queue.getJob(id)
    if (job === undefined || job.data.owner !== owner) throw new HttpError(404, `Job ${id} not found`)
    return job
  }

  async status(id: string, owner: string): Promise<JobView> {
    const job = await this.owned(id, owner)
    const state = await job.getState()
    const view: JobView = { id, type: job.data.type, state, attempts: job.attemptsMade }
    if (typeof job.progress === 'number') view.progress = job.progress
    if (job.returnvalue !== null && job.returnvalue !== undefined) view.result = job.returnvalue
    if (job.failedReason) view.failedReason = job.failedReason
    return view
  }

  /** Waiting or delayed: removed. Running in this process: its signal aborts and it fails unretried. */
  async cancel(id: string, owner: string): Promise<JobView> {
    const job = await this.owned(id, owner)
    const state = await job.getState()
    if (state === 'waiting' || state === 'delayed' || state === 'prioritized') {
      await job.remove()
      return { id, type: job.data.type, state: 'cancelled' }
    }
    if (state === 'active' && this.worker.cancelJob(id, 'cancelled by request')) return { id, type: job.data.type, state: 'cancelling' }
    throw new HttpError(409, `Job ${id} is ${state} and cannot be cancelled`)
  }

  /**
   * Server-Sent Events: the current state, then progress, then the end state; the stream ends with
   * the job. It listens before it reads the state: read first, a job ending between the read and the
   * subscription would never be seen and the stream would stay open for good. Events that arrive
   * before the state is read wait for it, so `state` is always the first event.
   */
  async progressStream(id: string, owner: string): Promise<PassThrough> {
    const stream = new PassThrough()
    const send = (event: string, data: unknown) => { if (!stream.writableEnded) stream.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`) }
    let live = false
    const early: (() => void)[] = []
    const whenLive = (deliver: () => void) => { if (live) deliver(); else early.push(deliver) }
    const onProgress = ({ jobId, data }: { jobId: string; data: unknown }) => {
      if (jobId === id) whenLive(() => send('progress', { id, progress: data }))
    }
    const onEnd = (state: 'completed' | 'failed') => ({ jobId }: { jobId: string }) => {
      if (jobId !== id) return
      whenLive(() => { void this.status(id, owner).then((view) => { send(state, view); stream.end() }, () => stream.end()) })
    }
    const onCompleted = onEnd('completed')
    const onFailed = onEnd('failed')
    this.events.on('progress', onProgress)
    this.events.on('completed', onCompleted)
    this.events.on('failed', onFailed)
    stream.once('close', () => {
      this.events.off('progress', onProgress)
      this.events.off('completed', onCompleted)
      this.events.off('failed', onFailed)
    })
    let first: JobView
    try {
      first = await this.status(id, owner)
    } catch (error) {
      stream.destroy()   // takes the listeners off (its 'close'); the 404 goes to the client
      throw error
    }
    send('state', first)
    if (first.state === 'completed' || first.state === 'failed') { stream.end(); return stream }
    live = true
    for (const deliver of early.splice(0)) deliver()
    return stream
  }

  async checkHealth(): Promise<boolean> {
    await this.queue.getJobCounts('waiting')   // throws when Redis cannot answer
    return this.worker.isRunning()
  }

  /** Graceful: running jobs get `drainMs` to finish; those still running then are aborted and fail retryably (BullMQ runs them again). */
  async beforeApplicationShutdown(): Promise<void> {
    const started = Date.now()
    const drained = this.worker.close()
    // The bound's timer is unref'd (it alone never keeps the process alive) and cleared once the
    // race is decided (a drain that ends early leaves no timer pending for the rest of drainMs).
    let bound: ReturnType<typeof setTimeout> | undefined
    const finished = await Promise.race([
      drained.then(() => true),
      new Promise<boolean>((resolve) => { bound = setTimeout(() => resolve(false), this.config.drainMs).unref() }),
    ])
    clearTimeout(bound)
    if (!finished) {
      this.log.warn({ drainMs: this.config.drainMs }, 'jobs still running at the drain bound: stopping them')
      this.worker.cancelAllJobs(shutdown)
      await drained
    }
    this.log.info({ ms: Date.now() - started, drained: finished }, 'workers stopped')
    await this.events.close()
    await this.queue.close()
  }
}
