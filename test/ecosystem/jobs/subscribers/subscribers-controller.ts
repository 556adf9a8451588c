import { Body, Delete, Get, Params, Patch, Post, Reply, Req, Route, SchemaClass, type Request } from '../../../../src'
import { subjectOf } from '../auth'
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher'
import { SubscribersStore, type Subscriber } from './subscribers-store'

const events = { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', enum: ['job.completed', 'job.failed'] } } as const
const url = { type: 'string', format: 'uri', pattern: '^https?://', maxLength: 2000 } as const

export class NewSubscriber extends SchemaClass({ type: 'object', additionalProperties: false, required: ['url', 'events'], properties: { url, events } } as const) {}
export class SubscriberChange extends SchemaClass({ type: 'object', additionalProperties: false, minProperties: 1, properties: { url, events } } as const) {}
export class SubscriberView extends SchemaClass({
  type: 'object', required: ['id', 'url', 'events', 'createdAt'],
  properties: { id: { type: 'string' }, url: { type: 'string' }, events: { type: 'array', items: { type: 'string' } }, createdAt: { type: 'string' }, secret: { type: 'string' } },
} as const) {}
export class SubscriberId extends SchemaClass({ type: 'object', required: ['id'], properties: { id: { type: 'string', format: 'uuid' } } } as const) {}

const shown = ({ id, url, events, createdAt }: Subscriber) => ({ id, url, events, createdAt })

@Route('/subscribers')
export class SubscribersController {
  constructor(private readonly store: SubscribersStore, private readonly webhooks: WebhookDispatcher) {}

  /** The signing secret is shown once, here. */
  @Post('/', { schema: { body: NewSubscriber, response: { 201: SubscriberView } } })
  async create(@Body() body: NewSubscriber, @Req() request: Request, @Reply() reply: Reply) {
    const subscriber = await this.store.create(subjectOf(request), body)
    reply.code(201)
    return { ...shown(subscriber), secret: subscriber.secret }
  }

  @Get('/', { schema: { response: { 200: { type: 'array', items: SubscriberView } } } })
  async list(@Req() request: Request) {
    return (await this.store.all()).filter((s) => s.owner === subjectOf(request)).map(shown)
  }

  @Get('/dead-letters')
  deadLetters(@Req() request: Request) {
    return this.webhooks.deadLetters(subjectOf(request))
  }

  @Get('/:id', { schema: { params: SubscriberId, response: { 200: SubscriberView } } })
  async get(@Params() params: SubscriberId, @Req() request: Request) {
    return shown(await this.store.get(subjectOf(request), params.id))
  }

  @Patch('/:id', { schema: { params: SubscriberId, body: SubscriberChange, response: { 200: SubscriberView } } })
  async update(@Params() params: SubscriberId, @Body() body: SubscriberChange, @Req() request: Request) {
    return shown(await this.store.update(subjectOf(request), params.id, body))
  }

  @Delete('/:id', { schema: { params: SubscriberId } })
  async remove(@Params() params: SubscriberId, @Req() request: Request, @Reply() reply: Reply) {
    await this.store.remove(subjectOf(request), params.id)
    reply.code(204)
  }
}
