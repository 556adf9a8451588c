import { randomBytes, randomUUID } from 'node:crypto'
import { HttpError, injectable } from '../../../../src'
import { RedisClient } from '../redis'

export type EventName = 'job.completed' | 'job.failed'
export interface Subscriber { id: string; owner: string; url: string; events: EventName[]; secret: string; createdAt: string }

/** Subscribers in one Redis hash (id -> JSON); each owner sees and changes only its own. */
@injectable()
export class SubscribersStore {
  constructor(private readonly redis: RedisClient) {}

  async create(owner: string, input: { url: string; events: EventName[] }): Promise<Subscriber> {
    const subscriber: Subscriber = { id: randomUUID(), owner, url: input.url, events: input.events, secret: `whsec_${randomBytes(24).toString('hex')}`, createdAt: new Date().toISOString() }
    await this.redis.client.hset('subscribers', subscriber.id, JSON.stringify(subscriber))
    return subscriber
  }

  async all(): Promise<Subscriber[]> {
    return Object.values(await this.redis.client.hgetall('subscribers')).map((json) => JSON.parse(json) as Subscriber)
  }

  async find(id: string): Promise<Subscriber | undefined> {
    const json = await this.redis.client.hget('subscribers', id)
    return json === null ? undefined : JSON.parse(json) as Subscriber
  }

  async get(owner: string, id: string): Promise<Subscriber> {
    const found = await this.find(id)
    if (found === undefined || found.owner !== owner) throw new HttpError(404, `Subscriber ${id} not found`)
    return found
  }

  async update(owner: string, id: string, change: { url?: string; events?: EventName[] }): Promise<Subscriber> {
    const updated = { ...await this.get(owner, id), ...change }
    await this.redis.client.hset('subscribers', id, JSON.stringify(updated))
    return updated
  }

  async remove(owner: string, id: string): Promise<void> {
    await this.get(owner, id)
    await this.redis.client.hdel('subscribers', id)
  }
}
