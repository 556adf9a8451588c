// Issue 13 §2: two Enclave processes with no shared memory enforce one rate limit through
// @fastify/rate-limit's Redis store (ioredis), against a real redis-server that this test starts
// on a free loopback port and stops by pid. Without redis-server the test fails (never skips).
import { expect } from 'chai'
import { join } from 'node:path'
import request from 'supertest'
import { start, startRedis, stop, waitForOutput, type Child } from './redis/processes'

const appScript = join(__dirname, 'redis', 'rate-limited-app.js')

describe('two Enclave processes share one rate limit through Redis (issue 13 §2)', function () {
  this.timeout(40_000)
  let redis: Child | undefined
  const apps: Child[] = []
  const urls: string[] = []

  before(async () => {
    const started = await startRedis()
    redis = started.child
    const port = started.port
    for (let i = 0; i < 2; i++) {
      const app = start(process.execPath, [appScript, String(port)])
      apps.push(app)
      urls.push((await waitForOutput(app, /listening on (http:\/\/\S+)/, `app process ${i + 1}`))[1])
    }
  })

  after(async () => {
    for (const app of apps) await stop(app)
    await stop(redis)
  })

  it('counts requests to both processes against one limit: the 4th request is refused, whichever process gets it', async () => {
    const [a, b] = urls
    const pids = new Set<number>()
    const first = await request(a).get('/limited').expect(200)
    pids.add(first.body.pid)
    expect(first.headers['x-ratelimit-remaining']).to.equal('2')
    const second = await request(b).get('/limited').expect(200)
    pids.add(second.body.pid)
    expect(second.headers['x-ratelimit-remaining']).to.equal('1')
    const third = await request(a).get('/limited').expect(200)
    expect(third.headers['x-ratelimit-remaining']).to.equal('0')
    expect(pids.size, 'two processes answered').to.equal(2)
    for (const url of [b, a]) {
      const limited = await request(url).get('/limited').expect(429)
      // The wait is the key's remaining TTL rounded up to seconds: "1 minute" only within a second
      // of the first request, "59 seconds" after it (a slow machine). It is the Retry-After header.
      const retryAfter = Number(limited.headers['retry-after'])
      expect(retryAfter).to.be.within(1, 60)
      const wait = retryAfter === 60 ? '1 minute' : `${retryAfter} seconds`
      expect(limited.body).to.deep.equal({ statusCode: 429, error: 'Too Many Requests', message: `Rate limit exceeded, retry in ${wait}` })
      expect(limited.headers['x-ratelimit-limit']).to.equal('3')
    }
  })
})
