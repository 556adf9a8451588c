// Content-type parsers a user declares that never finish: one that never calls done(), one whose
// promise never settles, a stream parser that reads the whole body and then never answers, one
// that never reads it. Fastify 3.27.4 and 5 have no bound here (their connectionTimeout and
// requestTimeout are off by default): measured, the request hangs until the client gives up.
// Enclave's handlerTimeout (runs again from the body's end) answers 503 and logs the code; a
// parser that never reads the body is bodyTimeout's (408, the connection closed). A done() called
// after the answer is dropped, never a second answer.
import { expect } from 'chai'
import type { IncomingMessage } from 'node:http'
import type { Request } from '../../src/runtime'
import { expectErrorShape, listening, rawClient, recordingLogger, sleep } from './helpers'

type Done = (error: Error | null, value?: unknown) => void

const HANDLER_MS = 300

function post(type: string, body = '{"a":1}', close = false): string {
  return `POST /p HTTP/1.1\r\nHost: x\r\n${close ? 'Connection: close\r\n' : ''}Content-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
}

describe('hardening: content-type parsers that never finish', function () {
  this.timeout(10_000)

  const late: Done[] = []
  const PARSERS: Array<[string, string, (root: Parameters<Parameters<typeof listening>[0]>[0]) => void]> = [
    ["a parseAs: 'string' parser that never calls done()", 'application/x-never-done',
      (root) => { root.addContentTypeParser('application/x-never-done', { parseAs: 'string' }, (_r: Request, _body: string | Buffer, done: Done) => { late.push(done) }) }],
    ['an async (request, body) parser whose promise never settles', 'application/x-never-settles',
      (root) => { root.addContentTypeParser('application/x-never-settles', async () => { await new Promise(() => undefined) }) }],
    ['a stream parser that reads the whole body, then never calls done()', 'application/x-stream-never-done',
      (root) => { root.addContentTypeParser('application/x-stream-never-done', (_r: Request, payload: IncomingMessage, done: Done) => { payload.resume(); payload.on('end', () => late.push(done)) }) }],
  ]

  for (const [name, type, declareParser] of PARSERS) {
    it(`${name}: 503 at handlerTimeout, ENC_ERR_HANDLER_TIMEOUT logged, the handler never run; the connection serves the next request`, async () => {
      late.length = 0
      const logger = recordingLogger()
      let handled = 0
      const { address } = await listening((root) => {
        declareParser(root)
        root.post('/p', async () => { handled++; return 'parsed' })
        root.get('/next', async () => 'next')
      }, { logger, handlerTimeout: HANDLER_MS })
      const client = await rawClient(address)
      const started = Date.now()
      client.write(post(type))
      const res = await client.next(5_000)
      expect(res.status).to.equal(503)
      expectErrorShape(res.body, 503)
      expect(Date.now() - started).to.be.below(4_000)
      expect(logger.entries.some((e) => e.level === 'error' && (e.obj.err as { code?: string } | undefined)?.code === 'ENC_ERR_HANDLER_TIMEOUT')).to.equal(true)
      // The parser finishing after the answer changes nothing: no second answer, no handler run.
      for (const done of late) done(null, { late: true })
      client.write('GET /next HTTP/1.1\r\nHost: x\r\n\r\n')
      const next = await client.next(5_000)
      expect(next.status).to.equal(200)
      expect(next.body).to.equal('next')
      await sleep(50)
      expect(client.pending).to.equal('')
      expect(handled).to.equal(0)
      client.destroy()
    })
  }

  it('a stream parser that never reads the body: 408 ENC_ERR_CTP_BODY_TIMEOUT at bodyTimeout and the connection closed (the unread body cannot be skipped)', async () => {
    let handled = 0
    const { address } = await listening((root) => {
      root.addContentTypeParser('application/x-never-read', (_r: Request, _payload: IncomingMessage, _done: Done) => undefined)
      root.post('/p', async () => { handled++; return 'parsed' })
    }, { bodyTimeout: HANDLER_MS, handlerTimeout: 60_000 })
    const client = await rawClient(address)
    client.write(post('application/x-never-read', 'x'.repeat(256 * 1024)))
    const res = await client.next(5_000)
    expect(expectErrorShape(res.body, 408).code).to.equal('ENC_ERR_CTP_BODY_TIMEOUT')
    await client.waitClosed(3_000)
    expect(handled).to.equal(0)
  })
})
