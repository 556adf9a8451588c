// A stream reply must give strings or bytes. An object-mode stream that gives an object or a
// number (Readable.from(rows), the natural first try at an NDJSON export) made Node's res.write
// throw inside stream.pipe's 'data' listener: an uncaught exception (the process down, as in
// Fastify 3) while the client got an empty 200. It is now a coded error, and the server lives on.
import { Readable } from 'node:stream'
import { expect } from 'chai'
import { GENERIC_500, listening, rawClient, recordingLogger, within } from './helpers'

function errorCodes(logger: ReturnType<typeof recordingLogger>): Array<string | undefined> {
  return logger.entries.filter((e) => e.level === 'error').map((e) => (e.obj.err as { code?: string } | undefined)?.code)
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
})
