// A request whose client left (an HTTP/1.1 connection closed, an HTTP/2 stream reset with CANCEL,
// h2c and over TLS) ends the same way over each transport: one onRequestAbort, no onResponse, and an error raised
// for it afterwards is logged once as sent to nobody, never run through the error handlers and
// onError hooks as if it were answered. Over HTTP/2 node:http2's response has no `destroyed`, so
// only its stream tells (serve/response-gone.ts). README differences: "An error raised for a
// request whose client already left".
import { connect as netConnect } from 'node:net'
import { connect as http2Connect, constants } from 'node:http2'
import { Readable } from 'node:stream'
import { expect } from 'chai'
import { recordingLogger, server, type LogEntry } from '../support/servers'
import { sleep, within } from '../support/raw-http'
import { poll } from '../support/until'
import type { Scope } from '../../src'
import { tlsCert, tlsKey } from '../support/tls'

type Transport = 'HTTP/1.1' | 'h2c' | 'HTTP/2 over TLS'

interface Run { hooks: string[]; entries: LogEntry[]; unhandled: unknown[] }

const until = (done: () => boolean, ms: number): Promise<boolean> => poll(done, { ms })

/**
 * Serves `declare`'s routes, sends one request over `transport` and leaves once `leaveWhen`
 * resolves (the request stays open until then), then waits for the request's end hook.
 */
async function leaveDuring(transport: Transport, declare: (app: Scope, entered: () => void) => void, request: { method: string; path: string; body?: { declared: number; sent: string } }, leaveAfterData = false): Promise<Run> {
  const logger = recordingLogger()
  const app = server({ logger, http2: transport === 'HTTP/1.1' ? undefined : true, https: transport === 'HTTP/2 over TLS' ? { key: tlsKey, cert: tlsCert } : undefined })
  const hooks: string[] = []
  app.addHook('onResponse', async () => { hooks.push('onResponse') })
  app.addHook('onRequestAbort', async () => { hooks.push('onRequestAbort') })
  app.addHook('onError', async () => { hooks.push('onError') })
  app.setErrorHandler((error, _request, reply) => { hooks.push('errorHandler'); reply.send(error) })
  let entered: () => void = () => undefined
  const inRoute = new Promise<void>((resolve) => { entered = resolve })
  declare(app, entered)
  const unhandled: unknown[] = []
  const record = (error: unknown): void => { unhandled.push(error) }
  process.on('unhandledRejection', record)
  try {
    const { port } = new URL(await app.listen({ port: 0, host: '127.0.0.1' }))
    const body = request.body
    if (transport === 'HTTP/1.1') {
      const socket = netConnect(Number(port), '127.0.0.1')
      socket.on('error', () => undefined)
      const framing = body === undefined ? '' : `Content-Type: application/json\r\nContent-Length: ${body.declared}\r\n`
      socket.write(`${request.method} ${request.path} HTTP/1.1\r\nHost: x\r\n${framing}\r\n`)
      await within(inRoute, 5_000, 'the request to reach the route')
      if (body !== undefined) { socket.write(body.sent); await sleep(50) }
      if (leaveAfterData) await within(new Promise((resolve) => socket.once('data', resolve)), 5_000, 'the first bytes of the answer')
      socket.destroy()
    } else {
      const session = http2Connect(`${transport === 'h2c' ? 'http' : 'https'}://127.0.0.1:${port}`, { ca: tlsCert })
      session.on('error', () => undefined)
      try {
        const headers = body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(body.declared) }
        const stream = session.request({ ':method': request.method, ':path': request.path, ...headers }, { endStream: body === undefined })
        stream.on('error', () => undefined)
        await within(inRoute, 5_000, 'the request to reach the route')
        if (body !== undefined) { stream.write(body.sent); await sleep(50) }
        if (leaveAfterData) await within(new Promise((resolve) => stream.once('data', resolve)), 5_000, 'the first bytes of the answer')
        stream.close(constants.NGHTTP2_CANCEL)
        await until(() => hooks.length > 0, 3_000)
      } finally {
        session.destroy()
      }
    }
    await until(() => hooks.length > 0, 3_000)
    // Anything a late error path would still do (a second hook, a log line) happens by then.
    await sleep(150)
  } finally {
    process.off('unhandledRejection', record)
  }
  return { hooks, entries: logger.entries, unhandled }
}

const lines = (entries: LogEntry[], level: LogEntry['level']): string[] =>
  entries.filter((e) => e.level === level).map((e) => `${e.msg ?? ''} | ${(e.obj?.err as Error | undefined)?.message ?? ''}`)

/** A handler that waits until the server saw its client leave, then throws `error`. */
function throwsAfterLeaving(error: () => Error) {
  return (app: Scope, entered: () => void): void => {
    app.get('/late', async (request) => {
      entered()
      await until(() => request.aborted, 3_000)
      throw error()
    })
  }
}

describe('transport: an error raised after the client left is logged as sent to nobody, alike over HTTP/1.1 and HTTP/2', function () {
  this.timeout(15_000)

  for (const transport of ['HTTP/1.1', 'h2c', 'HTTP/2 over TLS'] as const) {
    describe(`over ${transport}`, () => {
      it('a handler that throws (a 5xx) once its client left: one error line "nothing was sent", one onRequestAbort, no error handler, onError or onResponse', async () => {
        const run = await leaveDuring(transport, throwsAfterLeaving(() => new Error('failed for nobody')), { method: 'GET', path: '/late' })
        expect(run.hooks).to.deep.equal(['onRequestAbort'])
        expect(lines(run.entries, 'error')).to.deep.equal(['error after the client went away: nothing was sent | failed for nobody'])
        expect(run.unhandled).to.deep.equal([])
      })

      it('a handler that throws a 4xx once its client left: the same line at info (the level the built-in reply logs a 4xx at), nothing at error', async () => {
        const notFound = (): Error => Object.assign(new Error('no such order'), { statusCode: 404 })
        const run = await leaveDuring(transport, throwsAfterLeaving(notFound), { method: 'GET', path: '/late' })
        expect(run.hooks).to.deep.equal(['onRequestAbort'])
        expect(lines(run.entries, 'error')).to.deep.equal([])
        expect(lines(run.entries, 'info')).to.include('error after the client went away: nothing was sent | no such order')
        expect(run.unhandled).to.deep.equal([])
      })

      it('a client that leaves mid-body: one onRequestAbort, the handler not run, no 400 for the truncated body logged', async () => {
        let handled = 0
        const run = await leaveDuring(transport, (app, entered) => {
          app.addHook('onRequest', async () => { entered() })
          app.post('/upload', async () => { handled++; return { ok: true } })
        }, { method: 'POST', path: '/upload', body: { declared: 100_000, sent: '[' + '1,'.repeat(2_500) } })
        expect(run.hooks).to.deep.equal(['onRequestAbort'])
        expect(handled).to.equal(0)
        expect(lines(run.entries, 'error')).to.deep.equal([])
        expect(run.entries.filter((e) => (e.obj?.err as { code?: string } | undefined)?.code === 'ENC_ERR_CTP_INVALID_CONTENT_LENGTH').map((e) => e.msg)).to.deep.equal([])
        expect(run.unhandled).to.deep.equal([])
      })

      it('a client that leaves mid-response (a stream reply): one onRequestAbort, no onResponse, nothing at error', async () => {
        let destroyed = false
        const run = await leaveDuring(transport, (app, entered) => {
          app.get('/download', async () => {
            entered()
            let sent = 0
            return new Readable({
              read() { if (sent++ < 10_000) setTimeout(() => this.push(Buffer.alloc(16_384, 97)), 1); else this.push(null) },
              destroy(error, callback) { destroyed = true; callback(error) },
            })
          })
        }, { method: 'GET', path: '/download' }, true)
        expect(run.hooks).to.deep.equal(['onRequestAbort'])
        expect(destroyed, 'the source stream stopped').to.equal(true)
        expect(lines(run.entries, 'error')).to.deep.equal([])
        expect(run.unhandled).to.deep.equal([])
      })
    })
  }
})
