// Timeouts, on by default: slow clients get a 408 and a closed socket, stuck handlers a 503.
// Small limits (200 ms) keep the tests short; every wait is bounded by a hang guard, and no
// assertion is about how long anything took.
import { expect } from 'chai'
import type { IncomingMessage } from 'node:http'
import { createServer, type Request } from '../../src/runtime'
import { expectErrorShape, listening, rawClient, recordingLogger, sleep, type RawClient } from './helpers'

/** Sends `text` one byte every `everyMs` until the server closes the connection (at most `maxBytes`). */
async function trickle(client: RawClient, text: string, everyMs: number): Promise<void> {
  for (let i = 0; i < text.length && !client.isClosed; i++) {
    client.write(text[i])
    await sleep(everyMs)
  }
}

/** The next answer is a 408 in the error shape with `code`, and the server closes the connection. */
async function expect408AndClosed(client: RawClient, code: string): Promise<void> {
  const res = await client.next()
  expect(res.status).to.equal(408)
  expect(res.headers.connection).to.equal('close')
  expect(expectErrorShape(res.body, 408).code).to.equal(code)
  await client.waitClosed()
}

/** A promise the test opens when it chooses: what a handler or parser waits for instead of a fixed delay. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void
  const opened = new Promise<void>((resolve) => { open = resolve })
  return { opened, open }
}

const POST_HEAD = (length: number): string => `POST /x HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`

describe('hardening: timeouts', () => {
  describe('headersTimeout / requestTimeout (Node): 408 in the JSON shape, then closed', () => {
    it('half the headers, then silence: 408 ENC_ERR_REQUEST_TIMEOUT', async () => {
      const { address } = await listening((root) => { root.get('/x', async () => 'x') }, { headersTimeout: 200, requestTimeout: 1000 })
      const client = await rawClient(address)
      client.write('GET /x HTTP/1.1\r\nHost: x\r\nX-Half: ')
      await expect408AndClosed(client, 'ENC_ERR_REQUEST_TIMEOUT')
    })

    it('a connection that never sends a byte is answered and closed too', async () => {
      const { address } = await listening(() => undefined, { headersTimeout: 200, requestTimeout: 1000 })
      const client = await rawClient(address)
      expect((await client.next()).status).to.equal(408)
      await client.waitClosed()
    })

    it('a body slower than requestTimeout, with bodyTimeout off: 408 from Node, and onRequestAbort runs', async () => {
      const ends: string[] = []
      const { address } = await listening((root) => {
        root.addHook('onResponse', async () => { ends.push('response') })
        root.addHook('onRequestAbort', async () => { ends.push('abort') })
        root.post('/x', async () => 'never')
      }, { headersTimeout: 200, requestTimeout: 400, bodyTimeout: 0 })
      const client = await rawClient(address)
      client.write(POST_HEAD(100))
      await trickle(client, '{"a":"' + 'x'.repeat(90), 50)
      await client.waitClosed()
      expect(client.pending).to.match(/^HTTP\/1\.1 408 /)
      for (let i = 0; i < 100 && ends.length === 0; i++) await sleep(10)
      expect(ends).to.deep.equal(['abort'])
    })
  })

  describe('bodyTimeout: a trickled body cannot hold a socket', () => {
    it('408 ENC_ERR_CTP_BODY_TIMEOUT, connection closed, handler never run, one terminal hook', async () => {
      let ran = false
      const ends: string[] = []
      const { address } = await listening((root) => {
        root.addHook('onResponse', async () => { ends.push('response') })
        root.addHook('onRequestAbort', async () => { ends.push('abort') })
        root.post('/x', async () => { ran = true; return 'x' })
      }, { bodyTimeout: 200 })
      const client = await rawClient(address)
      client.write(POST_HEAD(200))
      await trickle(client, `{"a":"${'x'.repeat(190)}"}`, 40)
      const res = await client.next()
      expect(res.status).to.equal(408)
      expect(res.headers.connection).to.equal('close')
      expect(expectErrorShape(res.body, 408)).to.deep.equal({ statusCode: 408, code: 'ENC_ERR_CTP_BODY_TIMEOUT', error: 'Request Timeout', message: 'The request body was not received within 200 ms' })
      await client.waitClosed()
      expect(ran).to.equal(false)
      expect(ends).to.have.length(1)
    })

    it('a chunked body trickled chunk by chunk is cut the same way', async () => {
      const { address } = await listening((root) => { root.post('/x', async () => 'x') }, { bodyTimeout: 200 })
      const client = await rawClient(address)
      client.write('POST /x HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n')
      for (let i = 0; i < 100 && !client.isClosed; i++) { client.write('1\r\na\r\n'); await sleep(40) }
      expect((await client.next()).status).to.equal(408)
      await client.waitClosed()
    })

    it('a body a stream parser leaves to the handler (multipart-style) is under bodyTimeout too: 408, connection closed, request.signal aborted', async () => {
      let aborted: unknown = null
      const { address } = await listening((root) => {
        root.addContentTypeParser('application/octet-stream', (_request: Request, payload: IncomingMessage, done: (error: Error | null, value?: unknown) => void) => { done(null, payload) })
        root.post('/upload', async (request) => {
          request.signal.addEventListener('abort', () => { aborted = (request.signal.reason as { code?: string }).code })
          const chunks: Buffer[] = []
          for await (const chunk of request.body as AsyncIterable<Buffer>) chunks.push(chunk)
          return { bytes: Buffer.concat(chunks).length }
        })
      }, { bodyTimeout: 200, handlerTimeout: 5_000 })
      const client = await rawClient(address)
      client.write('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: 100\r\n\r\n0123456789')
      await expect408AndClosed(client, 'ENC_ERR_CTP_BODY_TIMEOUT')
      expect(aborted).to.equal('ENC_ERR_CTP_BODY_TIMEOUT')
    })

    it('a stream-parsed body that arrives in time is the handler\'s, and nothing answers after it', async () => {
      // The body is sent as the handler starts reading (not after a fixed delay), so only a stall
      // of the whole bodyTimeout could make it late.
      let sendBody = (): void => undefined
      const { address } = await listening((root) => {
        root.addContentTypeParser('application/octet-stream', (_request: Request, payload: IncomingMessage, done: (error: Error | null, value?: unknown) => void) => { done(null, payload) })
        root.post('/upload', async (request) => {
          sendBody()
          const chunks: Buffer[] = []
          for await (const chunk of request.body as AsyncIterable<Buffer>) chunks.push(chunk)
          await sleep(300)                                 // past bodyTimeout: the body had arrived, so no 408
          return { bytes: Buffer.concat(chunks).length }
        })
      }, { bodyTimeout: 200, handlerTimeout: 5_000 })
      const client = await rawClient(address)
      sendBody = () => client.write('0123456789')
      client.write('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: 10\r\n\r\n')
      const res = await client.next()
      expect(res.status).to.equal(200)
      expect(JSON.parse(res.body)).to.deep.equal({ bytes: 10 })
      client.destroy()
    })

    it('a body that arrives in time is served (0 turns the limit off)', async () => {
      for (const bodyTimeout of [2_000, 0]) {
        const { app, address } = await listening((root) => { root.post('/x', async (request) => request.body) }, { bodyTimeout })
        const client = await rawClient(address)
        client.write(POST_HEAD(9))
        await trickle(client, '{"a":123}', 10)
        expect((await client.next()).status).to.equal(200)
        client.destroy()
        await app.close()
      }
    })
  })

  describe('handlerTimeout: a request not answered in time gets a 503', () => {
    it('a handler that never answers: 503, logged with ENC_ERR_HANDLER_TIMEOUT and the request id; the connection keeps serving', async () => {
      const logger = recordingLogger()
      const { address } = await listening((root) => {
        root.get('/hang', () => new Promise(() => undefined))
        root.get('/ok', async () => ({ ok: true }))
      }, { handlerTimeout: 200, logger })
      const client = await rawClient(address)
      client.write('GET /hang HTTP/1.1\r\nHost: x\r\n\r\n')
      const res = await client.next()
      expect(res.status).to.equal(503)
      expect(JSON.parse(res.body)).to.deep.equal({ statusCode: 503, error: 'Service Unavailable', message: 'Service Unavailable' })
      const entry = logger.entries.find((e) => e.level === 'error')
      expect((entry?.obj.err as { code?: string }).code).to.equal('ENC_ERR_HANDLER_TIMEOUT')
      expect(entry?.obj.reqId).to.match(/^req-/)
      client.write('GET /ok HTTP/1.1\r\nHost: x\r\n\r\n')
      expect((await client.next()).status).to.equal(200)
      client.destroy()
    })

    it('what the handler sends after the 503 is dropped and logged, never a second answer', async () => {
      const logger = recordingLogger()
      // The handler answers once the 503 is in, not after a fixed delay: deadlines count sweeps,
      // and a stalled event loop (a loaded machine) delays the sweeps, not a sleeping handler.
      const late = gate()
      const { address } = await listening((root) => {
        root.get('/late', async () => { await late.opened; return { late: true } })
      }, { handlerTimeout: 200, logger })
      const client = await rawClient(address)
      client.write('GET /late HTTP/1.1\r\nHost: x\r\n\r\n')
      expect((await client.next()).status).to.equal(503)
      late.open()
      for (let i = 0; i < 100 && !logger.entries.some((e) => e.obj.code === 'ENC_ERR_REPLY_ALREADY_SENT'); i++) await sleep(20)
      expect(logger.entries.some((e) => e.level === 'warn' && e.obj.code === 'ENC_ERR_REPLY_ALREADY_SENT')).to.equal(true)
      expect(client.pending).to.equal('')
      client.destroy()
    })

    // onError runs only when the error handler sends the error on (Fastify 3's order, issue 12).
    it('goes through the error handler, which may answer as it likes (then onError does not run)', async () => {
      const seen: string[] = []
      const { address } = await listening((root) => {
        root.addHook('onError', async (_request, _reply, error) => { seen.push(`onError ${(error as { code?: string }).code}`) })
        root.setErrorHandler(async (error, _request, reply) => { reply.code(504); return { timedOut: error.code } })
        root.get('/hang', () => new Promise(() => undefined))
      }, { handlerTimeout: 200 })
      const client = await rawClient(address)
      client.write('GET /hang HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
      const res = await client.next()
      expect(res.status).to.equal(504)
      expect(JSON.parse(res.body)).to.deep.equal({ timedOut: 'ENC_ERR_HANDLER_TIMEOUT' })
      expect(seen).to.deep.equal([])
    })

    it('an error handler that hangs as well: the next expiry writes the 503 anyway', async () => {
      const { address } = await listening((root) => {
        root.setErrorHandler(() => new Promise(() => undefined))
        root.get('/hang', () => new Promise(() => undefined))
      }, { handlerTimeout: 200 })
      const client = await rawClient(address)
      client.write('GET /hang HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
      expect((await client.next()).status).to.equal(503)
    })

    it('a hook that hangs (onRequest, or onSend with the payload in hand) is covered too', async () => {
      const { address } = await listening((root) => {
        root.get('/a', { onRequest: () => new Promise(() => undefined) }, async () => 'a')
        root.get('/b', { onSend: () => new Promise(() => undefined) }, async () => 'b')
      }, { handlerTimeout: 200 })
      for (const path of ['/a', '/b']) {
        const client = await rawClient(address)
        client.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)
        const res = await client.next()
        expect(res.status, path).to.equal(503)
        expectErrorShape(res.body, 503)
      }
    })

    it('a slow async body parser: 503, and the handler does not run once the parser finally resolves', async () => {
      let ran = false
      let parsed = false
      // The parser resolves once the 503 is in (as the handler above answers), then the handler has time to (wrongly) run.
      const slowParse = gate()
      const { address } = await listening((root) => {
        root.addContentTypeParser('text/csv', async (_request, body) => { await slowParse.opened; parsed = true; return String(body).split(',') })
        root.post('/csv', async () => { ran = true; return 'ran' })
      }, { handlerTimeout: 200 })
      const client = await rawClient(address)
      client.write('POST /csv HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\nContent-Length: 3\r\n\r\na,b')
      expect((await client.next()).status).to.equal(503)
      slowParse.open()
      for (let i = 0; i < 100 && !parsed; i++) await sleep(10)
      expect(parsed, 'the parser resolved').to.equal(true)
      await sleep(100)
      expect(ran).to.equal(false)
      client.destroy()
    })

    it('time spent waiting for a slow body is not the handler\'s: a body slower than handlerTimeout is served', async () => {
      const { address } = await listening((root) => { root.post('/x', async (request) => request.body) }, { handlerTimeout: 200, bodyTimeout: 5_000 })
      const client = await rawClient(address)
      client.write(POST_HEAD(9))
      await trickle(client, '{"a":123}', 60)
      const res = await client.next()
      expect(res.status).to.equal(200)
      expect(JSON.parse(res.body)).to.deep.equal({ a: 123 })
      client.destroy()
    })

    it('0 turns it off: a slow handler is simply waited for', async () => {
      const { address } = await listening((root) => { root.get('/slow', async () => { await sleep(300); return { done: true } }) }, { handlerTimeout: 0 })
      const client = await rawClient(address)
      client.write('GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
      expect((await client.next()).status).to.equal(200)
    })

    it('many at once: every hanging request gets its 503 and every answered one its 200', async () => {
      const { address } = await listening((root) => {
        root.get('/hang', () => new Promise(() => undefined))
        root.get('/soon', async () => { await sleep(20); return { ok: true } })
      }, { handlerTimeout: 200 })
      const clients = await Promise.all(Array.from({ length: 30 }, () => rawClient(address)))
      // Interleaved, so answered requests leave the deadline list from its middle.
      clients.forEach((client, i) => client.write(`GET ${i % 2 === 0 ? '/hang' : '/soon'} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`))
      const statuses = await Promise.all(clients.map(async (client) => (await client.next()).status))
      expect(statuses).to.deep.equal(Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? 503 : 200)))
    })

    it('costs no timer per request: 300 answered requests leave no timers behind', async () => {
      const { address } = await listening((root) => { root.get('/x', async () => ({ ok: true })) }, { handlerTimeout: 60_000 })
      const timers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length
      const client = await rawClient(address)
      const before = timers()
      for (let i = 0; i < 300; i++) {
        client.write('GET /x HTTP/1.1\r\nHost: x\r\n\r\n')
        await client.next()
      }
      expect(timers() - before).to.be.below(10)
      client.destroy()
    })
  })

  describe('keepAliveTimeout and the option rules', () => {
    it('an idle keep-alive connection is closed after keepAliveTimeout', async () => {
      const { address } = await listening((root) => { root.get('/x', async () => 'x') }, { keepAliveTimeout: 200 })
      const client = await rawClient(address)
      client.write('GET /x HTTP/1.1\r\nHost: x\r\n\r\n')
      const res = await client.next()
      expect(res.headers.connection).to.equal('keep-alive')
      await client.waitClosed()
    })

    it('the Node timeouts are set on the http.Server: 30 s headers, 120 s request, 5 s keep-alive by default', () => {
      const app = createServer()
      expect([app.server.headersTimeout, app.server.requestTimeout, app.server.keepAliveTimeout]).to.deep.equal([30_000, 120_000, 5_000])
    })

    it('a requestTimeout below the default headersTimeout, given alone, lowers headersTimeout to it (Node\'s rule) instead of failing createServer()', () => {
      const app = createServer({ requestTimeout: 1_000 })
      expect([app.server.headersTimeout, app.server.requestTimeout]).to.deep.equal([1_000, 1_000])
    })

    const bad: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
      ['a negative handlerTimeout', { handlerTimeout: -1 }],
      ['a fractional bodyTimeout', { bodyTimeout: 1.5 }],
      ['NaN as keepAliveTimeout', { keepAliveTimeout: Number.NaN }],
      ['a string closeTimeout', { closeTimeout: '100' }],
      ['a bodyLimit of 0', { bodyLimit: 0 }],
      ['headersTimeout above requestTimeout', { headersTimeout: 5_000, requestTimeout: 1_000 }],
    ]
    for (const [label, options] of bad) {
      it(`${label} fails createServer() with ENC_ERR_SERVER_INVALID_OPTION`, () => {
        let error: (Error & { code?: string }) | null = null
        try { createServer(options as never) } catch (e) { error = e as Error & { code?: string } }
        expect(error?.code).to.equal('ENC_ERR_SERVER_INVALID_OPTION')
      })
    }
  })
})
