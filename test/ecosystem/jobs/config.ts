/** Settings read once at boot; a test replaces them with override(Config, { useValue }). */
export class Config {
  redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
  jwtSecret = process.env.JWT_SECRET ?? 'dev-secret-at-least-32-characters-long!'
  inboundSecret = process.env.INBOUND_SECRET ?? 'whsec_dev_inbound'
  /** How long shutdown waits for running jobs before it stops them. */
  drainMs = Number(process.env.DRAIN_MS ?? 10_000)
  webhookAttempts = Number(process.env.WEBHOOK_ATTEMPTS ?? 5)
  webhookBackoffMs = Number(process.env.WEBHOOK_BACKOFF_MS ?? 1_000)
  rateLimitMax = Number(process.env.RATE_LIMIT_MAX ?? 100)
  queuePrefix = process.env.QUEUE_PREFIX ?? 'bull'
}

/** Seconds since the epoch; a provider so tests can pin the time signatures are made at. */
export class Clock {
  nowSeconds(): number { return Math.floor(Date.now() / 1000) }
}
