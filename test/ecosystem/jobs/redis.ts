import IORedis, { type Redis } from 'ioredis'
import { injectable } from '../../../src'
import { Config } from './config'

/** The app's one Redis client (BullMQ's workers make their own blocking connections from it). */
@injectable()
export class RedisClient {
  readonly client: Redis
  constructor(config: Config) {
    // BullMQ requires maxRetriesPerRequest: null on connections its workers use.
    this.client = new IORedis(config.redisUrl, { maxRetriesPerRequest: null, lazyConnect: false })
  }
  async checkHealth(): Promise<boolean> { return (await this.client.ping()) === 'PONG' }
  async onApplicationShutdown(): Promise<void> { await this.client.quit() }
}
