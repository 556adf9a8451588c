import { expect } from 'chai'
import request from 'supertest'
import { Readable } from 'node:stream'
import { build, deferred, recordingLogger } from './helpers'
import { listening, rawClient } from '../hardening/helpers'

describe('runtime: reply', () => {
  describe('status', () => {
    it('code() and status() set the status', async () => {
      const app = await build((root) => {
        root.post('/code', async (_req, reply) => { reply.code(201); return { created: true } })
        root.post('/status', async (_req, reply) => { reply.status(202); return { accepted: true } })
      })
      await request(app.server).post('/code').expect(201, { created: true })
      await request(app.server).post('/status').expect(202, { accepted: true })
    })

    for (const bad of [999, 99, 200.5, Number.NaN, 100, 101, 199]) {
      it(`code(${bad}) throws ENC_ERR_REPLY_INVALID_STATUS`, async () => {
        let code: unknown = null
        const app = await build((root) => {
          root.get('/x', async (_req, reply) => {
            try { reply.code(bad) } catch (error) { code = (error as { code: string }).code }
            return { status: reply.statusCode }
          })
        })
        await request(app.server).get('/x').expect(200, { status: 200 })
        expect(code).to.equal('ENC_ERR_REPLY_INVALID_STATUS')
      })
    }

    it('an uncaught code(999) is a generic 500', async () => {
      const app = await build((root) => { root.get('/x', async (_req, reply) => reply.code(999).send('x')) })
      const res = await request(app.server).get('/x').expect(500)
      expect(res.body).to.deep.equal({ statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
    })

    it('an uncaught code(100) (a 1xx, not a final response) is a generic 500, never a 1xx the client would wait after', async () => {
      const app = await build((root) => { root.get('/x', async (req, reply) => reply.code(Number((req.query as { c: string }).c)).send('hello world')) })
      for (const c of ['1e2', '101', '199']) {
        const res = await request(app.server).get(`/x?c=${c}`).expect(500)
        expect(res.body, c).to.deep.equal({ statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
      }
    })

    it('204 and 304 with a returned value: the value is dropped, no content-length (nor a 204 content-type) on the wire', async () => {
      const { address } = await listening((root) => {
        root.get('/204', async (_req, reply) => { reply.code(204); return 'hello world' })
        root.get('/204-object', async (_req, reply) => { reply.code(204); return { a: 1 } })
        root.get('/304', async (_req, reply) => { reply.code(304); return { a: 1 } })
      })
      const client = await rawClient(address)
      for (const path of ['/204', '/204-object', '/304']) client.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`)
      client.write('GET /204 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
      await client.waitClosed()
      const heads = client.pending.split('\r\n\r\n').filter((head) => head !== '')
      expect(heads.map((head) => head.slice(0, 12)), client.pending).to.deep.equal(['HTTP/1.1 204', 'HTTP/1.1 204', 'HTTP/1.1 304', 'HTTP/1.1 204'])
      for (const head of heads) {
        expect(head.toLowerCase(), head).to.not.include('content-length')
        if (head.startsWith('HTTP/1.1 204')) expect(head.toLowerCase(), head).to.not.include('content-type')
      }
    })

    it('204 sends no body and no content-length', async () => {
      const app = await build((root) => { root.delete('/x', async (_req, reply) => { reply.code(204).send() }) })
      const res = await request(app.server).delete('/x').expect(204)
      expect(res.text ?? '').to.equal('')
      expect(res.headers['content-length']).to.equal(undefined)
    })
  })

  describe('headers', () => {
    it('header, headers, getHeader, hasHeader, removeHeader (names case-insensitive)', async () => {
      const seen: unknown[] = []
      const app = await build((root) => {
        root.get('/x', async (_req, reply) => {
          reply.header('X-One', '1').headers({ 'x-two': '2', 'X-Three': 3, 'x-many': ['a', 'b'] })
          seen.push(reply.getHeader('x-one'), reply.getHeader('X-TWO'), reply.hasHeader('x-three'), reply.hasHeader('x-nope'))
          reply.header('x-gone', 'soon').removeHeader('X-Gone')
          seen.push(reply.hasHeader('x-gone'), reply.getHeader('x-gone'))
          return 'ok'
        })
      })
      const res = await request(app.server).get('/x').expect(200, 'ok')
      expect(seen).to.deep.equal(['1', '2', true, false, false, undefined])
      expect(res.headers).to.include({ 'x-one': '1', 'x-two': '2', 'x-three': '3', 'x-many': 'a, b' })
      expect(res.headers['x-gone']).to.equal(undefined)
    })

    it('type() sets the content type and is kept for objects, strings and buffers', async () => {
      const app = await build((root) => {
        root.get('/obj', async (_req, reply) => { reply.type('application/vnd.x+json'); return { a: 1 } })
        root.get('/str', async (_req, reply) => { reply.type('text/html'); return '<b>hi</b>' })
        root.get('/buf', async (_req, reply) => { reply.type('image/png'); return Buffer.from([1, 2]) })
      })
      const obj = await request(app.server).get('/obj').expect(200)
      // A JSON type without a charset gets `; charset=utf-8`, as Fastify gives it (issue 12).
      expect(obj.headers['content-type']).to.equal('application/vnd.x+json; charset=utf-8')
      expect(obj.text).to.equal('{"a":1}')
      expect((await request(app.server).get('/str').expect(200, '<b>hi</b>')).headers['content-type']).to.equal('text/html')
      expect((await request(app.server).get('/buf').expect(200)).headers['content-type']).to.equal('image/png')
    })
  })

  describe('send', () => {
    it('an object is JSON with application/json; charset=utf-8 and a content-length', async () => {
      const app = await build((root) => { root.get('/x', async (_req, reply) => { reply.send({ a: 'é', b: [1, null] }) }) })
      const res = await request(app.server).get('/x').expect(200, { a: 'é', b: [1, null] })
      expect(res.headers['content-type']).to.equal('application/json; charset=utf-8')
      expect(res.headers['content-length']).to.equal(String(Buffer.byteLength('{"a":"é","b":[1,null]}')))
    })

    it('an array, a number, a boolean and null are JSON too', async () => {
      const app = await build((root) => {
        root.get('/array', async () => [1, 'two'])
        root.get('/number', async (_req, reply) => { reply.send(42) })
        root.get('/boolean', async (_req, reply) => { reply.send(false) })
        root.get('/null', async (_req, reply) => { reply.send(null) })
      })
      for (const [path, text] of [['/array', '[1,"two"]'], ['/number', '42'], ['/boolean', 'false'], ['/null', 'null']]) {
        const res = await request(app.server).get(path).expect(200)
        expect(res.text, path).to.equal(text)
        expect(res.headers['content-type'], path).to.equal('application/json; charset=utf-8')
      }
    })

    it('a string is text/plain; charset=utf-8', async () => {
      const app = await build((root) => { root.get('/x', async (_req, reply) => { reply.send('héllo') }) })
      const res = await request(app.server).get('/x').expect(200, 'héllo')
      expect(res.headers['content-type']).to.equal('text/plain; charset=utf-8')
      expect(res.headers['content-length']).to.equal('6')
    })

    it('a Buffer is application/octet-stream, sent as is', async () => {
      const bytes = Buffer.from([0, 1, 2, 253, 254, 255])
      const app = await build((root) => { root.get('/x', async (_req, reply) => { reply.send(bytes) }) })
      const res = await request(app.server).get('/x').buffer(true).parse((r, cb) => {
        const parts: Buffer[] = []
        r.on('data', (c: Buffer) => parts.push(c))
        r.on('end', () => cb(null, Buffer.concat(parts)))
      }).expect(200)
      expect(res.headers['content-type']).to.equal('application/octet-stream')
      expect((res.body as Buffer).equals(bytes)).to.equal(true)
    })

    it('a stream is piped (octet-stream unless typed)', async () => {
      const app = await build((root) => {
        root.get('/raw', async (_req, reply) => { reply.send(Readable.from(['a', 'b', 'c'])) })
        root.get('/typed', async (_req, reply) => { reply.type('text/plain').send(Readable.from(['x', 'y'])) })
      })
      const raw = await request(app.server).get('/raw').buffer(true).parse((r, cb) => {
        let text = ''
        r.on('data', (c: Buffer) => { text += c.toString() })
        r.on('end', () => cb(null, text))
      }).expect(200)
      expect(raw.body).to.equal('abc')
      expect(raw.headers['content-type']).to.equal('application/octet-stream')
      await request(app.server).get('/typed').expect(200, 'xy')
    })

    it('send() with nothing is an empty 200', async () => {
      const app = await build((root) => { root.get('/x', async (_req, reply) => { reply.send() }) })
      const res = await request(app.server).get('/x').expect(200)
      expect(res.text).to.equal('')
      expect(res.headers['content-length']).to.equal('0')
    })

    it('sent is false before send() and true after', async () => {
      const states: boolean[] = []
      const app = await build((root) => {
        root.get('/x', async (_req, reply) => { states.push(reply.sent); reply.send('x'); states.push(reply.sent) })
      })
      await request(app.server).get('/x').expect(200, 'x')
      expect(states).to.deep.equal([false, true])
    })

    it('serializer() sets a serializer for this reply', async () => {
      const app = await build((root) => {
        root.get('/x', async (_req, reply) => { reply.type('text/plain').serializer((data) => `custom:${JSON.stringify(data)}`); return { a: 1 } })
      })
      await request(app.server).get('/x').expect(200, 'custom:{"a":1}')
    })

    it('a payload that cannot be serialized is a generic 500, not a crash', async () => {
      const app = await build((root) => {
        root.get('/x', async () => { const loop: Record<string, unknown> = {}; loop.self = loop; return loop })
      })
      const res = await request(app.server).get('/x').expect(500)
      expect(res.body).to.deep.equal({ statusCode: 500, error: 'Internal Server Error', message: 'Internal Server Error' })
    })
  })

  describe('the handler return value', () => {
    it('a sync return value is sent', async () => {
      const app = await build((root) => { root.get('/x', () => ({ sync: true })) })
      await request(app.server).get('/x').expect(200, { sync: true })
    })

    it('a resolved promise is sent', async () => {
      const app = await build((root) => { root.get('/x', () => Promise.resolve({ async: true })) })
      await request(app.server).get('/x').expect(200, { async: true })
    })

    it('a sync handler may send later (returning undefined)', async () => {
      const app = await build((root) => {
        root.get('/x', (_req, reply) => { setImmediate(() => reply.send('later')) })
      })
      await request(app.server).get('/x').expect(200, 'later')
    })

    it('an async handler may return the reply and send later', async () => {
      const app = await build((root) => {
        root.get('/x', async (_req, reply) => { setImmediate(() => reply.send('later')); return reply })
      })
      await request(app.server).get('/x').expect(200, 'later')
    })

    it('an async handler that resolves undefined without sending is a 500, not a hang', async () => {
      const app = await build((root) => { root.get('/x', async () => undefined) })
      const res = await request(app.server).get('/x').expect(500)
      expect(res.body.statusCode).to.equal(500)
    })
  })

  describe('sending twice', () => {
    it('reply.send after the reply was sent is a logged no-op, not a crash', async () => {
      const logger = recordingLogger()
      const second = deferred()
      const app = await build((root) => {
        root.get('/x', (_req, reply) => {
          reply.send('first')
          reply.send('second')
          second.resolve()
        })
      }, { logger })
      await request(app.server).get('/x').expect(200, 'first')
      await second.promise
      const warnings = logger.entries.filter((e) => e.level === 'warn')
      expect(warnings).to.have.length(1)
      expect(warnings[0].obj).to.include({ code: 'ENC_ERR_REPLY_ALREADY_SENT' })
      await request(app.server).get('/x').expect(200, 'first') // the server still serves
    })

    it('a late send from a timer, after the reply went out, is a logged no-op', async () => {
      const logger = recordingLogger()
      const late = deferred()
      const app = await build((root) => {
        root.get('/y', async (_req, reply) => { reply.send('first'); setImmediate(() => { reply.send('late'); late.resolve() }); return reply })
      }, { logger })
      await request(app.server).get('/y').expect(200, 'first')
      await late.promise
      expect(logger.entries.filter((e) => e.level === 'warn').map((e) => (e.obj as { code: string }).code)).to.deep.equal(['ENC_ERR_REPLY_ALREADY_SENT'])
    })
  })
})
