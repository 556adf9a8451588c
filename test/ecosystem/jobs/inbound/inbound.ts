import { Body, HttpError, Module, Params, PreValidation, Post, Route, injectable, lift, type Request, type Scope } from '../../../../src'
import { Clock, Config } from '../config'
import { verifySignature } from '../signature'
import { JobsService } from '../jobs/jobs-service'

declare module '../../../../src/runtime' {
  interface RequestDecorations { rawBody?: Buffer }
}

/** The built-in JSON parser, keeping the bytes the sender signed (this module's scope only). */
const rawJson = lift(async function rawJson(scope: Scope) {
  const json = scope.getDefaultJsonParser()
  scope.decorateRequest('rawBody', undefined)
  scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    request.rawBody = body
    json(request, body, done)
  })
})

@injectable()
export class InboundSignature {
  constructor(private readonly config: Config, private readonly clock: Clock) {}
  handle(request: Request): void {
    const header = request.headers['webhook-signature']
    const verdict = verifySignature(this.config.inboundSecret, typeof header === 'string' ? header : undefined, request.rawBody, this.clock.nowSeconds())
    if (!verdict.ok) {
      request.log.warn({ reason: verdict.reason }, 'inbound webhook refused')
      throw new HttpError(401, 'Invalid webhook signature')
    }
  }
}

const inboundEvent = {
  type: 'object', required: ['id', 'type', 'data'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 100 }, type: { type: 'string', enum: ['report.requested'] }, data: { type: 'object', required: ['steps'], properties: { steps: { type: 'integer', minimum: 1, maximum: 100 } } } },
} as const

@Route('/inbound')
export class InboundController {
  constructor(private readonly jobs: JobsService) {}

  @PreValidation(InboundSignature)
  @Post('/:source', { schema: { params: { type: 'object', properties: { source: { type: 'string', enum: ['billing'] } } }, body: inboundEvent } })
  async receive(@Params('source') source: string, @Body() event: { id: string; type: 'report.requested'; data: { steps: number } }) {
    // The sender's event id is the idempotency key: a redelivered event enqueues nothing new. The
    // job belongs to the sending system (no JWT here), so no user's token can read or cancel it.
    const { job, created } = await this.jobs.enqueue({ type: 'export', steps: event.data.steps, stepMs: 10 }, event.id, `inbound:${source}`)
    return { received: event.id, job: job.id, duplicate: !created }
  }
}

@Module({ prefix: '/hooks', plugins: [rawJson], controllers: [InboundController], providers: [InboundSignature] })
export class InboundModule {}
