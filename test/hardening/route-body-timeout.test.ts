// bodyTimeout per route, and handlerTimeout waiting for a stream-parsed body (a media service's
// large uploads on slow links). Small limits keep the tests short; every wait is bounded by the
// raw client's hang guard, and no assertion is about how long anything took.
import 'reflect-metadata'
import { expect } from 'chai'
import type { IncomingMessage } from 'node:http'
import { createServer, type Request, type Scope } from '../../src/runtime'
import { Module, Post, Req, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { expectErrorShape, listening, rawClient, sleep, type RawClient } from './helpers'

type Done = (error: Error | null, value?: unknown) => void

/** Writes `text` a chunk every `everyMs` while the connection is open. */
async function trickle(client: RawClient, text: string, chunks: number, everyMs: number): Promise<void> {
  const size = Math.ceil(text.length / chunks)
  for (let at = 0; at < text.length && !client.isClosed; at += size) {
    client.write(text.slice(at, at + size))
    await sleep(everyMs)
  }
}

const head = (url: string, type: string, length: number): string => `POST ${url} HTTP/1.1\r\nHost: x\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n\r\n`
const BODY = JSON.stringify({ a: 'x'.repeat(88) })   // 96 bytes

/** A stream parser that hands the body on (tus's application/offset+octet-stream, multipart's way), and a route reading it. */
function streamUpload(root: Scope, url: string, options: { bodyTimeout?: number }, after: () => Promise<unknown> = async () => undefined): void {
  root.addContentTypeParser('application/octet-stream', (_request: Request, payload: IncomingMessage, done: Done) => { done(null, payload) })
  root.post(url, options, async (request) => {
    let bytes = 0
    for await (const chunk of request.body as AsyncIterable<Buffer>) bytes += chunk.length
    await after()
    return { bytes }
  })
}

describe('per-route bodyTimeout, and handlerTimeout while a stream-parsed body arrives', () => {
  it("a route's longer bodyTimeout lets a slow body arrive (read by Enclave or by a stream parser); the server's still cuts the other routes with 408", async () => {
    const { app, address } = await listening((root) => {
      root.post('/upload', { bodyTimeout: 10_000 }, async (request) => request.body)
      root.post('/other', async (request) => request.body)
      streamUpload(root, '/stream', { bodyTimeout: 10_000 })
    }, { bodyTimeout: 150 })
    for (const [url, type] of [['/upload', 'application/json'], ['/stream', 'application/octet-stream']]) {
      const client = await rawClient(address)
      client.write(head(url, type, BODY.length))
      await trickle(client, BODY, 6, 80)           // ~480 ms: past the server's 150
      const res = await client.next()
      expect(res.status, url).to.equal(200)
      expect(res.body, url).to.equal(url === '/upload' ? BODY : '{"bytes":96}')
      client.destroy()
    }
    const other = await rawClient(address)
    other.write(head('/other', 'application/json', BODY.length))
    await trickle(other, BODY, 6, 80)
    const res = await other.next()
    expect(expectErrorShape(res.body, 408).code).to.equal('ENC_ERR_CTP_BODY_TIMEOUT')
    expect(res.headers.connection).to.equal('close')
    await app.close()
  })

  it("a route's shorter bodyTimeout answers 408 with its own value in the message", async () => {
    const { app, address } = await listening((root) => { streamUpload(root, '/stream', { bodyTimeout: 150 }) }, { bodyTimeout: 60_000 })
    const client = await rawClient(address)
    client.write(head('/stream', 'application/octet-stream', 100) + '0123456789')
    const res = await client.next()
    expect(expectErrorShape(res.body, 408)).to.include({ code: 'ENC_ERR_CTP_BODY_TIMEOUT', message: 'The request body was not received within 150 ms' })
    await client.waitClosed()
    await app.close()
  })

  // docs/options.md, "Options": handlerTimeout does not count the time the body takes to arrive. A stream
  // parser's body (multipart, tus) arrived while the handler read it, and the handler deadline
  // kept running: a large upload past handlerTimeout was a 503 while still within bodyTimeout.
  it('a stream-parsed body still arriving within bodyTimeout is not cut by handlerTimeout (no 503)', async () => {
    const { app, address } = await listening((root) => { streamUpload(root, '/stream', {}) }, { bodyTimeout: 10_000, handlerTimeout: 150 })
    const client = await rawClient(address)
    client.write(head('/stream', 'application/octet-stream', BODY.length))
    await trickle(client, BODY, 6, 80)
    const res = await client.next()
    expect(res.status).to.equal(200)
    expect(JSON.parse(res.body)).to.deep.equal({ bytes: 96 })
    client.destroy()
    await app.close()
  })

  it("handlerTimeout runs again from a stream-parsed body's end: a handler stuck after reading it is 503", async () => {
    const { app, address } = await listening((root) => { streamUpload(root, '/stream', {}, () => new Promise(() => undefined)) }, { bodyTimeout: 10_000, handlerTimeout: 150 })
    const client = await rawClient(address)
    client.write(head('/stream', 'application/octet-stream', 10) + '0123456789')
    const res = await client.next()
    expect(res.status).to.equal(503)
    client.destroy()
    await app.close()
  })

  it("with bodyTimeout off, handlerTimeout keeps bounding a handler that never reads its stream-parsed body", async () => {
    const { app, address } = await listening((root) => {
      root.addContentTypeParser('application/octet-stream', (_request: Request, payload: IncomingMessage, done: Done) => { done(null, payload) })
      root.post('/stream', () => new Promise(() => undefined))
    }, { bodyTimeout: 0, handlerTimeout: 150 })
    const client = await rawClient(address)
    client.write(head('/stream', 'application/octet-stream', 100) + '0123456789')
    expect((await client.next()).status).to.equal(503)
    client.destroy()
    await app.close()
  })

  it('request.routeOptions.bodyTimeout is the route\'s own value, else the server\'s; a decorator route takes the option too', async () => {
    @Route('/media')
    class Uploads {
      @Post('/', { bodyTimeout: 90_000 }) upload(@Req() request: Request) { return { ms: request.routeOptions.bodyTimeout } }
      @Post('/plain') plain(@Req() request: Request) { return { ms: request.routeOptions.bodyTimeout } }
    }
    @Module({ controllers: [Uploads] }) class MediaModule {}
    const app = await createApp(MediaModule, { bodyTimeout: 30_000, logger: false })
    expect((await app.inject({ method: 'POST', url: '/media' })).json()).to.deep.equal({ ms: 90_000 })
    expect((await app.inject({ method: 'POST', url: '/media/plain' })).json()).to.deep.equal({ ms: 30_000 })
    await app.close()
    const server = createServer({ logger: false })
    server.post('/own', { bodyTimeout: 90_000 }, async (request) => ({ ms: request.routeOptions.bodyTimeout }))
    expect((await server.inject({ method: 'POST', url: '/own' })).json()).to.deep.equal({ ms: 90_000 })
    await server.close()
  })

  it('a bodyTimeout that is not an integer > 0, or longer than requestTimeout, fails at boot with ENC_ERR_ROUTE_INVALID naming the route and the fix', async () => {
    for (const bad of [0, -1, 1.5, '100']) {
      const app = createServer({ logger: false })
      expect(() => app.post('/x', { bodyTimeout: bad as number }, async () => 'x'), String(bad)).to.throw(/bodyTimeout option must be an integer > 0/)
    }
    const app = createServer({ logger: false, requestTimeout: 120_000 })
    app.post('/media', { bodyTimeout: 600_000 }, async () => 'x')
    const error = await app.ready().then(() => null, (e: unknown) => e as Error & { code?: string })
    expect(error?.code).to.equal('ENC_ERR_ROUTE_INVALID')
    expect(error?.message).to.contain('POST /media').and.contain('bodyTimeout (600000 ms) is longer than the server\'s requestTimeout (120000 ms)').and.contain('raise requestTimeout to at least 600000')
    const off = createServer({ logger: false, requestTimeout: 0 })
    off.post('/media', { bodyTimeout: 600_000 }, async () => 'x')
    await off.ready()
    await off.close()
  })
})
