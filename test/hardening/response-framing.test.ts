// What a handler puts in its reply headers cannot split or mis-frame the response: a value is
// turned into text once (Node checks it for CR/LF, then writes it: an object converted twice
// could pass the check and inject), and a Transfer-Encoding the handler sets never goes out
// beside a Content-Length (RFC 9112 §6.2: a reader of either would disagree on the body's end).
import { Readable } from 'node:stream'
import { expect } from 'chai'
import { listening, rawClient, recordingLogger } from './helpers'

/** An object whose text is harmless the first time it is asked for and a header injection after. */
function shapeShifter(): { toString(): string } {
  let calls = 0
  return { toString: () => calls++ === 0 ? 'ok' : 'a\r\nX-Injected: 1' }
}

async function rawGet(address: string, path: string): Promise<string> {
  const client = await rawClient(address)
  client.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)
  await client.waitClosed()
  return client.pending
}

describe('hardening: response headers and framing set by a handler', () => {
  const setters: ReadonlyArray<readonly [string, (reply: { header(n: string, v: never): unknown; type(t: never): unknown }) => void]> = [
    ['reply.header(name, object)', (reply) => reply.header('x-v', shapeShifter() as never)],
    ['reply.header(name, [object])', (reply) => reply.header('x-v', [shapeShifter()] as never)],
    ['reply.type(object)', (reply) => reply.type(shapeShifter() as never)],
  ]
  for (const [label, set] of setters) {
    it(`${label}: its text is taken once, so a value that changes on a second toString() injects nothing`, async () => {
      const { address } = await listening((root) => { root.get('/x', async (_request, reply) => { set(reply as never); return 'body' }) })
      const text = await rawGet(address, '/x')
      expect(text).to.match(/^HTTP\/1\.1 200 /)
      expect(text.toLowerCase()).to.not.contain('x-injected')
    })
  }

  it('numbers stay numbers, arrays of strings stay as given, undefined is an empty header and null the text null (both as Fastify 3.27.4 writes them)', async () => {
    const { address } = await listening((root) => {
      root.get('/ok', async (_request, reply) => { reply.header('x-n', 42).header('x-a', ['a', 'b']); return { n: reply.getHeader('x-n') } })
      root.get('/undef', async (_request, reply) => { reply.header('x-u', undefined as never); return 'empty' })
      root.get('/null', async (_request, reply) => { reply.header('x-u', null as never); return 'text' })
    })
    const ok = await rawGet(address, '/ok')
    expect(ok).to.contain('x-n: 42\r\n').and.contain('x-a: a\r\nx-a: b\r\n')
    expect(ok).to.contain('{"n":42}')
    expect(await rawGet(address, '/undef')).to.match(/^HTTP\/1\.1 200 /).and.contain('x-u: \r\n')
    expect(await rawGet(address, '/null')).to.match(/^HTTP\/1\.1 200 /).and.contain('x-u: null\r\n')
  })

  for (const withLength of [false, true]) {
    it(`Transfer-Encoding: chunked set by the handler${withLength ? ', with a Content-Length too' : ''}: no Content-Length goes out, the body is chunked`, async () => {
      const { address } = await listening((root) => {
        root.get('/x', async (_request, reply) => {
          reply.header('transfer-encoding', 'chunked')
          if (withLength) reply.header('content-length', '3')
          return 'abc'
        })
      })
      const text = await rawGet(address, '/x')
      const [head, body] = text.split('\r\n\r\n', 2)
      expect(head.toLowerCase()).to.contain('transfer-encoding: chunked')
      expect(head.toLowerCase()).to.not.contain('content-length')
      expect(body).to.equal('3\r\nabc\r\n0')
    })
  }

  it('a Transfer-Encoding set by the handler that does not end in chunked (gzip): no Content-Length, and the connection closes to end the body', async () => {
    const { address } = await listening((root) => {
      root.get('/x', async (_request, reply) => { reply.header('transfer-encoding', 'gzip'); return 'abc' })
      root.get('/next', async () => 'next')
    })
    const client = await rawClient(address)
    client.write('GET /x HTTP/1.1\r\nHost: x\r\n\r\nGET /next HTTP/1.1\r\nHost: x\r\n\r\n')
    await client.waitClosed()
    const [head, body] = client.pending.split('\r\n\r\n', 2)
    expect(head.toLowerCase()).to.not.contain('content-length')
    expect(head.toLowerCase()).to.contain('connection: close')
    // Read to the close, the body is the handler's alone: the pipelined request was not answered on it.
    expect(body).to.equal('abc')
  })

  // A stream's head is staged until its first byte (so that a stream failing first is an error
  // reply): the Transfer-Encoding rules above hold for it too.
  it('a stream reply with Transfer-Encoding: chunked and a Content-Length set by the handler: no Content-Length goes out, the whole body is chunked, the next pipelined request is answered', async () => {
    const { address } = await listening((root) => {
      root.get('/s', async (_request, reply) => { reply.header('transfer-encoding', 'chunked').header('content-length', '3'); return Readable.from([Buffer.from('abcdef')]) })
      root.get('/next', async () => 'next')
    })
    const client = await rawClient(address)
    client.write('GET /s HTTP/1.1\r\nHost: x\r\n\r\nGET /next HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    await client.waitClosed()
    const [head, body] = client.pending.split('\r\n\r\n', 2)
    expect(head.toLowerCase()).to.contain('transfer-encoding: chunked').and.not.contain('content-length')
    expect(body).to.equal('6\r\nabcdef\r\n0')
    expect(client.pending).to.match(/\r\n\r\nnext$/)
  })

  it('a stream reply with a Transfer-Encoding that does not end in chunked (gzip): the connection closes to end the body', async () => {
    const { address } = await listening((root) => {
      root.get('/s', async (_request, reply) => { reply.header('transfer-encoding', 'gzip'); return Readable.from([Buffer.from('abc')]) })
      root.get('/next', async () => 'next')
    })
    const client = await rawClient(address)
    client.write('GET /s HTTP/1.1\r\nHost: x\r\n\r\nGET /next HTTP/1.1\r\nHost: x\r\n\r\n')
    await client.waitClosed()
    const [head, body] = client.pending.split('\r\n\r\n', 2)
    expect(head.toLowerCase()).to.contain('connection: close').and.not.contain('content-length')
    expect(body).to.equal('abc')
  })

  // A keep-alive client reads by the declared length: extra bytes would start its next response,
  // missing ones would swallow it. The second, pipelined request shows which happened.
  for (const [label, chunks] of [['longer', ['ab', 'cdefgh']], ['shorter', ['ab']]] as const) {
    it(`a stream ${label} than the Content-Length set for it: cut, the connection closed, logged as ENC_ERR_REPLY_STREAM_LENGTH; the next pipelined request is never misread`, async () => {
      const logger = recordingLogger()
      const { address } = await listening((root) => {
        root.get('/s', async (_request, reply) => { reply.header('content-length', '4').type('text/plain'); return Readable.from([...chunks]) })
        root.get('/next', async () => 'next')
      }, { logger })
      const client = await rawClient(address)
      client.write('GET /s HTTP/1.1\r\nHost: x\r\n\r\nGET /next HTTP/1.1\r\nHost: x\r\n\r\n')
      await client.waitClosed()
      const text = client.pending
      // At most the declared 4 bytes of body, and nothing that a reader would take for a response.
      expect(text).to.not.contain('efgh')
      expect(text.match(/HTTP\/1\.1 /g) ?? []).to.have.length.at.most(1)
      const err = logger.entries.find((e) => e.level === 'error')?.obj.err as Error & { code?: string }
      expect(err.code).to.equal('ENC_ERR_REPLY_STREAM_LENGTH')
    })
  }

  it('a stream longer than a Content-Length set on reply.raw (a middleware\'s setHeader): cut and the connection closed too, logged as ENC_ERR_REPLY_STREAM_LENGTH', async () => {
    const logger = recordingLogger()
    const { address } = await listening((root) => {
      root.get('/s', async (_request, reply) => { reply.raw.setHeader('content-length', 4); reply.type('text/plain'); return Readable.from(['ab', 'cdefgh']) })
      root.get('/next', async () => 'next')
    }, { logger })
    const client = await rawClient(address)
    client.write('GET /s HTTP/1.1\r\nHost: x\r\n\r\nGET /next HTTP/1.1\r\nHost: x\r\n\r\n')
    await client.waitClosed()
    expect(client.pending).to.not.contain('efgh')
    expect(client.pending.match(/HTTP\/1\.1 /g) ?? []).to.have.length.at.most(1)
    const err = logger.entries.find((e) => e.level === 'error')?.obj.err as Error & { code?: string }
    expect(err.code).to.equal('ENC_ERR_REPLY_STREAM_LENGTH')
  })

  it('Transfer-Encoding: chunked set by the handler drops a Content-Length set on reply.raw too', async () => {
    const { address } = await listening((root) => {
      root.get('/x', async (_request, reply) => { reply.raw.setHeader('content-length', '3'); reply.header('transfer-encoding', 'chunked'); return 'abcdef' })
    })
    const text = await rawGet(address, '/x')
    const [head, body] = text.split('\r\n\r\n', 2)
    expect(head.toLowerCase()).to.contain('transfer-encoding: chunked').and.not.contain('content-length')
    expect(body).to.equal('6\r\nabcdef\r\n0')
  })

  // A source that reports an error and still gives bytes (an 'error' emitted by hand, not destroy()):
  // before the first byte the error reply answers, and none of those bytes may reach the response
  // (under the 200 head staged for the stream), with or without a Content-Length guard in between.
  for (const withLength of [false, true]) {
    it(`a stream that fails before its first byte and then still gives bytes${withLength ? ', under a Content-Length' : ''}: the error reply alone is sent, none of the late bytes`, async () => {
      const { address } = await listening((root) => {
        root.get('/s', async (_request, reply) => {
          if (withLength) reply.header('content-length', '10')
          reply.type('text/plain')
          let started = false
          return new Readable({
            read() {
              if (started) return
              started = true
              this.emit('error', new Error('source failed'))
              this.push('late bytes')
              this.push(null)
            },
          })
        })
      })
      const text = await rawGet(address, '/s')
      expect(text).to.match(/^HTTP\/1\.1 500 /)
      expect(text).to.not.contain('late bytes')
      expect(text.match(/HTTP\/1\.1 /g) ?? []).to.have.length(1)
    })
  }

  it('a stream exactly as long as its Content-Length is served, and the connection kept', async () => {
    const { address } = await listening((root) => {
      root.get('/s', async (_request, reply) => { reply.header('content-length', '6').type('text/plain'); return Readable.from(['abc', 'def']) })
    })
    const client = await rawClient(address)
    client.write('GET /s HTTP/1.1\r\nHost: x\r\n\r\n')
    const first = await client.next()
    client.write('GET /s HTTP/1.1\r\nHost: x\r\n\r\n')
    const second = await client.next()
    expect([first.status, first.body, second.status, second.body]).to.deep.equal([200, 'abcdef', 200, 'abcdef'])
    expect(client.isClosed).to.equal(false)
    client.socket.destroy()
  })
})
