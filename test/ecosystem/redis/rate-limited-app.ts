// One Enclave process of the two-process rate-limit test: @fastify/rate-limit with its Redis
// store (ioredis), as its README configures it. Started by redis-rate-limit.test.ts as
// `node rate-limited-app.js <redisPort>`; prints "listening on <url>" and stops on SIGTERM.
import Redis from 'ioredis'
import rateLimit from '@fastify/rate-limit'
import { createServer } from '../../../src'

async function main(): Promise<void> {
  const redisPort = Number(process.argv[2])
  const redis = new Redis({ host: '127.0.0.1', port: redisPort, connectTimeout: 2_000, maxRetriesPerRequest: 1 })
  const app = createServer()
  await app.register(rateLimit, { max: 3, timeWindow: 60_000, redis, nameSpace: 'enclave-test-', keyGenerator: () => 'shared-client' })
  app.get('/limited', async () => ({ pid: process.pid }))
  app.addHook('onClose', async () => { await redis.quit() })
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  process.stdout.write(`listening on ${address}\n`)
  process.once('SIGTERM', () => { app.close().then(() => process.exit(0), () => process.exit(1)) })
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`)
  process.exit(1)
})
