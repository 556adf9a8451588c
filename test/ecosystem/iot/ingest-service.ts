// The IoT ingest service of docs/recipes-iot-ingest.md, as an app writes it (built by newcomer25a
// from the packed tarball; here importing the sources): devices POST signed batches (a JSON array or
// NDJSON, optionally gzip/deflate), each item checked on its own, deduplicated by message id in
// Redis, queued in a bounded queue written to PostgreSQL in batches (a full queue is a 503 with
// Retry-After; close() drains it), rate-limited per device; operators read ranges with cursors,
// aggregates and a live Server-Sent Events feed; health checks and Prometheus metrics.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { PassThrough } from 'node:stream'
import compress from '@fastify/compress'
import rateLimit from '@fastify/rate-limit'
import Redis from 'ioredis'
import { Pool } from 'pg'
import { Counter, Gauge, Registry } from 'prom-client'
import {
  Body, Get, HttpError, Logger, Module, OnRequest, OnResponse, Params, Post, PreValidation, Query, Reply, Req, Route,
  bearerAuthHook, injectable, lift, usePlugin, type BearerAuthHook, type Request, type Scope,
} from '../../../src'

/** Configuration, a provider: a test overrides it. */
export class Settings {
  redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
  databaseUrl = process.env.DATABASE_URL ?? 'postgres://app@127.0.0.1:5432/postgres'
  queueCapacity = 50_000           // readings held in memory at most: what bounds memory when the database is slow
  batchSize = 2_000                // readings per INSERT
  devicePerWindow = 20             // requests per device per rate window
  rateWindowMs = 1000
  operatorKeys = ['operator-dev-key']
}

export class RedisClient {
  constructor(readonly redis: Redis) {}
  async checkHealth(): Promise<boolean> { return (await this.redis.ping()) === 'PONG' }
}

export class Db {
  constructor(readonly pool: Pool) {}
  async checkHealth(): Promise<boolean> { await this.pool.query('select 1'); return true }
}

async function connectRedis(settings: Settings): Promise<RedisClient> {
  const redis = new Redis(settings.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 })
  await redis.connect()
  return new RedisClient(redis)
}

async function connectDb(settings: Settings): Promise<Db> {
  const pool = new Pool({ connectionString: settings.databaseUrl, max: 4 })
  await pool.query(`create table if not exists readings (
    device_id text not null, message_id text not null, ts timestamptz not null, metric text not null,
    value double precision not null, primary key (device_id, message_id))`)
  await pool.query('create index if not exists readings_by_time on readings (device_id, ts, message_id)')
  return new Db(pool)
}

/** Prometheus metrics in a registry of the app's own (prom-client's default one is process-wide). */
export class Metrics {
  readonly registry = new Registry()
  readonly written = new Counter({ name: 'ingest_readings_written_total', help: 'readings written to PostgreSQL', registers: [this.registry] })
  readonly requests = new Counter({ name: 'ingest_requests_total', help: 'ingest requests by status', labelNames: ['status'], registers: [this.registry] })
  depthOf: () => number = () => 0     // set by IngestQueue; read at scrape time
  readonly depth = new Gauge({ name: 'ingest_queue_depth', help: 'readings waiting for PostgreSQL', registers: [this.registry], collect: () => { this.depth.set(this.depthOf()) } })
}

export interface Reading { deviceId: string; messageId: string; ts: string; metric: string; value: number }

// An app declares them on 'enclave'; the suite's tests declare theirs on the runtime's path.
declare module '../../../src/runtime' {
  interface RequestDecorations { rawBody?: Buffer; deviceId?: string }
}

/** Subscribers to a device's live feed; a subscriber that falls 256 KiB behind is dropped (it reconnects). */
@injectable()
export class LiveHub {
  readonly #byDevice = new Map<string, Set<PassThrough>>()

  subscribe(deviceId: string): PassThrough {
    const stream = new PassThrough()
    const set = this.#byDevice.get(deviceId) ?? new Set<PassThrough>()
    this.#byDevice.set(deviceId, set.add(stream))
    stream.on('close', () => { set.delete(stream); if (set.size === 0) this.#byDevice.delete(deviceId) })
    return stream
  }

  publish(rows: readonly Reading[]): void {
    for (const row of rows) {
      for (const stream of this.#byDevice.get(row.deviceId) ?? []) {
        if (stream.writableLength > 256 * 1024) stream.destroy()
        else stream.write(`id: ${row.messageId}\ndata: ${JSON.stringify(row)}\n\n`)
      }
    }
  }
}

/**
 * The bounded queue between intake and PostgreSQL. Room is reserved before the (asynchronous) dedup,
 * so a batch is refused whole or taken whole; rows leave the queue only once written (a failed
 * INSERT is retried); the primary key is the last word on duplicates. A row PostgreSQL refuses as
 * data (SQLSTATE class 22: a date the schema's format let through, a NUL byte in text) is dropped
 * and logged, found by writing that batch row by row: retried, it would block the queue for good.
 * onClose(), at provider release (after the server stopped taking requests), waits for the writer
 * to empty it, or gives up after a few failed tries.
 */
@injectable()
export class IngestQueue {
  #rows: Reading[] = []
  #reserved = 0
  #writing: Promise<void> | undefined
  #closing = false
  #gaveUp = false

  constructor(private readonly settings: Settings, private readonly db: Db, private readonly hub: LiveHub,
    private readonly metrics: Metrics, private readonly log: Logger) {
    metrics.depthOf = () => this.depth
  }

  get depth(): number { return this.#rows.length + this.#reserved }

  reserve(n: number): () => void {
    if (this.#closing) throw new HttpError(503, 'shutting down, retry on another instance', { code: 'INGEST_CLOSING', headers: { 'retry-after': '1' } })
    if (this.depth + n > this.settings.queueCapacity) {
      throw new HttpError(503, `the ingest queue is full (${this.depth} of ${this.settings.queueCapacity} readings), retry later`,
        { code: 'INGEST_QUEUE_FULL', headers: { 'retry-after': '2' } })
    }
    this.#reserved += n
    let released = false
    return () => { if (!released) { released = true; this.#reserved -= n } }
  }

  push(rows: readonly Reading[]): void {
    this.#rows.push(...rows)
    this.#kick()
  }

  #kick(): void {
    if (this.#writing !== undefined || this.#rows.length === 0 || this.#gaveUp) return
    this.#writing = this.#drain().finally(() => { this.#writing = undefined; this.#kick() })
  }

  async #drain(): Promise<void> {
    let failures = 0
    while (this.#rows.length > 0) {
      const batch = this.#rows.slice(0, this.settings.batchSize)
      try {
        const written = await this.#write(batch)
        this.#rows.splice(0, batch.length)
        this.metrics.written.inc(written.length)
        this.hub.publish(written)
      } catch (error) {
        this.log.error({ err: error, queued: this.#rows.length }, 'batch insert failed; retrying')
        // Closing: give up after a few tries (logged), so close() finishes and no retry outlives the pool.
        if (this.#closing && ++failures >= 5) { this.#gaveUp = true; return }
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
    }
  }

  /** Writes the rows; a batch refused as data is written row by row, and the refused rows dropped. */
  async #write(batch: Reading[]): Promise<Reading[]> {
    try {
      await this.#insert(batch)
      return batch
    } catch (error) {
      if (!isDataError(error)) throw error
      const written: Reading[] = []
      for (const row of batch) {
        try {
          await this.#insert([row])
          written.push(row)
        } catch (rowError) {
          if (!isDataError(rowError)) throw rowError
          this.log.error({ err: rowError, deviceId: row.deviceId, messageId: row.messageId }, 'reading refused by the database; dropped')
        }
      }
      return written
    }
  }

  #insert(rows: readonly Reading[]): Promise<unknown> {
    return this.db.pool.query(
      `insert into readings (device_id, message_id, ts, metric, value)
       select * from unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[], $5::float8[]) on conflict do nothing`,
      [rows.map((r) => r.deviceId), rows.map((r) => r.messageId), rows.map((r) => r.ts), rows.map((r) => r.metric), rows.map((r) => r.value)])
  }

  async onClose(): Promise<void> {
    this.#closing = true
    this.log.info({ queued: this.#rows.length }, 'draining the ingest queue')
    while (this.#writing !== undefined) await this.#writing
  }
}

/** PostgreSQL's "data exception" class (22xxx): the row itself is refused, retrying it cannot help. */
function isDataError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && code.startsWith('22')
}

/** JSON (the built-in parser, keeping the bytes) and NDJSON (a bad line is that item's error), both keeping the raw body. */
const rawBodies = lift(async function rawBodies(scope: Scope) {
  const json = scope.getDefaultJsonParser('error', 'error')
  scope.decorateRequest('rawBody', undefined)
  scope.decorateRequest('deviceId', undefined)
  scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    request.rawBody = body
    json(request, body, done)
  })
  scope.addContentTypeParser('application/x-ndjson', { parseAs: 'buffer' }, (request, body, done) => {
    request.rawBody = body
    const items = body.toString('utf8').split('\n').flatMap((line, i) => {
      if (line.trim() === '') return []
      try { return [JSON.parse(line) as unknown] } catch { return [{ $unparsable: `line ${i + 1} is not JSON` }] }
    })
    done(null, items)
  })
})

/** HMAC-SHA256 of the (decoded) body with the device's key from the Redis hash `device-keys`. */
@injectable()
export class DeviceSignature {
  constructor(private readonly client: RedisClient) {}

  async handle(request: Request): Promise<void> {
    const deviceId = request.headers['x-device-id']
    if (typeof deviceId !== 'string' || !/^[\w-]{1,64}$/.test(deviceId)) throw new HttpError(401, 'send x-device-id', { code: 'DEVICE_ID_MISSING' })
    const key = await this.client.redis.hget('device-keys', deviceId)
    if (key === null) throw new HttpError(401, 'unknown device', { code: 'DEVICE_UNKNOWN' })
    const given = Buffer.from(String(request.headers['x-signature'] ?? ''))
    const expected = Buffer.from('sha256=' + createHmac('sha256', key).update(request.rawBody ?? '').digest('hex'))
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new HttpError(401, 'bad signature', { code: 'SIGNATURE_INVALID' })
    request.deviceId = deviceId
    request.log = request.log.child({ deviceId })    // every later line of the request, the access log's included
  }
}

export const reading = {
  type: 'object',
  additionalProperties: false,
  required: ['messageId', 'ts', 'metric', 'value'],
  properties: {
    messageId: { type: 'string', minLength: 1, maxLength: 64 },
    ts: { type: 'string', format: 'date-time' },
    metric: { type: 'string', enum: ['temperature', 'humidity', 'pressure', 'battery'] },
    value: { type: 'number' },
  },
} as const

const batch = { type: 'array', maxItems: 10_000, items: { type: 'object' } } as const

interface ItemError { index: number; message: string }

@Route('/ingest')
class IngestController {
  constructor(private readonly queue: IngestQueue, private readonly client: RedisClient) {}

  @PreValidation(DeviceSignature)
  @Post('/readings', { bodyLimit: 8 * 1024 * 1024, schema: { body: batch, consumes: ['application/json', 'application/x-ndjson'] } })
  async ingest(@Body() items: Array<Record<string, unknown>>, @Req() request: Request, @Reply() reply: Reply) {
    const check = request.compileValidationSchema(reading)    // compiled once, by the route's ajv
    const rejected: ItemError[] = []
    const valid: Reading[] = []
    items.forEach((item, index) => {
      if (typeof item.$unparsable === 'string') rejected.push({ index, message: item.$unparsable })
      else if (check(item)) valid.push({ ...(item as Omit<Reading, 'deviceId'>), deviceId: request.deviceId! })
      else rejected.push({ index, message: (check.errors ?? []).map((e) => ('keyword' in e ? `${e.dataPath || 'item'} ${e.message}` : e.message)).join('; ') })
    })
    if (valid.length === 0) throw new HttpError(400, `no valid reading in the batch (${rejected.length} rejected)`, { code: 'BATCH_INVALID' })
    const release = this.queue.reserve(valid.length)
    try {
      const seen = this.client.redis.pipeline()
      for (const row of valid) seen.set(`seen:${row.deviceId}:${row.messageId}`, '1', 'EX', 86_400, 'NX')
      const results = await seen.exec()
      const fresh = valid.filter((_, i) => results?.[i]?.[1] === 'OK')
      this.queue.push(fresh)
      return reply.code(202).send({ accepted: fresh.length, duplicates: valid.length - fresh.length, rejected })
    } finally {
      release()
    }
  }
}

/** Counts ingest answers by status: a hook that is a provider. */
@injectable()
class CountAnswers {
  constructor(private readonly metrics: Metrics) {}
  handle(_request: Request, reply: Reply): void { this.metrics.requests.inc({ status: String(reply.statusCode) }) }
}

@OnResponse(CountAnswers)
@Module({
  plugins: [
    rawBodies,
    [compress, { requestEncodings: ['gzip', 'deflate'] }],
    usePlugin(rateLimit, {
      inject: [RedisClient, Settings],
      useFactory: (client: RedisClient, settings: Settings) => ({
        redis: client.redis, nameSpace: 'ingest-rate-', hook: 'preHandler' as const, timeWindow: settings.rateWindowMs, max: settings.devicePerWindow,
        // preHandler: after the signature check, so only a device that proved its id spends its quota
        keyGenerator: (request) => String(request.headers['x-device-id']),
      }),
    }),
  ],
  controllers: [IngestController],
  providers: [DeviceSignature, CountAnswers],
})
export class IngestModule {}

const device = { type: 'object', properties: { deviceId: { type: 'string', pattern: '^[\\w-]+$', maxLength: 64 } } } as const
const range = {
  type: 'object',
  required: ['from', 'to'],
  properties: {
    from: { type: 'string', format: 'date-time' },
    to: { type: 'string', format: 'date-time' },
    limit: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
    cursor: { type: 'string', maxLength: 200 },
    bucket: { type: 'string', enum: ['minute', 'hour', 'day'], default: 'hour' },
  },
} as const
const page = {
  type: 'object',
  properties: {
    items: { type: 'array', items: { type: 'object', properties: { messageId: { type: 'string' }, ts: { type: 'string' }, metric: { type: 'string' }, value: { type: 'number' } } } },
    nextCursor: { type: ['string', 'null'] },
  },
} as const

/** A cursor is the last row's (ts, message_id), ts as PostgreSQL's text (microseconds kept). */
function decodeCursor(cursor: string): [string, string] {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string') return [value[0], value[1]]
  } catch { /* not base64url JSON: the 400 below */ }
  throw new HttpError(400, 'this cursor was not given out by this API', { code: 'CURSOR_INVALID' })
}

@Route('/devices/:deviceId')
class QueryController {
  constructor(private readonly db: Db, private readonly hub: LiveHub) {}

  @Get('/readings', { schema: { params: device, querystring: range, response: { 200: page } } })
  async readings(@Params('deviceId') deviceId: string, @Query() q: { from: string; to: string; limit: number; cursor?: string }) {
    const [afterTs, afterId] = q.cursor === undefined ? [null, null] : decodeCursor(q.cursor)
    const { rows } = await this.db.pool.query<{ message_id: string; ts: Date; key: string; metric: string; value: number }>(
      `select message_id, ts, ts::text as key, metric, value from readings
       where device_id = $1 and ts >= $2 and ts < $3 and ($4::timestamptz is null or (ts, message_id) > ($4::timestamptz, $5::text))
       order by ts, message_id limit $6`,
      [deviceId, q.from, q.to, afterTs, afterId, q.limit + 1])
    const rowsOfPage = rows.slice(0, q.limit)
    const last = rowsOfPage[rowsOfPage.length - 1]
    return {
      items: rowsOfPage.map((r) => ({ messageId: r.message_id, ts: r.ts.toISOString(), metric: r.metric, value: r.value })),
      nextCursor: rows.length > q.limit && last !== undefined ? Buffer.from(JSON.stringify([last.key, last.message_id])).toString('base64url') : null,
    }
  }

  @Get('/aggregates', { schema: { params: device, querystring: range } })
  async aggregates(@Params('deviceId') deviceId: string, @Query() q: { from: string; to: string; bucket: 'minute' | 'hour' | 'day' }) {
    const { rows } = await this.db.pool.query(
      `select date_trunc($4, ts) as bucket, metric, count(*)::int as count, avg(value) as avg, min(value) as min, max(value) as max
       from readings where device_id = $1 and ts >= $2 and ts < $3 group by 1, 2 order by 1, 2`,
      [deviceId, q.from, q.to, q.bucket])
    return { buckets: rows }
  }

  @Get('/live', { schema: { params: device } })
  live(@Params('deviceId') deviceId: string, @Reply() reply: Reply) {
    const stream = this.hub.subscribe(deviceId)
    const heartbeat = setInterval(() => stream.write(': heartbeat\n\n'), 15_000)
    stream.on('close', () => clearInterval(heartbeat))
    return reply.type('text/event-stream').header('cache-control', 'no-cache').send(stream)
  }
}

/** Operators' bearer keys, from the settings. */
@injectable()
class OperatorAuth {
  readonly #check: BearerAuthHook
  constructor(settings: Settings) { this.#check = bearerAuthHook({ keys: settings.operatorKeys }) }
  handle(request: Request, reply: Reply): void { this.#check(request, reply) }
}

@Route('/metrics')
class MetricsController {
  constructor(private readonly metrics: Metrics) {}
  @Get('/')
  async scrape(@Reply() reply: Reply) {
    return reply.type(this.metrics.registry.contentType).send(await this.metrics.registry.metrics())
  }
}

@OnRequest(OperatorAuth)
@Module({ controllers: [QueryController], providers: [OperatorAuth] })
export class QueryModule {}

/** Health (`createApp(…, { health: true })`) finds RedisClient's and Db's checkHealth(). */
@Module({
  providers: [
    Settings,
    Metrics,
    { provide: RedisClient, inject: [Settings], useFactory: connectRedis, dispose: (client: RedisClient) => client.redis.quit() },
    { provide: Db, inject: [Settings], useFactory: connectDb, dispose: (db: Db) => db.pool.end() },
    LiveHub,
    IngestQueue,
  ],
  controllers: [MetricsController],
  plugins: [IngestModule, QueryModule],
})
export class AppModule {}
