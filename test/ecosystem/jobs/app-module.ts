import jwt from '@fastify/jwt'
import rateLimit from '@fastify/rate-limit'
import metrics from 'fastify-metrics'
import { Module, OnRequest, usePlugin } from '../../../src'
import { JwtGuard } from './auth'
import { Clock, Config } from './config'
import { InboundModule } from './inbound/inbound'
import { JobsController } from './jobs/jobs-controller'
import { JobsService } from './jobs/jobs-service'
import { RedisClient } from './redis'
import { SubscribersController } from './subscribers/subscribers-controller'
import { SubscribersStore } from './subscribers/subscribers-store'
import { HttpSender } from './webhooks/http-sender'
import { WebhookDispatcher } from './webhooks/webhook-dispatcher'

/** The authenticated API: a JWT on every route, then a limit per token subject, kept in Redis. */
@OnRequest(JwtGuard)
@Module({
  controllers: [JobsController, SubscribersController],
  providers: [JwtGuard],
  plugins: [usePlugin(rateLimit, {
    inject: [RedisClient, Config],
    useFactory: (redis: RedisClient, config: Config) => ({
      redis: redis.client, max: config.rateLimitMax, timeWindow: '1 minute', nameSpace: 'ratelimit:',
      keyGenerator: (request) => (request as { user?: { sub: string } }).user?.sub ?? request.ip,
    }),
  })],
})
export class ApiModule {}

@Module({
  providers: [{ provide: Config, useFactory: () => new Config() }, Clock, RedisClient, HttpSender, SubscribersStore, WebhookDispatcher, JobsService],
  plugins: [
    usePlugin(jwt, { inject: [Config], useFactory: (config: Config) => ({ secret: config.jwtSecret }) }),
    [metrics, { endpoint: '/metrics', clearRegisterOnInit: true }],
    ApiModule,
    InboundModule,
  ],
})
export class AppModule {}
