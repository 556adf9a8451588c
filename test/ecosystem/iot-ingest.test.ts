// The IoT ingest service of docs/recipes-iot-ingest.md (iot/ingest-service.ts) on a real redis-server
// and a real PostgreSQL (each started here on a free loopback port, stopped by pid), over real HTTP:
// what the recipe promises, each in a test named after it.
import 'reflect-metadata'
import { expect } from 'chai'
import { createHmac } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { deflateSync, gzipSync } from 'node:zlib'
import Redis from 'ioredis'
import { Client } from 'pg'
import { createApp, override, type App } from '../../src'
import { startPostgres, stopPostgres, untilOnlyConnection, type Postgres } from './postgres/processes'
import { startRedis, stop, type Child } from './redis/processes'
import { AppModule, Settings } from './iot/ingest-service'
import { until as untilHeld } from '../support/until'

const KEYS = { 'dev-a': 'secret-a', 'dev-b': 'secret-b' } as const
type Device = keyof typeof KEYS

interface Sent { status: number; headers: Headers; body: any }

function readings(device: string, n: number, from = 0): Array<Record<string, unknown>> {
  return Array.from({ length: n }, (_, i) => ({ messageId: `${device}-${from + i}`, ts: new Date(Date.UTC(2026, 10, 28, 9, 0, from + i)).toISOString(), metric: 'temperature', value: from + i }))
}

describe('IoT ingest service on Redis and PostgreSQL (docs/recipes-iot-ingest.md)', function () {
  this.timeout(30_000)
  let redisServer: { child: Child; port: number } | undefined
  let pg: Postgres | undefined
  let redis: Redis
  let db: Client
  let app: App | undefined
  let base = ''
  let lines: Array<Record<string, unknown>> = []

  before(async function () {
    this.timeout(90_000)
    ;[redisServer, pg] = await Promise.all([startRedis(), startPostgres()])
    redis = new Redis({ host: '127.0.0.1', port: redisServer.port, maxRetriesPerRequest: 1 })
    db = new Client({ connectionString: pg.url })
    await db.connect()
  })

  after(async function () {
    this.timeout(60_000)
    await app?.close()
    await db?.end()
    await redis?.quit()
    if (pg !== undefined) await untilOnlyConnection(pg.url)
    await stopPostgres(pg)
    await stop(redisServer?.child)
  })

  async function boot(settings: Partial<Settings> = {}): Promise<void> {
    await app?.close()
    await redis.flushdb()
    await redis.hset('device-keys', KEYS)
    await db.query('drop table if exists readings')
    lines = []
    const stream = new Writable({ write(chunk: Buffer, _encoding, done) { for (const line of chunk.toString().split('\n')) if (line !== '') lines.push(JSON.parse(line)); done() } })
    const config = Object.assign(new Settings(), { redisUrl: `redis://127.0.0.1:${redisServer!.port}`, databaseUrl: pg!.url, operatorKeys: ['op-key'] }, settings)
    app = await createApp(AppModule, { logger: { stream }, health: true, overrides: [override(Settings, { useValue: config })] })
    base = await app.listen({ port: 0, host: '127.0.0.1' })
  }

  async function send(device: Device | 'dev-x', items: unknown, options: { ndjson?: boolean; encoding?: 'gzip' | 'deflate'; key?: string; raw?: Buffer } = {}): Promise<Sent> {
    const raw = options.raw ?? Buffer.from(options.ndjson === true ? (items as unknown[]).map((item) => JSON.stringify(item)).join('\n') + '\n' : JSON.stringify(items))
    const key = options.key ?? (device in KEYS ? KEYS[device as Device] : 'nope')
    const headers: Record<string, string> = {
      'content-type': options.ndjson === true ? 'application/x-ndjson' : 'application/json',
      'x-device-id': device,
      'x-signature': 'sha256=' + createHmac('sha256', key).update(raw).digest('hex'),
    }
    let body = raw
    if (options.encoding !== undefined) {
      headers['content-encoding'] = options.encoding
      body = options.encoding === 'gzip' ? gzipSync(raw) : deflateSync(raw)
    }
    const response = await fetch(`${base}/ingest/readings`, { method: 'POST', headers, body })
    const text = await response.text()
    return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) }
  }

  async function get(path: string, key = 'op-key'): Promise<Sent> {
    const response = await fetch(base + path, { headers: { authorization: `Bearer ${key}` } })
    const text = await response.text()
    return { status: response.status, headers: response.headers, body: response.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text }
  }

  async function stored(device: string): Promise<number> {
    const { rows } = await db.query<{ n: number }>('select count(*)::int as n from readings where device_id = $1', [device])
    return rows[0]!.n
  }

  const until = (what: string, check: () => Promise<boolean>): Promise<void> => untilHeld(check, what, { ms: 5_000, every: 25 })

  it('takes a signed JSON array, NDJSON lines, and gzip- or deflate-encoded bodies signed over the decoded bytes, and writes each reading once', async () => {
    await boot()
    expect(await send('dev-a', readings('dev-a', 3))).to.deep.include({ status: 202, body: { accepted: 3, duplicates: 0, rejected: [] } })
    expect((await send('dev-a', readings('dev-a', 3, 10), { ndjson: true })).body).to.deep.equal({ accepted: 3, duplicates: 0, rejected: [] })
    expect((await send('dev-a', readings('dev-a', 3, 20), { encoding: 'gzip' })).body).to.deep.equal({ accepted: 3, duplicates: 0, rejected: [] })
    expect((await send('dev-a', readings('dev-a', 3, 30), { ndjson: true, encoding: 'deflate' })).body).to.deep.equal({ accepted: 3, duplicates: 0, rejected: [] })
    await until('12 rows', async () => (await stored('dev-a')) === 12)
  })

  it('reports every bad item by index (a bad NDJSON line too) and takes the good ones; a batch with none good is a coded 400', async () => {
    await boot()
    const items = readings('dev-a', 4)
    items[1] = { ...items[1], value: 'hot' }
    items[3] = { messageId: 'x', metric: 'wind' }
    const raw = Buffer.from(items.map((item) => JSON.stringify(item)).join('\n') + '\n{not json\n')
    const sent = await send('dev-a', undefined, { ndjson: true, raw })
    expect(sent.status).to.equal(202)
    expect(sent.body).to.deep.equal({ accepted: 2, duplicates: 0, rejected: [
      { index: 1, message: '/value should be number' },
      { index: 3, message: "item should have required property 'ts'" },
      { index: 4, message: 'line 5 is not JSON' },
    ] })
    const none = await send('dev-a', [{ value: 1 }])
    expect(none.status).to.equal(400)
    expect(none.body).to.include({ code: 'BATCH_INVALID' })
  })

  it('refuses a bad signature, an unknown device and a missing device id with coded 401s, writing nothing', async () => {
    await boot()
    expect((await send('dev-a', readings('dev-a', 2), { key: 'secret-b' })).body).to.include({ statusCode: 401, code: 'SIGNATURE_INVALID' })
    expect((await send('dev-x', readings('dev-x', 2))).body).to.include({ statusCode: 401, code: 'DEVICE_UNKNOWN' })
    const response = await fetch(`${base}/ingest/readings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[]' })
    expect(await response.json()).to.include({ statusCode: 401, code: 'DEVICE_ID_MISSING' })
    expect(await stored('dev-a')).to.equal(0)
  })

  it('deduplicates by message id: a batch sent again is counted as duplicates and stored once', async () => {
    await boot()
    const batch = readings('dev-a', 5)
    expect((await send('dev-a', batch)).body).to.deep.include({ accepted: 5, duplicates: 0 })
    expect((await send('dev-a', batch.slice(2).concat(readings('dev-a', 1, 9)))).body).to.deep.include({ accepted: 1, duplicates: 3 })
    await until('6 rows', async () => (await stored('dev-a')) === 6)
  })

  it('a slow database fills the bounded queue: then 503 INGEST_QUEUE_FULL with Retry-After, and what was taken is written once the database is back', async () => {
    await boot({ queueCapacity: 10 })
    const locker = new Client({ connectionString: pg!.url })
    await locker.connect()
    await locker.query('begin')
    await locker.query('lock table readings in access exclusive mode')   // the writer's INSERT now waits
    try {
      expect((await send('dev-a', readings('dev-a', 6))).status).to.equal(202)
      expect((await send('dev-a', readings('dev-a', 4, 6))).status).to.equal(202)
      const full = await send('dev-a', readings('dev-a', 1, 10))
      expect(full.status).to.equal(503)
      expect(full.headers.get('retry-after')).to.equal('2')
      expect(full.body).to.include({ code: 'INGEST_QUEUE_FULL' })
      expect((await get('/metrics')).body).to.match(/^ingest_queue_depth 10$/m)
    } finally {
      await locker.query('commit')
      await locker.end()
    }
    await until('10 rows', async () => (await stored('dev-a')) === 10)
    // The refused reading was not marked as seen: sent again, it is taken.
    expect((await send('dev-a', readings('dev-a', 1, 10))).body).to.deep.include({ accepted: 1, duplicates: 0 })
  })

  it('close() drains the queue: readings taken while the database was slow are written before the pool ends', async () => {
    await boot()
    const locker = new Client({ connectionString: pg!.url })
    await locker.connect()
    await locker.query('begin')
    await locker.query('lock table readings in access exclusive mode')
    expect((await send('dev-b', readings('dev-b', 50))).body).to.deep.include({ accepted: 50 })
    const closing = app!.close()
    app = undefined
    // The lock is held until the drain has begun (its line, with what it still has to write).
    await until('the drain to begin', async () => lines.some((line) => line.msg === 'draining the ingest queue'))
    await locker.query('commit')
    await locker.end()
    await closing
    expect(await stored('dev-b')).to.equal(50)
    expect(lines.some((line) => line.msg === 'draining the ingest queue' && line.queued === 50)).to.equal(true)
  })

  it('rate-limits per device: past its quota a device gets 429, another device is still taken', async () => {
    await boot({ devicePerWindow: 2, rateWindowMs: 60_000 })   // a window no slow run outlasts
    const statuses = []
    for (let i = 0; i < 3; i++) statuses.push((await send('dev-a', readings('dev-a', 1, i))).status)
    expect(statuses).to.deep.equal([202, 202, 429])
    expect((await send('dev-b', readings('dev-b', 1))).status).to.equal(202)
  })

  it('pages a time range with cursors (every reading once, in time order), aggregates it, and refuses a forged cursor and a missing key', async () => {
    await boot()
    await send('dev-a', readings('dev-a', 25))
    await until('25 rows', async () => (await stored('dev-a')) === 25)
    const range = 'from=2026-11-28T09:00:00Z&to=2026-11-28T10:00:00Z'
    const seen: string[] = []
    let cursor: string | null = null
    for (let pages = 0; pages < 10; pages++) {
      const page: Sent = await get(`/devices/dev-a/readings?${range}&limit=10${cursor === null ? '' : `&cursor=${cursor}`}`)
      expect(page.status).to.equal(200)
      seen.push(...page.body.items.map((item: { messageId: string }) => item.messageId))
      cursor = page.body.nextCursor
      if (cursor === null) break
    }
    expect(seen).to.deep.equal(readings('dev-a', 25).map((item) => item.messageId))
    const aggregates = await get(`/devices/dev-a/aggregates?${range}&bucket=minute`)
    expect(aggregates.body.buckets.map((b: { count: number }) => b.count)).to.deep.equal([25])
    expect(aggregates.body.buckets[0]).to.include({ min: 0, max: 24, avg: 12 })
    expect((await get(`/devices/dev-a/readings?${range}&cursor=bm9wZQ`)).body).to.include({ statusCode: 400, code: 'CURSOR_INVALID' })
    expect((await get(`/devices/dev-a/readings?${range}`, 'wrong')).status).to.equal(401)
  })

  it('streams a device\'s written readings live as Server-Sent Events, and only that device\'s', async () => {
    await boot()
    const controller = new AbortController()
    const response = await fetch(`${base}/devices/dev-a/live`, { headers: { authorization: 'Bearer op-key' }, signal: controller.signal })
    expect(response.headers.get('content-type')).to.match(/^text\/event-stream/)
    const reader = response.body!.getReader()
    await send('dev-b', readings('dev-b', 1))
    await send('dev-a', readings('dev-a', 2))
    let text = ''
    while ((text.match(/\n\n/g) ?? []).length < 2) text += Buffer.from((await reader.read()).value!).toString()
    controller.abort()
    expect(text).to.equal(readings('dev-a', 2).map((item) => `id: ${item.messageId}\ndata: ${JSON.stringify({ ...item, deviceId: 'dev-a' })}\n\n`).join(''))
  })

  it('logs the device id on the access log line of a signed request, answers readiness with each store\'s check, counts answers in /metrics', async () => {
    await boot()
    await send('dev-a', readings('dev-a', 1))
    await until('the access log line', async () => lines.some((line) => line.msg === 'request completed' && line.deviceId === 'dev-a'))
    expect((await get('/health/ready')).body).to.deep.equal({ status: 'ok', checks: { RedisClient: { status: 'up' }, Db: { status: 'up' } } })
    expect((await get('/metrics')).body).to.match(/^ingest_requests_total\{status="202"\} 1$/m)
  })

  it('limits the decoded body, not the bytes on the wire: a gzip bomb is a 413', async () => {
    await boot()
    const raw = Buffer.concat([Buffer.from('['), Buffer.alloc(20 * 1024 * 1024, 32), Buffer.from(']')])
    const sent = await send('dev-a', undefined, { raw, encoding: 'gzip' })
    expect(sent.status).to.equal(413)
    expect(sent.body).to.include({ code: 'ENC_ERR_CTP_BODY_TOO_LARGE' })
  })
})

describe('docs/recipes-iot-ingest.md shows the service this test runs', () => {
  it('its src/ingest-service.ts block is test/ecosystem/iot/ingest-service.ts, importing from enclave and declaring its request decorations, without the file\'s header comment', () => {
    const root = join(__dirname, '..', '..', '..')
    const doc = readFileSync(join(root, 'docs', 'recipes-iot-ingest.md'), 'utf8')
    const block = /```ts src\/ingest-service\.ts\n([\s\S]*?)```/.exec(doc)?.[1]
    const fixture = readFileSync(join(root, 'test', 'ecosystem', 'iot', 'ingest-service.ts'), 'utf8').replaceAll("'../../../src'", "'enclave'")
      .replace("// An app declares them on 'enclave'; the suite's tests declare theirs on the runtime's path.\ndeclare module '../../../src/runtime'", "declare module 'enclave'")
    expect(block).to.equal(fixture.slice(fixture.indexOf('import { createHmac')))
  })
})
