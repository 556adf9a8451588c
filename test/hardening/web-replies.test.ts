// Web-platform payloads (fetch's Response and its body ReadableStream, typed arrays) are sent as
// Fastify 5 sends them. Before, as in Fastify 3, they went out as JSON: `{}` with a 200 and no log
// line, the body silently lost. A web stream gets every guard a Node stream reply gets.
import { ReadableStream } from 'node:stream/web'
import { runInNewContext } from 'node:vm'
import { expect } from 'chai'
import { listening, rawClient, recordingLogger, sleep, within } from './helpers'
import { poll } from '../support/until'

function webStream(chunks: readonly unknown[], onCancel?: () => void): ReadableStream {
  let i = 0
  return new ReadableStream({
    pull(controller) { if (i < chunks.length) controller.enqueue(chunks[i++]); else controller.close() },
    cancel() { onCancel?.() },
  })
}

/** A stream that gives one chunk, then nothing more until it is cancelled. */
function endlessWebStream(onCancel: () => void): ReadableStream {
  let first = true
  return new ReadableStream({
    pull(controller) { if (first) { first = false; controller.enqueue(new TextEncoder().encode('first')) } else return new Promise(() => undefined) },
    cancel() { onCancel() },
  })
}

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text)
// The bodies here are bytes below 0x80, which inject's UTF-8 body keeps as they are.
const octets = (body: string): number[] => [...Buffer.from(body, 'latin1')]

function loggedCodes(logger: ReturnType<typeof recordingLogger>): Array<string | undefined> {
  return logger.entries.filter((e) => e.level === 'error' || e.level === 'warn').map((e) => (e.obj.err as { code?: string } | undefined)?.code)
}

const waitFor = (condition: () => boolean): Promise<boolean> => poll(condition, { ms: 2_500, every: 5 })

describe('hardening: web ReadableStream replies', () => {
  it('a returned ReadableStream is piped as the body, application/octet-stream unless a type is set (not `{}`)', async () => {
    const { app } = await listening((root) => {
      root.get('/raw', async () => webStream([bytes('hello '), bytes('web')]))
      root.get('/typed', async (_request, reply) => { reply.type('text/plain; charset=utf-8'); return webStream([bytes('typed')]) })
    })
    const raw = await app.inject({ url: '/raw' })
    expect([raw.statusCode, raw.headers['content-type'], raw.body]).to.deep.equal([200, 'application/octet-stream', 'hello web'])
    const typed = await app.inject({ url: '/typed' })
    expect([typed.headers['content-type'], typed.body]).to.deep.equal(['text/plain; charset=utf-8', 'typed'])
  })

  it('a ReadableStream under a response schema is piped as it is, the schema not applied (Fastify 5)', async () => {
    const { app } = await listening((root) => {
      root.get('/s', { schema: { response: { 200: { type: 'object', properties: { a: { type: 'string' } } } } } }, async () => webStream([bytes('not json')]))
    })
    const res = await app.inject({ url: '/s' })
    expect([res.statusCode, res.body]).to.deep.equal([200, 'not json'])
  })

  it('a locked ReadableStream: 500 ENC_ERR_REPLY_WEB_STREAM_LOCKED (logged), the next request served', async () => {
    const logger = recordingLogger()
    const { app } = await listening((root) => {
      root.get('/locked', async () => { const s = webStream([bytes('x')]); s.getReader(); return s })
      root.get('/next', async () => 'next')
    }, { logger })
    const res = await app.inject({ url: '/locked' })
    expect(res.statusCode).to.equal(500)
    expect(loggedCodes(logger)).to.include('ENC_ERR_REPLY_WEB_STREAM_LOCKED')
    expect((await app.inject({ url: '/next' })).body).to.equal('next')
  })

  it('a disturbed (partly read, released) ReadableStream sends what is left, as Fastify 5', async () => {
    const { app } = await listening((root) => {
      root.get('/rest', async () => {
        const s = webStream([bytes('a'), bytes('b'), bytes('c')])
        const reader = s.getReader()
        await reader.read()
        reader.releaseLock()
        return s
      })
    })
    expect((await app.inject({ url: '/rest' })).body).to.equal('bc')
  })

  it('an error before the first byte is an error reply (500 JSON, logged), not a cut octet-stream', async () => {
    const logger = recordingLogger()
    const { app } = await listening((root) => {
      root.get('/fail', async () => new ReadableStream({ start(controller) { controller.error(new Error('source failed')) } }))
    }, { logger })
    const res = await app.inject({ url: '/fail' })
    expect(res.statusCode).to.equal(500)
    expect(res.headers['content-type']).to.match(/^application\/json/)
    expect(logger.entries.some((e) => (e.obj.err as Error | undefined)?.message === 'source failed')).to.equal(true)
  })

  it('an error after the first byte cuts the body and closes the connection (logged), the server lives on', async () => {
    const logger = recordingLogger()
    const { address } = await listening((root) => {
      root.get('/cut', async () => {
        let n = 0
        return new ReadableStream({
          async pull(controller) {
            if (n++ === 0) { controller.enqueue(bytes('partial')); return }
            await sleep(10)
            controller.error(new Error('source failed midway'))
          },
        })
      })
    }, { logger })
    const client = await rawClient(address)
    client.write('GET /cut HTTP/1.1\r\nHost: x\r\n\r\n')
    await within(client.waitClosed(), 5_000, 'the cut connection')
    expect(client.pending).to.match(/^HTTP\/1\.1 200 /)
    expect(client.pending).to.contain('partial')
    expect(logger.entries.some((e) => (e.obj.err as Error | undefined)?.message === 'source failed midway')).to.equal(true)
  })

  it('a Content-Length that the stream does not match: the body is cut, the connection closed, ENC_ERR_REPLY_STREAM_LENGTH logged', async () => {
    const logger = recordingLogger()
    const { address } = await listening((root) => {
      root.get('/short', async (_request, reply) => { reply.header('content-length', '100'); return webStream([bytes('only this')]) })
    }, { logger })
    const client = await rawClient(address)
    client.write('GET /short HTTP/1.1\r\nHost: x\r\n\r\n')
    await within(client.waitClosed(), 5_000, 'the cut connection')
    expect(loggedCodes(logger)).to.include('ENC_ERR_REPLY_STREAM_LENGTH')
  })

  it('a web stream of objects: 500 ENC_ERR_REPLY_STREAM_CHUNK, as an object-mode Node stream', async () => {
    const logger = recordingLogger()
    const { app } = await listening((root) => {
      root.get('/objects', async () => webStream([{ id: 1 }]))
    }, { logger })
    expect((await app.inject({ url: '/objects' })).statusCode).to.equal(500)
    expect(loggedCodes(logger)).to.include('ENC_ERR_REPLY_STREAM_CHUNK')
  })

  it('HEAD on a GET route that returns a ReadableStream: the head, no body, the stream cancelled unread', async () => {
    let cancelled = false
    const { app } = await listening((root) => {
      root.get('/file', async () => webStream([bytes('body')], () => { cancelled = true }))
    })
    const res = await app.inject({ method: 'HEAD', url: '/file' })
    expect([res.statusCode, res.headers['content-type'], res.body]).to.deep.equal([200, 'application/octet-stream', ''])
    await waitFor(() => cancelled)
    expect(cancelled).to.equal(true)
  })

  it('a client that goes away mid-stream cancels the web stream', async () => {
    let cancelled = false
    const { address } = await listening((root) => {
      root.get('/endless', async () => endlessWebStream(() => { cancelled = true }))
    })
    const client = await rawClient(address)
    client.write('GET /endless HTTP/1.1\r\nHost: x\r\n\r\n')
    await waitFor(() => client.pending.includes('first'))
    client.destroy()
    await client.waitClosed()
    await waitFor(() => cancelled)
    expect(cancelled).to.equal(true)
  })

  it('close() while a web stream is being sent: closed at closeTimeout, the stream cancelled', async () => {
    let cancelled = false
    const { app, address } = await listening((root) => {
      root.get('/endless', async () => endlessWebStream(() => { cancelled = true }))
    }, { closeTimeout: 300 })
    const client = await rawClient(address)
    client.write('GET /endless HTTP/1.1\r\nHost: x\r\n\r\n')
    await waitFor(() => client.pending.includes('first'))
    await within(app.close(), 5_000, 'close() with a web stream reply in flight (closeTimeout 300 ms)')
    await client.waitClosed()
    await waitFor(() => cancelled)
    expect(cancelled).to.equal(true)
  })

  it('a ReadableStream returned by an onSend hook is sent', async () => {
    const { app } = await listening((root) => {
      root.addHook('onSend', async () => webStream([bytes('from onSend')]))
      root.get('/', async () => ({ replaced: true }))
    })
    expect((await app.inject({ url: '/' })).body).to.equal('from onSend')
  })
})

describe('hardening: fetch Response replies', () => {
  it("a Response gives the reply its status, its headers (over the reply's) and its body", async () => {
    const { app } = await listening((root) => {
      root.get('/proxy', async (_request, reply) => {
        reply.code(201).header('x-reply', 'kept').header('x-both', 'reply')
        const headers = new Headers({ 'x-both': 'response', 'content-type': 'text/csv' })
        headers.append('set-cookie', 'a=1')
        headers.append('set-cookie', 'b=2')
        return new Response(webStream([bytes('a,b\n1,2\n')]), { status: 202, headers })
      })
    })
    const res = await app.inject({ url: '/proxy' })
    expect(res.statusCode).to.equal(202)
    expect(res.headers['x-reply']).to.equal('kept')
    expect(res.headers['x-both']).to.equal('response')
    expect(res.headers['content-type']).to.equal('text/csv')
    expect(res.headers['set-cookie']).to.deep.equal(['a=1', 'b=2'])
    expect(res.body).to.equal('a,b\n1,2\n')
  })

  it("a Response built from a string keeps fetch's text/plain type", async () => {
    const { app } = await listening((root) => { root.get('/', async () => new Response('plain')) })
    const res = await app.inject({ url: '/' })
    expect([res.statusCode, res.headers['content-type'], res.body]).to.deep.equal([200, 'text/plain;charset=UTF-8', 'plain'])
  })

  it('a Response without a body: Content-Length 0; with 204 or 304, no body and no length', async () => {
    const { app } = await listening((root) => {
      root.get('/empty', async () => new Response(null, { status: 200, headers: { hello: 'world' } }))
      root.get('/204', async () => new Response(null, { status: 204, headers: { hello: 'world' } }))
      root.get('/304', async () => new Response(null, { status: 304 }))
    })
    const empty = await app.inject({ url: '/empty' })
    expect([empty.statusCode, empty.headers['content-length'], empty.headers.hello, empty.body]).to.deep.equal([200, '0', 'world', ''])
    const noContent = await app.inject({ url: '/204' })
    expect([noContent.statusCode, noContent.headers['content-length'], noContent.headers.hello, noContent.body]).to.deep.equal([204, undefined, 'world', ''])
    const notModified = await app.inject({ url: '/304' })
    expect([notModified.statusCode, notModified.headers['content-length'], notModified.body]).to.deep.equal([304, undefined, ''])
  })

  it('a Response whose body was read: 500 ENC_ERR_REPLY_RESPONSE_BODY_USED (logged)', async () => {
    const logger = recordingLogger()
    const { app } = await listening((root) => {
      root.get('/used', async () => { const r = new Response('once'); await r.text(); return r })
    }, { logger })
    expect((await app.inject({ url: '/used' })).statusCode).to.equal(500)
    expect(loggedCodes(logger)).to.include('ENC_ERR_REPLY_RESPONSE_BODY_USED')
  })

  it('a Response whose body is locked by a reader: 500 ENC_ERR_REPLY_WEB_STREAM_LOCKED (logged)', async () => {
    const logger = recordingLogger()
    const { app } = await listening((root) => {
      root.get('/locked', async () => { const r = new Response('x'); r.body?.getReader(); return r })
    }, { logger })
    expect((await app.inject({ url: '/locked' })).statusCode).to.equal(500)
    expect(loggedCodes(logger)).to.include('ENC_ERR_REPLY_WEB_STREAM_LOCKED')
  })

  it('a Response reaches onSend hooks as it is, and one returned by a hook is sent', async () => {
    const seen: string[] = []
    const { app } = await listening((root) => {
      root.addHook('onSend', async (_request, _reply, payload) => {
        seen.push(Object.prototype.toString.call(payload))
        return new Response('from onSend', { status: 200 })
      })
      root.get('/', async () => new Response('from handler'))
    })
    expect((await app.inject({ url: '/' })).body).to.equal('from onSend')
    expect(seen).to.deep.equal(['[object Response]'])
  })

  it("a Response's hop-by-hop header fields (connection and the names it lists, keep-alive, transfer-encoding, upgrade, te, trailer, proxy-*) are dropped, as a proxy must (RFC 9110 7.6.1); the connection stays open", async () => {
    const { address } = await listening((root) => {
      root.get('/hop', async () => new Response('hello', { headers: {
        connection: 'close, x-private', 'x-private': '1', 'keep-alive': 'timeout=99', 'transfer-encoding': 'gzip', upgrade: 'h2c', te: 'trailers', trailer: 'x-sum',
        'proxy-connection': 'keep-alive', 'proxy-authenticate': 'Basic', 'x-end-to-end': 'kept',
      } }))
    })
    const client = await rawClient(address)
    try {
      client.write('GET /hop HTTP/1.1\r\nHost: x\r\n\r\n')
      const res = await client.next()
      expect([res.status, res.body, res.headers['x-end-to-end']]).to.deep.equal([200, 'hello', 'kept'])
      for (const name of ['x-private', 'upgrade', 'te', 'trailer', 'proxy-connection', 'proxy-authenticate']) expect(res.headers, name).to.not.have.property(name)
      // The server's own framing and connection handling, not the Response's.
      expect(res.headers['transfer-encoding']).to.equal('chunked')
      expect(res.headers.connection).to.not.equal('close')
      expect(res.headers['keep-alive']).to.not.equal('timeout=99')
      client.write('GET /hop HTTP/1.1\r\nHost: x\r\n\r\n')
      expect((await client.next()).body).to.equal('hello')
    } finally { client.destroy() }
  })

  it("a Response's Content-Length is kept when its body matches it, and a body that does not match is cut, the connection closed, ENC_ERR_REPLY_STREAM_LENGTH logged", async () => {
    const logger = recordingLogger()
    const { address } = await listening((root) => {
      root.get('/right', async () => new Response('hello', { headers: { 'content-length': '5' } }))
      root.get('/wrong', async () => new Response('hello', { headers: { 'content-length': '3' } }))
    }, { logger })
    const client = await rawClient(address)
    try {
      client.write('GET /right HTTP/1.1\r\nHost: x\r\n\r\n')
      const right = await client.next()
      expect([right.headers['content-length'], right.body]).to.deep.equal(['5', 'hello'])
      client.write('GET /wrong HTTP/1.1\r\nHost: x\r\n\r\n')
      await within(client.waitClosed(), 5_000, 'the cut connection')
      expect(loggedCodes(logger)).to.include('ENC_ERR_REPLY_STREAM_LENGTH')
    } finally { client.destroy() }
  })

  it('a fetched Response is piped through (a proxy in two lines)', async () => {
    const { app, address } = await listening((root) => {
      root.get('/origin', async (_request, reply) => { reply.header('x-origin', '1'); return { from: 'origin' } })
      root.get('/proxy', async () => fetch(`${address}/origin`))
    })
    const res = await within(fetch(`${address}/proxy`), 5_000, 'GET /proxy')
    expect(res.status).to.equal(200)
    expect(res.headers.get('x-origin')).to.equal('1')
    expect(await res.json()).to.deep.equal({ from: 'origin' })
    void app
  })
})

describe('hardening: typed array replies', () => {
  it('a Uint8Array is sent as its bytes with a Content-Length, application/octet-stream unless a type is set (not `{"0":..}`)', async () => {
    const { app } = await listening((root) => {
      root.get('/u8', async () => new Uint8Array([104, 105]))
      root.get('/png', async (_request, reply) => { reply.type('image/png'); return new Uint8Array([1, 2, 3]) })
    })
    const u8 = await app.inject({ url: '/u8' })
    expect([u8.statusCode, u8.headers['content-type'], u8.headers['content-length'], u8.body]).to.deep.equal([200, 'application/octet-stream', '2', 'hi'])
    const png = await app.inject({ url: '/png' })
    expect([png.headers['content-type'], octets(png.body)]).to.deep.equal(['image/png', [1, 2, 3]])
  })

  it('a view sends only its own bytes (byteOffset, byteLength): a subarray, a Uint16Array, a DataView; an ArrayBuffer its bytes', async () => {
    const backing = new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7])
    const { app } = await listening((root) => {
      root.get('/sub', async () => backing.subarray(2, 5))
      root.get('/u16', async () => new Uint16Array(backing.buffer, 2, 2))
      root.get('/dv', async () => new DataView(backing.buffer, 6, 2))
      root.get('/ab', async () => backing.buffer.slice(1, 3))
    })
    expect(octets((await app.inject({ url: '/sub' })).body)).to.deep.equal([2, 3, 4])
    expect(octets((await app.inject({ url: '/u16' })).body)).to.deep.equal([2, 3, 4, 5])
    expect(octets((await app.inject({ url: '/dv' })).body)).to.deep.equal([6, 7])
    expect(octets((await app.inject({ url: '/ab' })).body)).to.deep.equal([1, 2])
  })

  it('a typed array under a response schema is its bytes, the schema not applied; onSend sees a Buffer (Fastify 5)', async () => {
    const seen: boolean[] = []
    const { app } = await listening((root) => {
      root.addHook('onSend', async (_request, _reply, payload) => { seen.push(Buffer.isBuffer(payload)) })
      root.get('/s', { schema: { response: { 200: { type: 'object', properties: { a: { type: 'string' } } } } } }, async () => new Uint8Array([120]))
    })
    const res = await app.inject({ url: '/s' })
    expect([res.statusCode, res.body]).to.deep.equal([200, 'x'])
    expect(seen).to.deep.equal([true])
  })

  it('objects with a Symbol.toStringTag that are not web payloads (a Map, a class) stay JSON', async () => {
    class Tagged { a = 1; get [Symbol.toStringTag](): string { return 'Tagged' } }
    const { app } = await listening((root) => {
      root.get('/tagged', async () => new Tagged())
    })
    const res = await app.inject({ url: '/tagged' })
    expect([res.headers['content-type'], res.body]).to.deep.equal(['application/json; charset=utf-8', '{"a":1}'])
  })

  it('a tagged object with a getReader() that is no ReadableStream: 500 (logged), not an uncaught TypeError; the next request served', async () => {
    class ReaderLike { a = 1; getReader(): number { return 1 } get [Symbol.toStringTag](): string { return 'ReaderLike' } }
    class Throwing extends ReaderLike { cancel(): never { throw new Error('no') } }
    const logger = recordingLogger()
    const { app } = await listening((root) => {
      root.get('/like', async () => new ReaderLike())
      root.get('/throwing', async () => new Throwing())
      root.get('/ok', async () => ({ ok: true }))
    }, { logger })
    for (const url of ['/like', '/throwing']) {
      const res = await app.inject({ url })
      expect(res.statusCode, url).to.equal(500)
    }
    expect(loggedCodes(logger)).to.have.length(2)
    expect((await app.inject({ url: '/ok' })).body).to.equal('{"ok":true}')
  })

  it('a class whose Symbol.toStringTag getter throws stays a JSON reply (was an uncaught throw and a request never answered)', async () => {
    class Throwing { a = 1; get [Symbol.toStringTag](): string { throw new Error('tag') } }
    const { app } = await listening((root) => {
      root.get('/throwing', async () => new Throwing())
    })
    const res = await app.inject({ url: '/throwing' })
    expect([res.statusCode, res.headers['content-type'], res.body]).to.deep.equal([200, 'application/json; charset=utf-8', '{"a":1}'])
  })

  it('an ArrayBuffer from another realm (a vm context) is its bytes too, as its typed arrays are (was `{}`)', async () => {
    const { app } = await listening((root) => {
      root.get('/buffer', async () => runInNewContext('new Uint8Array([104, 105]).buffer') as ArrayBuffer)
      root.get('/view', async () => runInNewContext('new Uint8Array([104, 105])') as Uint8Array)
    })
    for (const url of ['/buffer', '/view']) {
      const res = await app.inject({ url })
      expect([res.headers['content-type'], res.body], url).to.deep.equal(['application/octet-stream', 'hi'])
    }
  })
})
