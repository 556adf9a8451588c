// The end of a response (onResponse on 'finish', onRequestAbort on a 'close' that comes first, the
// access log's "request completed" / "request aborted") is watched with listener functions shared
// by every response and the request's state kept on the response: no closure or once() wrapper per
// request (perf16: ~0.5 µs a request). These tests pin that down, and that every watcher still fires.
import { expect } from 'chai'
import { createServer, type Reply, type Request } from '../../src/runtime'
import { recordingLogger } from '../support/servers'
import { rawClient, sleep, within } from '../support/raw-http'
import { connect, constants } from 'node:http2'
import { PassThrough } from 'node:stream'

type Listener = (...args: unknown[]) => void

describe('end watching: shared listeners on the response (perf16)', () => {
  it('with onResponse, onRequestAbort and the access log, every response gets the same listener functions, and each hook runs once per request', async () => {
    const log = recordingLogger()
    const app = createServer({ logger: log, disableRequestLogging: false })
    const seen: Array<{ finish: Listener[]; close: Listener[] }> = []
    const ended: string[] = []
    app.addHook('onResponse', (request, _reply, done) => { ended.push(`response ${request.url}`); done() })
    app.addHook('onRequestAbort', (request, _reply, done) => { ended.push(`abort ${request.url}`); done() })
    app.get('/:n', (request: Request, reply: Reply) => {
      seen.push({ finish: reply.raw.listeners('finish') as Listener[], close: reply.raw.listeners('close') as Listener[] })
      return { n: (request.params as { n: string }).n }
    })
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    try {
      const client = await rawClient(address)
      for (const n of ['1', '2', '3']) {
        client.write(`GET /${n} HTTP/1.1\r\nHost: x\r\n\r\n`)
        const response = await client.next()
        expect(response.status).to.equal(200)
      }
      client.destroy()
      await sleep(50)
      expect(ended).to.deep.equal(['response /1', 'response /2', 'response /3'])
      expect(log.entries.filter((e) => e.msg === 'request completed')).to.have.length(3)
      // Ours are the same functions on every response (Node's own 'finish' listener is bound per response).
      const [first, ...rest] = seen
      for (const other of rest) {
        expect(other.close).to.deep.equal(first.close)
        expect(other.finish.filter((f) => first.finish.includes(f))).to.have.length(2)
      }
      expect(first.close).to.have.length(2)
    } finally {
      await app.close()
    }
  })

  it('a client that leaves before the reply: onRequestAbort runs once, onResponse not, and the access line says request aborted', async () => {
    const log = recordingLogger()
    const app = createServer({ logger: log, disableRequestLogging: false })
    const ended: string[] = []
    let arrived!: () => void
    const inHandler = new Promise<void>((resolve) => { arrived = resolve })
    app.addHook('onResponse', (_request, _reply, done) => { ended.push('response'); done() })
    app.addHook('onRequestAbort', (request, _reply, done) => { ended.push(`abort ${String(request.aborted)}`); done() })
    app.get('/slow', async () => { arrived(); await sleep(150); return { late: true } })
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    try {
      const client = await rawClient(address)
      client.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n')
      await within(inHandler, 5000, 'the handler')
      client.destroy()
      await sleep(300)
      expect(ended).to.deep.equal(['abort true'])
      expect(log.entries.filter((e) => e.msg === 'request aborted')).to.have.length(1)
      expect(log.entries.filter((e) => e.msg === 'request completed')).to.have.length(0)
    } finally {
      await app.close()
    }
  })

  // node:http2's response emits 'finish' when the client resets the stream before the reply ends
  // (pipeline.ts tells that apart by writableEnded); the access line read it as a completed
  // response, or, when onResponse hooks made it wait, wrote no line at all.
  for (const withHook of [false, true]) {
    it(`over HTTP/2, a client resetting the stream mid-reply gets one request aborted line, not request completed (${withHook ? 'with' : 'without'} an onResponse hook)`, async () => {
      const log = recordingLogger()
      const app = createServer({ http2: true, logger: log, disableRequestLogging: false })
      const ended: string[] = []
      if (withHook) app.addHook('onResponse', (_request, _reply, done) => { ended.push('response'); done() })
      app.addHook('onRequestAbort', (_request, _reply, done) => { ended.push('abort'); done() })
      app.get('/s', async (_request, reply) => {
        const source = new PassThrough()
        source.write('data: 1\n\n')
        return reply.type('text/event-stream').send(source)
      })
      const address = await app.listen({ port: 0, host: '127.0.0.1' })
      const session = connect(address)
      try {
        const stream = session.request({ ':path': '/s' })
        await within(new Promise((resolve) => stream.once('data', resolve)), 5000, 'the first event')
        stream.close(constants.NGHTTP2_CANCEL)
        for (let i = 0; i < 100 && !log.entries.some((e) => e.msg === 'request aborted'); i++) await sleep(10)
        await sleep(50)
        expect(ended).to.deep.equal(['abort'])
        expect(log.entries.filter((e) => e.msg === 'request aborted')).to.have.length(1)
        expect(log.entries.filter((e) => e.msg === 'request completed')).to.have.length(0)
      } finally {
        session.close()
        await app.close()
      }
    })
  }
})
