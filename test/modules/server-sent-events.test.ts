// Server-Sent Events the way docs/streams-and-sse.md shows them: a controller takes the response over with
// reply.hijack(), writes to reply.raw, and returns reply; a preClose hook ends the open streams,
// so close() does not wait closeTimeout for connections that never finish by themselves.
import 'reflect-metadata'
import { get, type IncomingMessage, type ServerResponse } from 'node:http'
import { expect } from 'chai'
import { injectable } from 'tsyringe'
import { Get, Hook, Module, Reply, Req, Route } from '../../src/decorators'
import { createApp, resolveProvider } from '../../src/modules'
import type { Request, Reply as ReplyType } from '../../src/runtime'
import { within } from '../support/raw-http'
import { until } from '../support/until'

@injectable()
class EventHub {
  readonly clients = new Set<ServerResponse>()
  publish(data: unknown): void { for (const client of this.clients) client.write(`data: ${JSON.stringify(data)}\n\n`) }
  endAll(): void { for (const client of this.clients) client.end() }
}

@Route('/events')
class EventsController {
  constructor(private readonly hub: EventHub) {}

  @Get('/')
  stream(@Req() request: Request, @Reply() reply: ReplyType) {
    reply.hijack()
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    reply.raw.write(': connected\n\n')
    this.hub.clients.add(reply.raw)
    request.raw.on('close', () => this.hub.clients.delete(reply.raw))
    return reply
  }
}

@Module({ providers: [EventHub], controllers: [EventsController] })
class SseModule {
  constructor(private readonly hub: EventHub) {}
  @Hook('preClose') async endStreams() { this.hub.endAll() }
}

function open(url: string): Promise<{ response: IncomingMessage; text: () => string; ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    get(url, (response) => {
      let text = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => { text += chunk })
      const ended = new Promise<void>((done) => response.once('end', () => done()))
      resolve({ response, text: () => text, ended })
    }).once('error', reject)
  })
}

describe('server-sent events through reply.hijack() (docs/streams-and-sse.md, "Stream replies, downloads and Server-Sent Events")', () => {
  it('streams events to a hijacked response, and a preClose hook that ends the streams lets close() finish without waiting closeTimeout', async () => {
    const app = await createApp(SseModule, { closeTimeout: 60_000 })
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const client = await open(`${address}/events`)
    expect(client.response.statusCode).to.equal(200)
    expect(client.response.headers['content-type']).to.equal('text/event-stream')
    await until(() => client.text().includes(': connected'), 'the comment line', { ms: 2_000 })
    const hub = resolveProvider(app, EventHub)
    hub.publish({ id: 1 })
    await until(() => client.text().includes('data: {"id":1}'), 'the event', { ms: 2_000 })
    await within(app.close(), 10_000, 'close() with an open event stream')
    await within(client.ended, 5_000, 'the stream end')
    expect(hub.clients.size).to.equal(0)
  })
})
