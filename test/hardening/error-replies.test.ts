// What a client sees when the application fails, and what the log gets: a 5xx says nothing,
// the log says everything with the request id; nothing hangs, nothing is sent half.
import { Readable } from 'node:stream'
import { expect } from 'chai'
import { expectErrorShape, GENERIC_500, listening, rawClient, recordingLogger, server, sleep, within } from './helpers'
import { HttpError } from '../../src/runtime'

describe('hardening: error replies', () => {
  describe('5xx: a generic body; the message and stack go to the log with the request id', () => {
    it('an unexpected throw', async () => {
      const logger = recordingLogger()
      const app = server({ logger })
      app.get('/x', async () => { throw new Error('db password is hunter2') })
      const res = await app.inject({ url: '/x' })
      expect(res.statusCode).to.equal(500)
      expect(JSON.parse(res.body)).to.deep.equal(GENERIC_500)
      expect(res.body).to.not.contain('hunter2')
      const entry = logger.entries.find((e) => e.level === 'error')
      expect(entry?.obj.reqId).to.match(/^req-/)
      const err = entry?.obj.err as Error
      expect(err.message).to.equal('db password is hunter2')
      expect(err.stack).to.contain('error-replies.test')
    })

    it('the request id in the log is the one the request had', async () => {
      const logger = recordingLogger()
      let seen = ''
      const app = server({ logger })
      app.get('/x', async (request) => { seen = request.id; throw new Error('boom') })
      await app.inject({ url: '/x' })
      expect(logger.entries.find((e) => e.level === 'error')?.obj.reqId).to.equal(seen)
    })

    it('an error with statusCode 503 and a code shows neither its message nor its code', async () => {
      const app = server()
      app.get('/x', async () => { throw Object.assign(new Error('internal detail'), { statusCode: 503, code: 'DB_DOWN' }) })
      const res = await app.inject({ url: '/x' })
      expect(res.statusCode).to.equal(503)
      expect(JSON.parse(res.body)).to.deep.equal({ statusCode: 503, error: 'Service Unavailable', message: 'Service Unavailable' })
    })
  })

  describe('4xx, or expose: true, show their own message', () => {
    it('a 4xx error', async () => {
      const app = server()
      app.get('/x', async () => { throw Object.assign(new Error('no such item'), { statusCode: 404 }) })
      expect(JSON.parse((await app.inject({ url: '/x' })).body)).to.deep.equal({ statusCode: 404, error: 'Not Found', message: 'no such item' })
    })

    it('a 5xx marked expose: true, and an HttpError', async () => {
      const app = server()
      app.get('/a', async () => { throw Object.assign(new Error('try again in a minute'), { statusCode: 503, expose: true }) })
      app.get('/b', async () => { throw new HttpError(502, 'upstream said no') })
      expect(JSON.parse((await app.inject({ url: '/a' })).body).message).to.equal('try again in a minute')
      expect(JSON.parse((await app.inject({ url: '/b' })).body).message).to.equal('upstream said no')
    })
  })

  describe('throwing what is not an Error still gives the JSON shape', () => {
    const cases: ReadonlyArray<readonly [string, () => unknown, number]> = [
      ['a string', () => 'oops', 500],
      ['a number', () => 42, 500],
      ['null', () => null, 500],
      ['undefined', () => undefined, 500],
      ['a plain object without a status', () => ({ reason: 'x' }), 500],
      ['a plain object with a bogus statusCode', () => ({ statusCode: 'abc', message: 'm' }), 500],
    ]
    // A plain object with a 4xx status is the user's own payload, sent as it is (Fastify 3, issue 12).
    for (const where of ['handler', 'onRequest hook'] as const) {
      it(`a plain object with statusCode 409, from a ${where}: 409 with the object as the payload`, async () => {
        const app = server()
        if (where === 'handler') app.get('/x', async () => { throw { statusCode: 409, message: 'taken' } })
        else app.get('/x', { onRequest: async () => { throw { statusCode: 409, message: 'taken' } } }, async () => 'never')
        const res = await app.inject({ url: '/x' })
        expect(res.statusCode).to.equal(409)
        expect(JSON.parse(res.body)).to.deep.equal({ statusCode: 409, message: 'taken' })
      })
    }
    for (const [label, make, status] of cases) {
      for (const where of ['handler', 'onRequest hook'] as const) {
        it(`${label}, from a ${where}: ${status}`, async () => {
          const app = server()
          if (where === 'handler') app.get('/x', async () => { throw make() })
          else app.get('/x', { onRequest: async () => { throw make() } }, async () => 'never')
          const res = await app.inject({ url: '/x' })
          expect(res.statusCode).to.equal(status)
          expectErrorShape(res.body, status)
        })
      }
    }
  })

  describe('a response that cannot be serialized: a logged 500 with the generic body, never half a body', () => {
    const circular = (): unknown => { const a: Record<string, unknown> = {}; a.self = a; return a }
    const routes: ReadonlyArray<readonly [string, () => unknown, Record<string, unknown> | null]> = [
      ['a BigInt', () => ({ n: 1n }), null],
      ['a circular object', circular, null],
      ['a BigInt in a property its schema leaves untyped', () => ({ n: 1n }), { type: 'object', properties: { n: {} } }],
      ['a wrong type for its schema, on a required property', () => ({ n: 'not a number' }), { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } }],
      ['a missing required property', () => ({}), { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } }],
      ['an object where the schema wants an array', () => ({ a: 1 }), { type: 'array', items: { type: 'integer' } }],
    ]
    for (const [label, payload, schema] of routes) {
      it(`${label}: 500 with a complete body, logged with the request id, and the connection still serves`, async () => {
        const logger = recordingLogger()
        const { address } = await listening((root) => {
          root.get('/bad', { schema: schema === null ? {} : { response: { 200: schema } } }, async () => payload())
          root.get('/ok', async () => ({ ok: true }))
        }, { logger })
        const client = await rawClient(address)
        client.write('GET /bad HTTP/1.1\r\nHost: x\r\n\r\n')
        const res = await client.next()
        expect(res.status).to.equal(500)
        expect(Number(res.headers['content-length'])).to.equal(Buffer.byteLength(res.body))
        expect(JSON.parse(res.body)).to.deep.equal(GENERIC_500)
        const entry = logger.entries.find((e) => e.level === 'error')
        expect((entry?.obj.err as { code?: string }).code).to.equal('ENC_ERR_REPLY_SERIALIZATION')
        expect(entry?.obj.reqId).to.be.a('string')
        client.write('GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
        expect((await client.next()).status).to.equal(200)
      })
    }

    it('a stream that fails after its headers went out: the connection is closed (the honest signal), no crash', async () => {
      const logger = recordingLogger()
      const { address } = await listening((root) => {
        root.get('/stream', async () => {
          let sent = false
          return new Readable({ read() { if (!sent) { sent = true; this.push('partial') } else this.destroy(new Error('disk gone')) } })
        })
      }, { logger })
      const client = await rawClient(address)
      client.write('GET /stream HTTP/1.1\r\nHost: x\r\n\r\n')
      await client.waitClosed()
      // Whatever bytes went out, they never make a complete response a client could take for a success.
      let complete = true
      await client.next(1_000).catch(() => { complete = false })
      expect(complete).to.equal(false)
      // Logged at warn with Fastify 3's line ('response terminated with an error with headers already sent').
      expect(logger.entries.some((e) => e.level === 'warn' && (e.obj.err as Error | undefined)?.message === 'disk gone')).to.equal(true)
    })

    it('a header value carrying CRLF (response splitting): refused, a logged 500 (ENC_ERR_REPLY_INVALID_HEADER), nothing injected', async () => {
      const logger = recordingLogger()
      const { address } = await listening((root) => {
        root.get('/x', async (request, reply) => { reply.header('x-echo', String(request.query.v)); return { ok: true } })
      }, { logger })
      const client = await rawClient(address)
      client.write('GET /x?v=a%0d%0aSet-Cookie:%20admin=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
      const res = await client.next()
      expect(res.status).to.equal(500)
      expect(res.headers['set-cookie']).to.equal(undefined)
      expect(res.headers['x-echo']).to.equal(undefined)
      expect(JSON.parse(res.body)).to.deep.equal(GENERIC_500)
      expect((logger.entries.find((e) => e.level === 'error')?.obj.err as { code?: string }).code).to.equal('ENC_ERR_REPLY_INVALID_HEADER')
    })

    it('a Content-Disposition file name outside Latin-1 (a download named after an upload): a logged 500 ENC_ERR_REPLY_INVALID_HEADER saying to encode it as filename*=UTF-8', async () => {
      const logger = recordingLogger()
      const app = server({ logger })
      app.get('/download', async (request, reply) => {
        reply.header('content-disposition', 'attachment; filename="日本.pdf"')
        return Buffer.from('x')
      })
      app.get('/encoded', async (request, reply) => {
        reply.header('content-disposition', `attachment; filename="download.pdf"; filename*=UTF-8''${encodeURIComponent('日本.pdf')}`)
        return Buffer.from('x')
      })
      const res = await app.inject({ url: '/download' })
      expect(res.statusCode).to.equal(500)
      expect(JSON.parse(res.body)).to.deep.equal(GENERIC_500)
      const err = logger.entries.find((e) => e.level === 'error')?.obj.err as Error & { code?: string }
      expect(err.code).to.equal('ENC_ERR_REPLY_INVALID_HEADER')
      expect(err.message).to.include('content-disposition').and.include("filename*=UTF-8''${encodeURIComponent(name)}")
      // The encoded form the message gives is accepted.
      expect((await app.inject({ url: '/encoded' })).headers['content-disposition']).to.equal("attachment; filename=\"download.pdf\"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.pdf")
    })

    it('the 500 after a refused header value says "Internal Server Error", not the reason phrase of the status set before', async () => {
      const { address } = await listening((root) => {
        root.get('/ok', async (request, reply) => { reply.header('x-echo', String(request.query.v)); return { ok: true } })
        root.get('/redir', async (request, reply) => { reply.redirect(String(request.query.to)) })
      }, { logger: recordingLogger() })
      for (const path of ['/ok?v=a%0D%0Ab', '/redir?to=%0D%0Ax']) {
        const client = await rawClient(address)
        client.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)
        await client.waitClosed()
        expect(client.pending.slice(0, client.pending.indexOf('\r\n')), path).to.equal('HTTP/1.1 500 Internal Server Error')
      }
    })

    it('an onSend hook that throws on every payload, the error payload too: still one complete 500', async () => {
      const app = server()
      app.addHook('onSend', async () => { throw new Error('broken hook') })
      app.get('/x', async () => ({ ok: true }))
      const res = await within(app.inject({ url: '/x' }), 5_000, 'GET /x')
      expect(res.statusCode).to.equal(500)
      expect(JSON.parse(res.body)).to.deep.equal(GENERIC_500)
    })
  })

  describe('a handler that replies wrongly: logged, never a hang, never a crash', () => {
    it('an async handler resolving undefined without replying: 500 ENC_ERR_REPLY_NOTHING_SENT, logged', async () => {
      const logger = recordingLogger()
      const app = server({ logger })
      app.get('/x', async () => undefined)
      const res = await within(app.inject({ url: '/x' }), 5_000, 'GET /x')
      expect(res.statusCode).to.equal(500)
      expect(JSON.parse(res.body)).to.deep.equal(GENERIC_500)
      expect((logger.entries.find((e) => e.level === 'error')?.obj.err as { code?: string }).code).to.equal('ENC_ERR_REPLY_NOTHING_SENT')
    })

    it('an async handler that wrote the head to reply.raw without reply.hijack() and resolved undefined owns the response, as after reply.hijack() (Fastify 3 and 5 leave it open too): what it writes later arrives, it ends it, nothing is logged, the server serves on', async () => {
      const logger = recordingLogger()
      const { address } = await listening((root) => {
        root.get('/sse', async (_request, reply) => {
          reply.raw.writeHead(200, { 'content-type': 'text/event-stream' })
          reply.raw.write('data: 1\n\n')
          setTimeout(() => reply.raw.end('data: 2\n\n'), 50)
        })
        root.get('/next', async () => 'next')
      }, { logger })
      const client = await rawClient(address)
      client.write('GET /sse HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
      await client.waitClosed()
      expect(client.pending).to.match(/^HTTP\/1\.1 200 /).and.contain('data: 1\n\n').and.contain('data: 2\n\n')
      expect(logger.entries.filter((e) => e.level === 'error' || e.level === 'warn')).to.deep.equal([])
      const next = await rawClient(address)
      next.write('GET /next HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
      await next.waitClosed()
      expect(next.pending).to.match(/^HTTP\/1\.1 200 /).and.contain('next')
    })

    it('a reply sent twice: the first answer stands, the second is logged (ENC_ERR_REPLY_ALREADY_SENT)', async () => {
      const logger = recordingLogger()
      const app = server({ logger })
      app.get('/x', (_request, reply) => { reply.send({ first: true }); reply.send({ second: true }) })
      const res = await app.inject({ url: '/x' })
      expect(JSON.parse(res.body)).to.deep.equal({ first: true })
      expect(logger.entries.some((e) => e.level === 'warn' && e.obj.code === 'ENC_ERR_REPLY_ALREADY_SENT')).to.equal(true)
    })

    it('send() then return a value, send() then throw, send() from a later timer: each logged, one answer', async () => {
      const logger = recordingLogger()
      const app = server({ logger })
      app.get('/a', async (_request, reply) => { reply.send('a'); return 'again' })
      app.get('/b', async (_request, reply) => { reply.send('b'); throw new Error('after send') })
      app.get('/c', (_request, reply) => { reply.send('c'); setTimeout(() => reply.send('late'), 5) })
      for (const path of ['a', 'b', 'c']) expect((await app.inject({ url: `/${path}` })).body).to.equal(path)
      await sleep(30)
      expect(logger.entries.filter((e) => e.level === 'warn' || e.level === 'error').length).to.be.at.least(3)
      expect((await app.inject({ url: '/a' })).statusCode).to.equal(200)
    })
  })

  describe('an error handler that fails while handling a 4xx: its own failure is a 500, never its message under the 4xx', () => {
    const notFound = async (): Promise<never> => { throw Object.assign(new Error('no such note'), { statusCode: 404 }) }
    /** The status and message answered for a 404 route under this error handler. */
    async function answerUnder(handler: Parameters<ReturnType<typeof server>['setErrorHandler']>[0]): Promise<{ status: number; message: string }> {
      const app = server()
      app.setErrorHandler(handler)
      app.get('/x', notFound)
      const res = await app.inject({ url: '/x' })
      return { status: res.statusCode, message: JSON.parse(res.body).message as string }
    }

    for (const form of ['throws', 'rejects'] as const) {
      it(`a handler that ${form} a TypeError of its own: the generic 500, the TypeError logged`, async () => {
        const logger = recordingLogger()
        const app = server({ logger })
        const broken = (error: Error): never => { (error as unknown as { lookup: () => void }).lookup(); throw error }
        if (form === 'throws') app.setErrorHandler((error) => broken(error))
        else app.setErrorHandler(async (error) => broken(error))
        app.get('/x', notFound)
        const res = await app.inject({ url: '/x' })
        expect(res.statusCode).to.equal(500)
        expect(JSON.parse(res.body)).to.deep.equal(GENERIC_500)
        expect(res.body).to.not.contain('lookup')
        expect((logger.entries.find((e) => e.level === 'error')?.obj.err as Error).message).to.contain('lookup is not a function')
      })
    }

    it('a handler that rethrows the error it was given: its own 404 and message, as before', async () => {
      expect(await answerUnder((error) => { throw error })).to.deep.equal({ status: 404, message: 'no such note' })
    })

    it('a handler that throws a new error with its own 4xx status: that status and message', async () => {
      expect(await answerUnder(() => { throw new HttpError(410, 'gone for good') })).to.deep.equal({ status: 410, message: 'gone for good' })
    })

    it('a handler that chose a status with reply.code() before throwing: the status it chose', async () => {
      expect(await answerUnder((_error, _request, reply) => { reply.code(422); throw new Error('cannot process that note') }))
        .to.deep.equal({ status: 422, message: 'cannot process that note' })
    })

    for (const form of ['throws', 'rejects'] as const) {
      it(`a handler that chose with reply.code() the very status it was given, then ${form}: that status and its message, not a 500`, async () => {
        const app = server()
        const handle = (_error: Error, _request: unknown, reply: { code(status: number): unknown }): never => { reply.code(404); throw new Error('note 7 is not here') }
        if (form === 'throws') app.setErrorHandler(handle)
        else app.setErrorHandler(async (error, request, reply) => handle(error, request, reply))
        app.get('/x', notFound)
        const res = await app.inject({ url: '/x' })
        expect(res.statusCode).to.equal(404)
        expect(JSON.parse(res.body).message).to.equal('note 7 is not here')
      })
    }
  })

  describe('an onSend hook that fails on a 4xx payload: its failure is a 500, never its message under the 4xx', () => {
    const crashOn404 = async (_request: unknown, reply: { statusCode: number }, payload: unknown): Promise<unknown> => {
      if (reply.statusCode === 404) (null as unknown as { field: string }).field.toString()
      return payload
    }

    it('on the built-in error reply of a 404: the generic 500, the hook\'s TypeError logged', async () => {
      const logger = recordingLogger()
      const app = server({ logger })
      app.addHook('onSend', crashOn404)
      app.get('/x', async () => { throw Object.assign(new Error('no such note'), { statusCode: 404 }) })
      const res = await app.inject({ url: '/x' })
      expect(res.statusCode).to.equal(500)
      expect(JSON.parse(res.body)).to.deep.equal(GENERIC_500)
      expect(res.body).to.not.contain('Cannot read')
      expect(logger.entries.some((e) => e.level === 'error' && String((e.obj.err as Error | undefined)?.message).includes('Cannot read'))).to.equal(true)
    })

    it('on a 404 the handler sent itself: the same 500', async () => {
      const app = server()
      app.addHook('onSend', crashOn404)
      app.get('/x', async (_request, reply) => reply.code(404).send({ missing: true }))
      const res = await app.inject({ url: '/x' })
      expect(res.statusCode).to.equal(500)
      expect(JSON.parse(res.body)).to.deep.equal(GENERIC_500)
    })

    it('a hook that refuses with an error of its own status: that status and message', async () => {
      const app = server()
      app.addHook('onSend', async (_request, reply, payload) => {
        if (reply.statusCode === 200) throw Object.assign(new Error('not in this region'), { statusCode: 451 })
        return payload
      })
      app.get('/x', async () => ({ ok: true }))
      const res = await app.inject({ url: '/x' })
      expect(res.statusCode).to.equal(451)
      expect(JSON.parse(res.body).message).to.equal('not in this region')
    })
  })
})
