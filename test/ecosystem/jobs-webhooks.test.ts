// The jobs and webhooks service of docs/recipes-jobs-webhooks.md (test/ecosystem/jobs/), over real
// HTTP on a real redis-server this file starts: job bodies told apart by a discriminator (ajv 8),
// Idempotency-Key, status, a progress stream (SSE), cancellation, workers drained by close(),
// outgoing webhooks signed Stripe-style and retried with backoff against a loopback receiver that
// fails first, a dead-letter list, inbound webhooks checked over the raw body, readiness.
import 'reflect-metadata'
import { expect } from 'chai'
import { createServer as createHttpServer, get as httpGet, type IncomingMessage, type Server } from 'node:http'
import request from 'supertest'
import addFormats from 'ajv-formats'
import { ajv8CompilersFactory, createApp, override, resolveProvider, type App } from '../../src'
import { AppModule } from './jobs/app-module'
import { Clock, Config } from './jobs/config'
import { JobsService } from './jobs/jobs/jobs-service'
import { signatureHeader, verifySignature } from './jobs/signature'
import { startRedis, stop, type Child } from './redis/processes'
import { until } from '../support/until'

const limitMs = 10_000
const within = { ms: limitMs, every: 20 }
const fixedNow = 1_790_000_000

let redis: { child: Child; port: number } | undefined
let prefixes = 0

async function boot(change: Partial<Config> = {}): Promise<{ app: App; token: string; owner: string; tokenFor(sub: string): string }> {
  const config = Object.assign(new Config(), { redisUrl: `redis://127.0.0.1:${redis!.port}`, webhookAttempts: 3, webhookBackoffMs: 20, drainMs: 5_000, queuePrefix: `t${++prefixes}` }, change)
  const app = await createApp(AppModule, {
    health: true,
    schemaController: { compilersFactory: ajv8CompilersFactory({ customOptions: { discriminator: true }, plugins: [addFormats] }) },
    overrides: [override(Config, { useValue: config }), override(Clock, { useValue: { nowSeconds: () => fixedNow } })],
  })
  const tokenFor = (sub: string) => (app as unknown as { jwt: { sign(payload: object): string } }).jwt.sign({ sub })
  const owner = `owner-${prefixes}`
  return { app, token: tokenFor(owner), owner, tokenFor }
}

/**
 * Reads a whole Server-Sent Events response. Every failure rejects (an assertion thrown inside an
 * http callback would be an uncaught exception, not this test's failure), and the bound's timer is
 * cleared when the stream ends, so it neither fires late nor holds the process.
 */
function readEventStream(url: string, token: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const req = httpGet(url, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      const type = res.headers['content-type'] ?? ''
      if (res.statusCode !== 200 || !/^text\/event-stream/.test(type)) {
        clearTimeout(bound)
        res.resume()
        reject(new Error(`expected a 200 text/event-stream, got ${res.statusCode} ${type}`))
        return
      }
      let body = ''
      res.on('data', (chunk: Buffer) => { body += chunk.toString() })
      res.on('end', () => { clearTimeout(bound); resolve(body) })
      res.on('error', (error) => { clearTimeout(bound); reject(error) })
    })
    const bound = setTimeout(() => { req.destroy(); reject(new Error(`stream did not end within ${limitMs} ms`)) }, limitMs)
    req.on('error', (error) => { clearTimeout(bound); reject(error) })
  })
}

/** A subscriber's endpoint on loopback: answers `failFirst` attempts 503, then 200; keeps what it got. */
async function receiver(failFirst: number): Promise<{ url: string; server: Server; got: { headers: IncomingMessage['headers']; body: string; status: number }[] }> {
  const got: { headers: IncomingMessage['headers']; body: string; status: number }[] = []
  const server = createHttpServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => { body += chunk.toString() })
    req.on('end', () => {
      const status = got.length < failFirst ? 503 : 200
      got.push({ headers: req.headers, body, status })
      res.writeHead(status).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  return { url: `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/hook`, server, got }
}

describe('recipe: a jobs and webhooks service on BullMQ (docs/recipes-jobs-webhooks.md)', function () {
  this.timeout(30_000)
  before(async () => { redis = await startRedis() })
  after(async () => { await stop(redis?.child) })

  it('POST /jobs: a JWT is required, each job type is validated by its own branch (discriminator), an Idempotency-Key answers the first job', async () => {
    const { app, token } = await boot()
    try {
      const auth = `Bearer ${token}`
      await request(app.server).post('/jobs').send({ type: 'email' }).expect(401)
      const email = await request(app.server).post('/jobs').set('authorization', auth).send({ type: 'email', to: 'not-an-address', subject: 'hi' }).expect(400)
      expect(email.body.message).to.equal('body/to must match format "email"')   // only the email branch's error
      const unknown = await request(app.server).post('/jobs').set('authorization', auth).send({ type: 'fax' }).expect(400)
      expect(unknown.body.message).to.equal('body value of tag "type" must be in oneOf')
      const first = await request(app.server).post('/jobs').set('authorization', auth).set('idempotency-key', 'key-00000001').send({ type: 'export', steps: 1, stepMs: 0 }).expect(202)
      expect(first.headers.location).to.equal(`/jobs/${first.body.id}`)
      const again = await request(app.server).post('/jobs').set('authorization', auth).set('idempotency-key', 'key-00000001').send({ type: 'export', steps: 1, stepMs: 0 }).expect(200)
      expect(again.body.id).to.equal(first.body.id)
      await request(app.server).post('/jobs').set('authorization', auth).set('idempotency-key', 'key-00000001').send({ type: 'export', steps: 2, stepMs: 0 }).expect(422)
      let done: unknown
      await until(async () => {
        done = (await request(app.server).get(`/jobs/${first.body.id}`).set('authorization', auth)).body
        return (done as { state: string }).state === 'completed'
      }, 'the job completes', within)
      expect(done).to.deep.include({ type: 'export', result: { rows: 1000 } })
    } finally { await app.close() }
  })

  it('GET /jobs/:id/events streams the progress as Server-Sent Events and ends with the job', async () => {
    const { app, token } = await boot()
    try {
      const address = await app.listen({ port: 0, host: '127.0.0.1' })
      const job = await request(app.server).post('/jobs').set('authorization', `Bearer ${token}`).send({ type: 'export', steps: 3, stepMs: 150 }).expect(202)
      const text = await readEventStream(`${address}/jobs/${job.body.id}/events`, token)
      const events = text.split('\n\n').filter(Boolean).map((frame) => frame.split('\n')[0])
      expect(events[0]).to.equal('event: state')
      expect(events.filter((e) => e === 'event: progress').length).to.be.at.least(1)
      expect(events.at(-1)).to.equal('event: completed')
      expect(text).to.contain('"progress":100')
    } finally { await app.close() }
  })

  it('GET /jobs/:id/events still ends when the job ends while the stream reads its state (it subscribes before it reads)', async () => {
    const { app, token, owner } = await boot()
    try {
      const address = await app.listen({ port: 0, host: '127.0.0.1' })
      const jobs = resolveProvider(app, JobsService)
      const job = await request(app.server).post('/jobs').set('authorization', `Bearer ${token}`).send({ type: 'export', steps: 2, stepMs: 100 }).expect(202)
      // The stream's state read hands back its (not yet final) view only once the job has finished:
      // the job ends inside the read, the window that read-then-subscribe code misses for good.
      const read = jobs.status.bind(jobs)
      const firstRead: string[] = []
      jobs.status = async (id: string, who: string) => {
        const view = await read(id, who)
        if (firstRead.length === 0) {
          firstRead.push(view.state)
          await until(async () => (await jobs.queue.getJob(id))?.finishedOn !== undefined, 'the job finishes', within)
        }
        return view
      }
      const text = await readEventStream(`${address}/jobs/${job.body.id}/events`, token)
      expect(['waiting', 'active']).to.include(firstRead[0])   // the read really saw the job before its end
      const events = text.split('\n\n').filter(Boolean).map((frame) => frame.split('\n')[0])
      expect(events[0]).to.equal('event: state')
      expect(events.at(-1)).to.equal('event: completed')
      expect(await read(job.body.id, owner)).to.include({ state: 'completed' })
    } finally { await app.close() }
  })

  it('jobs belong to the token subject that enqueued them: another user with the same Idempotency-Key gets a job of its own and cannot read, stream or cancel the first (404)', async () => {
    const { app, token, tokenFor } = await boot()
    try {
      const ada = `Bearer ${token}`
      const bob = `Bearer ${tokenFor('bob')}`
      const body = { type: 'export', steps: 50, stepMs: 100 }
      const adas = await request(app.server).post('/jobs').set('authorization', ada).set('idempotency-key', 'shared-key-1').send(body).expect(202)
      const bobs = await request(app.server).post('/jobs').set('authorization', bob).set('idempotency-key', 'shared-key-1').send(body).expect(202)
      expect(bobs.body.id).to.not.equal(adas.body.id)
      await request(app.server).get(`/jobs/${adas.body.id}`).set('authorization', bob).expect(404)
      await request(app.server).get(`/jobs/${adas.body.id}/events`).set('authorization', bob).expect(404)
      await request(app.server).delete(`/jobs/${adas.body.id}`).set('authorization', bob).expect(404)
      await request(app.server).get(`/jobs/${bobs.body.id}`).set('authorization', bob).expect(200)
      await request(app.server).get(`/jobs/${adas.body.id}`).set('authorization', ada).expect(200)   // Bob's DELETE removed nothing
      // Both cancelled by their owners, so close() need not wait out 5 s jobs.
      for (const [auth, id] of [[ada, adas.body.id], [bob, bobs.body.id]]) await request(app.server).delete(`/jobs/${id}`).set('authorization', auth).expect(200)
    } finally { await app.close() }
  })

  it('DELETE /jobs/:id stops a running job (its signal aborts; it fails unretried) and removes a waiting one', async () => {
    const { app, token } = await boot()
    try {
      const auth = `Bearer ${token}`
      const job = await request(app.server).post('/jobs').set('authorization', auth).send({ type: 'export', steps: 50, stepMs: 100 }).expect(202)
      await until(async () => (await request(app.server).get(`/jobs/${job.body.id}`).set('authorization', auth)).body.state === 'active', 'the job runs', within)
      expect((await request(app.server).delete(`/jobs/${job.body.id}`).set('authorization', auth).expect(200)).body.state).to.equal('cancelling')
      let failed: unknown
      await until(async () => {
        failed = (await request(app.server).get(`/jobs/${job.body.id}`).set('authorization', auth)).body
        return (failed as { state: string }).state === 'failed'
      }, 'the job fails', within)
      expect(failed).to.include({ failedReason: 'cancelled', attempts: 1 })
      await request(app.server).delete('/jobs/no-such-job').set('authorization', auth).expect(404)
    } finally { await app.close() }
  })

  it('outgoing webhooks are signed (t=..,v1=HMAC of "t.body") and retried with backoff until the subscriber answers 2xx; another user\'s subscriber gets nothing', async () => {
    const { app, token, tokenFor } = await boot()
    const hook = await receiver(2)
    const bobHook = await receiver(0)
    try {
      const auth = `Bearer ${token}`
      await request(app.server).post('/subscribers').set('authorization', `Bearer ${tokenFor('bob')}`).send({ url: bobHook.url, events: ['job.completed'] }).expect(201)
      const subscriber = await request(app.server).post('/subscribers').set('authorization', auth).send({ url: hook.url, events: ['job.completed'] }).expect(201)
      expect(subscriber.body.secret).to.match(/^whsec_/)
      expect((await request(app.server).get(`/subscribers/${subscriber.body.id}`).set('authorization', auth).expect(200)).body).to.not.have.property('secret')
      const job = await request(app.server).post('/jobs').set('authorization', auth).send({ type: 'email', to: 'ada@example.com', subject: 'hi' }).expect(202)
      await until(() => hook.got.length >= 3, () => `three attempts (got ${hook.got.length})`, within)
      expect(hook.got.map((g) => g.status)).to.deep.equal([503, 503, 200])
      const last = hook.got[2]
      const event = JSON.parse(last.body) as { id: string; type: string; data: { id: string } }
      expect(event).to.deep.include({ type: 'job.completed' })
      expect(event.data.id).to.equal(job.body.id)
      expect(last.headers['webhook-signature']).to.equal(signatureHeader(subscriber.body.secret, fixedNow, last.body))
      expect(verifySignature(subscriber.body.secret, String(last.headers['webhook-signature']), Buffer.from(last.body), fixedNow)).to.deep.equal({ ok: true })
      expect(new Set(hook.got.map((g) => g.headers['webhook-id']))).to.have.property('size', 1)   // one event id across attempts
      // Bob's delivery, had it been queued, would have gone out with the first attempt, before two backoffs.
      expect(bobHook.got).to.deep.equal([])
    } finally {
      await app.close()
      hook.server.close()
      bobHook.server.close()
    }
  })

  it('a delivery that fails every attempt goes to the dead-letter list its owner reads', async () => {
    const { app, token } = await boot()
    const hook = await receiver(100)
    try {
      const auth = `Bearer ${token}`
      const subscriber = await request(app.server).post('/subscribers').set('authorization', auth).send({ url: hook.url, events: ['job.completed'] }).expect(201)
      await request(app.server).post('/jobs').set('authorization', auth).send({ type: 'email', to: 'ada@example.com', subject: 'hi' }).expect(202)
      let dead: { subscriberId: string }[] = []
      await until(async () => {
        dead = (await request(app.server).get('/subscribers/dead-letters').set('authorization', auth).expect(200)).body
        return dead.length > 0
      }, 'a dead letter', within)
      expect(dead[0]).to.deep.include({ subscriberId: subscriber.body.id, attempts: 3, lastError: 'subscriber answered 503' })
      expect(hook.got).to.have.length(3)
    } finally {
      await app.close()
      hook.server.close()
    }
  })

  it('an inbound webhook is checked over its raw bytes: signed 200 (a redelivery enqueues nothing new), tampered or stale 401', async () => {
    const { app } = await boot()
    try {
      const secret = new Config().inboundSecret
      const body = JSON.stringify({ id: 'evt_1', type: 'report.requested', data: { steps: 1 } })
      const send = (raw: string, header: string) => request(app.server).post('/hooks/inbound/billing').set('content-type', 'application/json').set('webhook-signature', header).send(raw)
      const ok = await send(body, signatureHeader(secret, fixedNow, body)).expect(200)
      expect(ok.body).to.include({ received: 'evt_1', duplicate: false })
      expect((await send(body, signatureHeader(secret, fixedNow, body)).expect(200)).body).to.include({ job: ok.body.job, duplicate: true })
      await send(body.replace('"steps":1', '"steps":9'), signatureHeader(secret, fixedNow, body)).expect(401)
      await send(body.replace('"steps":1', '"steps": 1'), signatureHeader(secret, fixedNow, body)).expect(401)   // same JSON, other bytes
      await send(body, signatureHeader(secret, fixedNow - 301, body)).expect(401)
      await send(body, signatureHeader('whsec_other', fixedNow, body)).expect(401)
    } finally { await app.close() }
  })

  it('readiness names Redis, the job queue and the webhook queue; close() lets a running job finish within drainMs', async () => {
    const { app, token, owner } = await boot({ drainMs: 5_000 })
    const ready = await request(app.server).get('/health/ready').expect(200)
    expect(ready.body.checks).to.deep.equal({ RedisClient: { status: 'up' }, WebhookDispatcher: { status: 'up' }, JobsService: { status: 'up' } })
    const job = await request(app.server).post('/jobs').set('authorization', `Bearer ${token}`).send({ type: 'export', steps: 4, stepMs: 100 }).expect(202)
    const jobs = resolveProvider(app, JobsService)
    await until(async () => (await jobs.status(job.body.id, owner)).state === 'active', 'the job runs', within)
    const started = Date.now()
    await app.close()
    expect(Date.now() - started).to.be.below(5_000)
    const { app: next } = await boot({ queuePrefix: `t${prefixes}` })
    try {
      expect(await resolveProvider(next, JobsService).status(job.body.id, owner)).to.deep.include({ state: 'completed', progress: 100 })
    } finally { await next.close() }
  })

  it('close() stops a job still running at drainMs instead of waiting for it; the job is left to be retried', async () => {
    const { app, token, owner } = await boot({ drainMs: 200 })
    const job = await request(app.server).post('/jobs').set('authorization', `Bearer ${token}`).send({ type: 'export', steps: 100, stepMs: 100 }).expect(202)
    const jobs = resolveProvider(app, JobsService)
    await until(async () => (await jobs.status(job.body.id, owner)).state === 'active', 'the job runs', within)
    const started = Date.now()
    await app.close()
    expect(Date.now() - started).to.be.below(3_000)
    const { app: next } = await boot({ queuePrefix: `t${prefixes}`, drainMs: 100 })
    try {
      const state = (await resolveProvider(next, JobsService).status(job.body.id, owner)).state
      expect(['delayed', 'waiting', 'active']).to.include(state)   // retried with backoff, not failed
    } finally { await next.close() }
  })
})
