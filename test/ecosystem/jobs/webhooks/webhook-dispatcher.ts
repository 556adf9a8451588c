import { randomUUID } from 'node:crypto'
import { Queue, UnrecoverableError, Worker, type Job } from 'bullmq'
import { Logger, injectable } from '../../../../src'
import { Clock, Config } from '../config'
import { RedisClient } from '../redis'
import { signatureHeader } from '../signature'
import { SubscribersStore, type EventName } from '../subscribers/subscribers-store'
import { HttpSender } from './http-sender'

interface Delivery { eventId: string; event: EventName; subscriberId: string; payload: unknown }
export interface DeadLetter extends Delivery { attempts: number; lastError: string; failedAt: string }

/**
 * One BullMQ job per (event, subscriber): retried with exponential backoff, then kept in a
 * dead-letter list. The body is signed when it is sent, so each attempt has a fresh timestamp.
 */
@injectable()
export class WebhookDispatcher {
  queue!: Queue<Delivery>
  worker!: Worker<Delivery>
  constructor(private readonly config: Config, private readonly redis: RedisClient, private readonly subscribers: SubscribersStore, private readonly sender: HttpSender, private readonly clock: Clock, private readonly log: Logger) {}

  async onModuleInit(): Promise<void> {
    const connection = this.redis.client
    const prefix = this.config.queuePrefix
    this.queue = new Queue('webhooks', { connection, prefix })
    this.worker = new Worker<Delivery>('webhooks', (job) => this.deliver(job), { connection, prefix, concurrency: 8 })
    this.worker.on('failed', (job, error) => {
      if (job === undefined) return
      // LPUSH to Redis can reject when Redis hiccups; nothing awaits a listener, so log it, not leave it unhandled.
      if (job.attemptsMade >= (job.opts.attempts ?? 1) || error instanceof UnrecoverableError) {
        this.deadLetter(job, error).catch((err: unknown) => this.log.error({ err, deliveryId: job.id }, 'dead letter not stored'))
      }
    })
    await Promise.all([this.queue.waitUntilReady(), this.worker.waitUntilReady()])
  }

  /** To the owner's own subscribers only: a job's id and result are its owner's, not every subscriber's. */
  async publish(owner: string, event: EventName, payload: unknown): Promise<number> {
    const eventId = randomUUID()
    const targets = (await this.subscribers.all()).filter((s) => s.owner === owner && s.events.includes(event))
    await this.queue.addBulk(targets.map((s) => ({
      name: event,
      data: { eventId, event, subscriberId: s.id, payload },
      opts: { jobId: `${eventId}.${s.id}`, attempts: this.config.webhookAttempts, backoff: { type: 'exponential', delay: this.config.webhookBackoffMs }, removeOnComplete: true, removeOnFail: true },
    })))
    return targets.length
  }

  private async deliver(job: Job<Delivery>): Promise<void> {
    const { eventId, event, subscriberId, payload } = job.data
    const log = this.log.child({ deliveryId: job.id, eventId, subscriberId })
    const subscriber = await this.subscribers.find(subscriberId)
    if (subscriber === undefined) throw new UnrecoverableError('subscriber deleted')
    const body = JSON.stringify({ id: eventId, type: event, data: payload })
    const headers = { 'content-type': 'application/json', 'webhook-id': eventId, 'webhook-signature': signatureHeader(subscriber.secret, this.clock.nowSeconds(), body) }
    const status = await this.sender.post(subscriber.url, headers, body)
    log.info({ status, attempt: job.attemptsMade + 1 }, 'webhook attempt')
    if (status < 200 || status > 299) throw new Error(`subscriber answered ${status}`)
  }

  private async deadLetter(job: Job<Delivery>, error: Error): Promise<void> {
    const entry: DeadLetter = { ...job.data, attempts: job.attemptsMade, lastError: error.message, failedAt: new Date().toISOString() }
    await this.redis.client.lpush('webhooks:dead', JSON.stringify(entry))
    this.log.warn({ deliveryId: job.id, subscriberId: job.data.subscriberId, error: error.message }, 'webhook dead-lettered')
  }

  async deadLetters(owner: string): Promise<DeadLetter[]> {
    const all = (await this.redis.client.lrange('webhooks:dead', 0, 999)).map((json) => JSON.parse(json) as DeadLetter)
    const mine = new Set((await this.subscribers.all()).filter((s) => s.owner === owner).map((s) => s.id))
    return all.filter((entry) => mine.has(entry.subscriberId))
  }

  async checkHealth(): Promise<boolean> { return this.worker.isRunning() }

  async beforeApplicationShutdown(): Promise<void> {
    await this.worker.close()
    await this.queue.close()
  }
}
