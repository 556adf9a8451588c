// close() and Server-Sent Events piped from a stream (docs/streams-and-sse.md, "Stream replies, downloads and
// Server-Sent Events"): a `text/event-stream` reply has no end of its own, so close() ends it
// cleanly as soon as it stops accepting, and destroys its source (the handler's cue to
// unsubscribe). A stream with an end (NDJSON) is left to finish.
import { expect } from 'chai'
import { get, type IncomingMessage } from 'node:http'
import { connect, type IncomingHttpHeaders } from 'node:http2'
import { PassThrough, Readable } from 'node:stream'
import { createServer } from '../../src/runtime'
import { sleep, within } from '../support/raw-http'
import { until } from '../support/until'

interface OpenStream { response: IncomingMessage; text: () => string; ended: Promise<'end' | 'aborted'> }

function open(url: string): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    get(url, (response) => {
      let text = ''
      response.setEncoding('utf8')
      response.on('data', (chunk: string) => { text += chunk })
      const ended = new Promise<'end' | 'aborted'>((done) => {
        response.once('end', () => done('end'))
        response.once('aborted', () => done('aborted'))
        response.once('error', () => done('aborted'))
      })
      resolve({ response, text: () => text, ended })
    }).once('error', reject)
  })
}

describe('piped Server-Sent Events streams: the head at once, ended cleanly by close()', () => {
  it('a returned PassThrough sent as text/event-stream ends cleanly at close(), well before closeTimeout, and its source is destroyed', async () => {
    const app = createServer({ closeTimeout: 60_000 })
    const sources: PassThrough[] = []
    app.get('/events', async (_request, reply) => {
      const stream = new PassThrough()
      sources.push(stream)
      stream.write('data: {"n":1}\n\n')
      return reply.type('text/event-stream').header('cache-control', 'no-cache').send(stream)
    })
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const client = await open(`${address}/events`)
    await until(() => client.text().includes('data: {"n":1}'), 'the first event')
    const started = Date.now()
    await within(app.close(), 5_000, 'close() with an open event stream')
    expect(Date.now() - started).to.be.below(5_000)
    expect(await within(client.ended, 5_000, 'the stream end')).to.equal('end')
    expect(sources[0]?.destroyed).to.equal(true)
    // The producer may still write (a publish racing the close): dropped, no error, no crash.
    expect(() => sources[0]?.write('data: late\n\n')).not.to.throw()
  })

  it('a generator stream (object mode) sent as text/event-stream ends at close() and the generator runs its finally block', async () => {
    const app = createServer({ closeTimeout: 60_000 })
    let finished = false
    async function* ticks(): AsyncGenerator<string> {
      try {
        for (let n = 0; n < 1_000; n++) { yield `data: ${n}\n\n`; await sleep(20) }
      } finally { finished = true }
    }
    app.get('/ticks', async (_request, reply) => reply.type('text/event-stream').send(Readable.from(ticks())))
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const client = await open(`${address}/ticks`)
    await until(() => client.text().includes('data: 2\n\n'), 'three events')
    await within(app.close(), 5_000, 'close() with an open generator stream')
    expect(await within(client.ended, 5_000, 'the stream end')).to.equal('end')
    await until(() => finished, 'the generator\'s finally block')
  })

  it('a web ReadableStream sent as text/event-stream ends at close() and is cancelled', async () => {
    const app = createServer({ closeTimeout: 60_000 })
    let cancelled = false
    app.get('/web', async (_request, reply) => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) { controller.enqueue(new TextEncoder().encode('data: hello\n\n')) },
        cancel() { cancelled = true },
      })
      return reply.type('text/event-stream; charset=utf-8').send(body)
    })
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const client = await open(`${address}/web`)
    await until(() => client.text().includes('data: hello'), 'the event')
    await within(app.close(), 5_000, 'close() with an open web stream')
    expect(await within(client.ended, 5_000, 'the stream end')).to.equal('end')
    await until(() => cancelled, 'the web stream cancelled')
  })

  it('a stream of another type (NDJSON) is not ended early by close(): it is sent whole', async () => {
    const app = createServer({ closeTimeout: 60_000 })
    async function* rows(): AsyncGenerator<string> {
      for (let n = 0; n < 10; n++) { yield JSON.stringify({ n }) + '\n'; await sleep(30) }
    }
    app.get('/export', async (_request, reply) => reply.type('application/x-ndjson').send(Readable.from(rows())))
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const client = await open(`${address}/export`)
    await until(() => client.text().includes('{"n":1}'), 'two rows')
    await within(app.close(), 5_000, 'close() with an export in flight')
    expect(await within(client.ended, 5_000, 'the export end')).to.equal('end')
    expect(client.text().trim().split('\n')).to.have.length(10)
  })

  it('an event stream that starts once close() has begun (during a preClose hook) is ended at once', async () => {
    const app = createServer({ closeTimeout: 60_000 })
    let address = ''
    let late: OpenStream | undefined
    app.addHook('preClose', async () => { late = await open(`${address}/events`) })
    app.get('/events', async (_request, reply) => {
      const stream = new PassThrough()
      stream.write('data: first\n\n')
      return reply.type('text/event-stream').send(stream)
    })
    address = await app.listen({ port: 0, host: '127.0.0.1' })
    await within(app.close(), 5_000, 'close() with a stream opened while closing')
    expect(late?.response.statusCode).to.equal(200)
    expect(await within(late!.ended, 5_000, 'the late stream end')).to.equal('end')
  })

  it('an event stream the client left is forgotten: close() has nothing to end', async () => {
    const app = createServer({ closeTimeout: 60_000 })
    const source = new PassThrough()
    app.get('/events', async (_request, reply) => { source.write('data: x\n\n'); return reply.type('text/event-stream').send(source) })
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const client = await open(`${address}/events`)
    await until(() => client.text().includes('data: x'), 'the event')
    client.response.destroy()
    await until(() => source.destroyed, 'the source destroyed when the client left')
    await within(app.close(), 5_000, 'close() after the client left')
  })

  it('an event stream\'s head goes out before its first event (the client sees the 200 at once)', async () => {
    const app = createServer()
    const source = new PassThrough()
    app.get('/events', async (_request, reply) => reply.type('text/event-stream').send(source))
    app.get('/download', async (_request, reply) => reply.type('application/octet-stream').send(new PassThrough()))
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    try {
      const client = await within(open(`${address}/events`), 5_000, 'the event stream\'s head')
      expect(client.response.statusCode).to.equal(200)
      expect(client.response.headers['content-type']).to.equal('text/event-stream')
      expect(client.response.headers['transfer-encoding']).to.equal('chunked')
      source.write('data: later\n\n')
      await until(() => client.text() === 'data: later\n\n', 'the event')
      // Another stream's head still waits for its first chunk (an early failure can be an error reply).
      let downloadHead = false
      const download = get(`${address}/download`, () => { downloadHead = true })
      download.on('error', () => {})
      await sleep(300)
      expect(downloadHead).to.equal(false)
      download.destroy()
    } finally {
      await app.close()
    }
  })

  it('over HTTP/2 (h2c): the head comes before any event, and close() ends the stream (END_STREAM) well before closeTimeout', async () => {
    const app = createServer({ http2: true, closeTimeout: 60_000 })
    app.get('/events', async (_request, reply) => reply.type('text/event-stream').send(new PassThrough()))
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const session = connect(address)
    try {
      const stream = session.request({ ':path': '/events' })
      stream.resume()
      const head = await within(new Promise<IncomingHttpHeaders>((resolve) => stream.once('response', resolve)), 5_000, 'the head')
      expect(head[':status']).to.equal(200)
      const ended = new Promise<void>((resolve) => stream.once('end', resolve))
      await within(app.close(), 5_000, 'close() with an open HTTP/2 event stream')
      await within(ended, 5_000, 'the stream end')
    } finally {
      session.destroy()
    }
  })
})
