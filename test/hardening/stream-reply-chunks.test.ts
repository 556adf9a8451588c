// A stream reply must give strings or bytes. An object-mode stream that gives an object or a
// number (Readable.from(rows), the natural first try at an NDJSON export) made Node's res.write
// throw inside stream.pipe's 'data' listener: an uncaught exception (the process down, as in
// Fastify 3) while the client got an empty 200. It is now a coded error, and the server lives on.
import { get } from 'node:http'
import { Readable } from 'node:stream'
import { expect } from 'chai'
import { GENERIC_500, listening, rawClient, recordingLogger, within } from './helpers'

// A failure before the first byte is the error reply's line (error); after it, Fastify 3's
// 'response terminated with an error with headers already sent' line (warn).
function errorCodes(logger: ReturnType<typeof recordingLogger>): Array<string | undefined> {
  return logger.entries.filter((e) => e.level === 'error' || e.level === 'warn').map((e) => (e.obj.err as { code?: string } | undefined)?.code)
}

describe('hardening: an object-mode stream reply that gives objects', () => {
  for (const [label, items] of [['an object', [{ id: 1 }, { id: 2 }]], ['a number', [1, 2]]] as const) {
    it(`its first chunk ${label}: 500 ENC_ERR_REPLY_STREAM_CHUNK (logged, naming the route), no uncaught exception, the next request served`, async () => {
      const logger = recordingLogger()
      const { app } = await listening((root) => {
        root.get('/export', async () => Readable.from([...items]))
        root.get('/next', async () => 'next')
      }, { logger })
      const res = await within(app.inject({ url: '/export' }), 5_000, 'GET /export')
      expect(res.statusCode).to.equal(500)
      expect(JSON.parse(res.body)).to.deep.equal(GENERIC_500)
      expect(errorCodes(logger)).to.include('ENC_ERR_REPLY_STREAM_CHUNK')
      const err = logger.entries.find((e) => (e.obj.err as { code?: string } | undefined)?.code === 'ENC_ERR_REPLY_STREAM_CHUNK')?.obj.err as Error
      expect(err.message).to.contain('GET /export').and.contain(label)
      expect((await app.inject({ url: '/next' })).body).to.equal('next')
    })
  }

  it('an object after string chunks: the body is cut and the connection closed (headers were out), logged, no uncaught exception', async () => {
    const logger = recordingLogger()
    const { address } = await listening((root) => {
      root.get('/export', async (_request, reply) => {
        reply.type('application/x-ndjson')
        return Readable.from(['{"id":1}\n', '{"id":2}\n', { id: 3 }, '{"id":4}\n'])
      })
    }, { logger })
    const client = await rawClient(address)
    client.write('GET /export HTTP/1.1\r\nHost: x\r\n\r\n')
    await client.waitClosed()
    expect(client.pending).to.match(/^HTTP\/1\.1 200 /)
    expect(client.pending).to.contain('{"id":1}').and.not.contain('{"id":4}')
    expect(errorCodes(logger)).to.include('ENC_ERR_REPLY_STREAM_CHUNK')
  })

  it('an object-mode stream larger than the socket buffers (2 MB of lines) arrives whole: backpressure pauses and resumes it', async () => {
    const line = 'x'.repeat(1023) + '\n'
    const { address } = await listening((root) => {
      root.get('/big', async () => Readable.from(Array.from({ length: 2048 }, () => line)))
    })
    const received = await within(new Promise<number>((resolve, reject) => {
      get(`${address}/big`, (response) => {
        let bytes = 0
        response.pause()                                  // a slow reader first: the server must wait
        setTimeout(() => { response.on('data', (chunk: Buffer) => { bytes += chunk.length }); response.resume() }, 50)
        response.on('end', () => resolve(bytes))
      }).once('error', reject)
    }), 10_000, 'GET /big')
    expect(received).to.equal(2048 * 1024)
  })

  it('an object-mode stream with a Content-Length set is held to it like a byte stream: exact, served', async () => {
    const { app } = await listening((root) => {
      root.get('/sized', async (_request, reply) => { reply.header('content-length', '6').type('text/plain'); return Readable.from(['abc', 'def']) })
    })
    const res = await app.inject({ url: '/sized' })
    expect([res.statusCode, res.headers['content-length'], res.body]).to.deep.equal([200, '6', 'abcdef'])
  })

  it('an object-mode stream of strings and Buffers (NDJSON lines) is served as it is', async () => {
    const { app } = await listening((root) => {
      root.get('/export', async (_request, reply) => {
        reply.type('application/x-ndjson')
        return Readable.from(['{"id":1}\n', Buffer.from('{"id":2}\n'), new Uint8Array(Buffer.from('{"id":3}\n'))])
      })
    })
    const res = await app.inject({ url: '/export' })
    expect([res.statusCode, res.headers['content-type'], res.body]).to.deep.equal([200, 'application/x-ndjson', '{"id":1}\n{"id":2}\n{"id":3}\n'])
  })

  it('an object-mode stream paused before it is sent is resumed and served whole, as pipe() does (was a request that never ended)', async () => {
    const { app } = await listening((root) => {
      root.get('/paused', async () => {
        const stream = Readable.from(['{"id":1}\n', '{"id":2}\n'])
        stream.pause()
        return stream
      })
    })
    const res = await within(app.inject({ url: '/paused' }), 5_000, 'GET /paused')
    expect([res.statusCode, res.body]).to.deep.equal([200, '{"id":1}\n{"id":2}\n'])
  })
})
