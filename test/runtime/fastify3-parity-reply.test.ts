// Reply and error behaviours where Enclave had drifted from Fastify 3.27.4. Each expectation is
// the answer Fastify 3.27.4 gave to the same app and request (side-by-side scenario runs, issue
// 12: where the spec is silent Enclave behaves as Fastify 3.27.4).
import { expect } from 'chai'
import { createReadStream } from 'node:fs'
import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Readable } from 'node:stream'
import type { InjectResponse } from '../../src/runtime'
import { build, server } from './helpers'

function parts(res: InjectResponse): { status: number; type: unknown; length: unknown; body: string } {
  return { status: res.statusCode, type: res.headers['content-type'], length: res.headers['content-length'], body: res.body }
}

describe('Fastify 3.27.4 parity: reply headers', () => {
  it('reply.header("set-cookie") twice sends both cookies, each on its own line', async () => {
    const app = await build((root) => {
      root.get('/', (_req, reply) => { reply.header('set-cookie', 'a=1'); reply.header('Set-Cookie', 'b=2'); reply.send('ok') })
      root.get('/array', (_req, reply) => { reply.header('set-cookie', 'a=1'); reply.header('set-cookie', ['b=2', 'c=3']); reply.send('ok') })
    })
    expect((await app.inject('/')).headers['set-cookie']).to.deep.equal(['a=1', 'b=2'])
    expect((await app.inject('/array')).headers['set-cookie']).to.deep.equal(['a=1', 'b=2', 'c=3'])
    await app.close()
  })

  it('a header set on reply.raw counts for getHeader, hasHeader, getHeaders and the type send() picks', async () => {
    const app = await build((root) => {
      root.get('/', (_req, reply) => {
        reply.raw.setHeader('x-raw', '1')
        reply.raw.setHeader('content-type', 'text/html')
        reply.header('x-own', '2')
        reply.header('x-seen', JSON.stringify([reply.getHeader('X-Raw'), reply.hasHeader('x-raw'), Object.keys(reply.getHeaders()).sort()]))
        reply.send('<b>hi</b>')
      })
    })
    const res = await app.inject('/')
    expect(res.headers['content-type']).to.equal('text/html')
    expect(res.headers['x-raw']).to.equal('1')
    expect(JSON.parse(res.headers['x-seen'] as string)).to.deep.equal(['1', true, ['content-type', 'x-own', 'x-raw']])
    expect(res.body).to.equal('<b>hi</b>')
    await app.close()
  })

  it("a type set on reply.raw before an error does not type the error handler's payload", async () => {
    const app = await build((root) => {
      root.setErrorHandler((_error, _req, reply) => { reply.code(409).send({ handled: true }) })
      root.get('/', (_req, reply) => { reply.raw.setHeader('content-type', 'text/html'); throw new Error('x') })
    })
    const res = await app.inject('/')
    expect([res.statusCode, res.headers['content-type'], res.body]).to.deep.equal([409, 'application/json; charset=utf-8', '{"handled":true}'])
    await app.close()
  })

  it('reply.header() with another name still replaces the earlier value', async () => {
    const app = await build((root) => { root.get('/', (_req, reply) => { reply.header('x-a', '1'); reply.header('X-A', '2'); reply.send('ok') }) })
    expect((await app.inject('/')).headers['x-a']).to.equal('2')
    await app.close()
  })

  it('reply.header(name, undefined) sets an empty header instead of failing the reply', async () => {
    const app = await build((root) => {
      root.get('/', (_req, reply) => { reply.header('x-u', undefined as never); reply.send({ has: reply.hasHeader('x-u') }) })
    })
    const res = await app.inject('/')
    expect(res.statusCode).to.equal(200)
    expect(res.headers['x-u']).to.equal('')
    expect(res.json()).to.deep.equal({ has: true })
    await app.close()
  })
})

describe('Fastify 3.27.4 parity: reply.code and payloads', () => {
  it('reply.code("201") takes a status given as digits', async () => {
    const app = await build((root) => { root.get('/', (_req, reply) => { reply.code('201' as never).send('x') }) })
    expect(parts(await app.inject('/'))).to.deep.equal({ status: 201, type: 'text/plain; charset=utf-8', length: '1', body: 'x' })
    await app.close()
  })

  it('reply.code() still refuses digits that are no final status ("101", "20x")', async () => {
    const app = await build((root) => {
      root.get('/:code', (req, reply) => { reply.code((req.params as { code: string }).code as never).send('x') })
    })
    for (const code of ['101', '20x', '2010']) expect((await app.inject(`/${code}`)).statusCode, code).to.equal(500)
    await app.close()
  })

  it('reply.serializer() also serializes a string sent with a chosen content type, which stays as chosen', async () => {
    const app = await build((root) => {
      root.get('/', (_req, reply) => { reply.type('application/json').serializer((p) => `S(${String(p)})`).send('str') })
      root.get('/untyped', (_req, reply) => { reply.serializer((p) => `S(${String(p)})`).send('str') })
    })
    expect(parts(await app.inject('/'))).to.deep.equal({ status: 200, type: 'application/json', length: '6', body: 'S(str)' })
    expect(parts(await app.inject('/untyped'))).to.deep.equal({ status: 200, type: 'text/plain; charset=utf-8', length: '3', body: 'str' })
    await app.close()
  })

  it("reply.redirect('301', url), Fastify 3's order with the code as digits, redirects with that code (Fastify 3.27.4 would send Location: 301)", async () => {
    const app = await build((root) => { root.get('/', (_req, reply) => { reply.redirect('301' as never, '/to') }) })
    const res = await app.inject('/')
    expect([res.statusCode, res.headers.location]).to.deep.equal([301, '/to'])
    await app.close()
  })

  it('send(null) under a content type that is not JSON is an empty body, not a 500', async () => {
    const app = await build((root) => {
      root.get('/', (_req, reply) => { reply.type('text/plain').send(null) })
      root.get('/json', (_req, reply) => { reply.type('application/json').send(null) })
    })
    expect(parts(await app.inject('/'))).to.deep.equal({ status: 200, type: 'text/plain', length: '0', body: '' })
    expect(parts(await app.inject('/json'))).to.deep.equal({ status: 200, type: 'application/json; charset=utf-8', length: '4', body: 'null' })
    await app.close()
  })

  it('an explicit HEAD route that sends nothing announces no Content-Length', async () => {
    const app = await build((root) => {
      root.head('/a', async (_req, reply) => { reply.header('x-h', '1').send() })
      root.get('/a', async () => 'a')
    })
    const res = await app.inject({ method: 'HEAD', url: '/a' })
    expect(res.statusCode).to.equal(200)
    expect(res.headers['x-h']).to.equal('1')
    expect(res.headers['content-length']).to.equal(undefined)
    await app.close()
  })

  it('a GET route answering HEAD by itself announces Content-Length: 0 for an empty GET body', async () => {
    const app = await build((root) => { root.get('/', async (_req, reply) => { reply.send() }) })
    const res = await app.inject({ method: 'HEAD', url: '/' })
    expect([res.statusCode, res.headers['content-length'], res.body]).to.deep.equal([200, '0', ''])
    await app.close()
  })

  it("a HEAD handler's own Content-Length is kept over its payload's", async () => {
    const app = await build((root) => {
      root.head('/a', async (_req, reply) => { reply.header('content-length', '42').send('') })
      root.get('/a', async () => 'a')
    })
    const res = await app.inject({ method: 'HEAD', url: '/a' })
    expect(res.headers['content-length']).to.equal('42')
    expect(res.body).to.equal('')
    await app.close()
  })
})

describe('Fastify 3.27.4 parity: stream payloads', () => {
  it('a stream that fails before its first byte (a missing file) is an error reply, not a cut connection', async () => {
    const app = await build((root) => {
      root.get('/missing', (_req, reply) => { reply.header('x-kept', '1').type('text/plain').send(createReadStream('/nonexistent/enclave-parity7')) })
      root.get('/gone', (_req, reply) => {
        reply.send(new Readable({ read() { this.destroy(Object.assign(new Error('no such file'), { statusCode: 404 })) } }))
      })
    })
    const missing = await app.inject('/missing')
    expect(parts(missing)).to.deep.equal({
      status: 500, type: 'application/json; charset=utf-8', length: '84', body: '{"statusCode":500,"error":"Internal Server Error","message":"Internal Server Error"}',
    })
    expect(missing.headers['x-kept']).to.equal('1')
    expect((await app.inject('/gone')).body).to.equal('{"statusCode":404,"error":"Not Found","message":"no such file"}')
    await app.close()
  })

  it('a stream that fails after its first byte still cuts the connection (the head is out)', async () => {
    const app = await build((root) => {
      root.get('/', (_req, reply) => {
        let sent = false
        reply.send(new Readable({ read() { if (sent) { this.destroy(new Error('late')); return } sent = true; this.push('first') } }))
      })
    })
    const failed = await app.inject('/').then(() => null, (error: Error) => error)
    expect(failed).to.be.instanceOf(Error)
    await app.close()
  })

  it('a stream that succeeds carries the status and headers set before it', async () => {
    const app = await build((root) => { root.get('/', (_req, reply) => { reply.code(201).header('x-a', 'a').type('text/plain').send(Readable.from(['ok'])) }) })
    const res = await app.inject('/')
    expect([res.statusCode, res.headers['x-a'], res.headers['content-type'], res.body]).to.deep.equal([201, 'a', 'text/plain', 'ok'])
    await app.close()
  })
})

describe('Fastify 3.27.4 parity: error statuses and messages', () => {
  it('an error whose statusCode is "400" (digits in a string) answers 400', async () => {
    const app = await build((root) => { root.get('/', () => { throw Object.assign(new Error('x'), { statusCode: '400' }) }) })
    expect(parts(await app.inject('/'))).to.deep.equal({
      status: 400, type: 'application/json; charset=utf-8', length: '54', body: '{"statusCode":400,"error":"Bad Request","message":"x"}',
    })
    await app.close()
  })

  it('error.status wins over error.statusCode when both are error statuses (Fastify 3\'s order)', async () => {
    const app = await build((root) => { root.get('/', () => { throw Object.assign(new Error('st'), { status: 404, statusCode: 400 }) }) })
    expect((await app.inject('/')).body).to.equal('{"statusCode":404,"error":"Not Found","message":"st"}')
    await app.close()
  })

  it('error.statusCode is used when error.status is not an error status', async () => {
    const app = await build((root) => { root.get('/', () => { throw Object.assign(new Error('st'), { status: 200, statusCode: 409 }) }) })
    expect((await app.inject('/')).statusCode).to.equal(409)
    await app.close()
  })

  it("an error's headers are on the reply before a custom error handler runs, and stay when it sends its own payload", async () => {
    const app = await build((root) => {
      root.setErrorHandler((_error, _req, reply) => { reply.send({ h: reply.getHeader('x-e') ?? null }) })
      root.get('/', async () => { throw Object.assign(new Error('h'), { statusCode: 400, headers: { 'x-e': 'v' } }) })
    })
    const res = await app.inject('/')
    expect(res.statusCode).to.equal(400)
    expect(res.headers['x-e']).to.equal('v')
    expect(res.body).to.equal('{"h":"v"}')
    await app.close()
  })

  it("a thrown plain object's headers are sent with it", async () => {
    const app = await build((root) => { root.get('/', async () => { throw { statusCode: 401, message: 'no', headers: { 'www-authenticate': 'Basic' } } }) })
    const res = await app.inject('/')
    expect(res.statusCode).to.equal(401)
    expect(res.headers['www-authenticate']).to.equal('Basic')
    await app.close()
  })

  it('a numeric error code is shown as a string', async () => {
    const app = await build((root) => { root.get('/', async () => { throw Object.assign(new Error('c'), { statusCode: 400, code: 42 }) }) })
    expect((await app.inject('/')).body).to.equal('{"statusCode":400,"code":"42","error":"Bad Request","message":"c"}')
    await app.close()
  })

  it('a 4xx error with an empty message answers an empty message', async () => {
    const app = await build((root) => { root.get('/', () => { throw Object.assign(new Error(), { statusCode: 400 }) }) })
    expect((await app.inject('/')).body).to.equal('{"statusCode":400,"error":"Bad Request","message":""}')
    await app.close()
  })

  it('onError hooks read reply.statusCode as the status the error reply sends (a metrics hook counting 5xx), also over a status chosen before the throw', async () => {
    const seen: unknown[] = []
    const app = await build((root) => {
      root.addHook('onError', async (_request, reply, error: unknown) => { seen.push([typeof error === 'string' ? error : (error as Error).message, reply.statusCode, reply.raw.statusCode]) })
      root.get('/500', async () => { throw new Error('plain') })
      root.get('/422', async () => { throw Object.assign(new Error('unprocessable'), { statusCode: 422 }) })
      root.get('/status', async () => { throw Object.assign(new Error('forbidden'), { status: 403 }) })
      root.get('/chosen', async (_request, reply) => { reply.code(418); throw Object.assign(new Error('conflict'), { statusCode: 409 }) })
      root.get('/chosen-4xx-kept', async (_request, reply) => { reply.code(418); throw new Error('teapot') })
      root.get('/hook', { preHandler: (_request, _reply, done) => { done(Object.assign(new Error('unauthorized'), { statusCode: 401 })) } }, async () => 'no')
    })
    const statuses: number[] = []
    for (const url of ['/500', '/422', '/status', '/chosen', '/chosen-4xx-kept', '/hook']) statuses.push((await app.inject(url)).statusCode)
    expect(statuses).to.deep.equal([500, 422, 403, 409, 418, 401])
    expect(seen).to.deep.equal([['plain', 500, 500], ['unprocessable', 422, 422], ['forbidden', 403, 403], ['conflict', 409, 409], ['teapot', 418, 418], ['unauthorized', 401, 401]])
    await app.close()
  })
})

describe('Fastify 3.27.4 parity: request properties', () => {
  it('request.validationError is undefined when validation passed under attachValidation', async () => {
    const app = await build((root) => {
      root.get('/', { attachValidation: true, schema: { querystring: { type: 'object', properties: { n: { type: 'integer' } } } } },
        async (req) => ({ v: req.validationError, undef: req.validationError === undefined }))
    })
    expect((await app.inject('/?n=1')).body).to.equal('{"undef":true}')
    expect((await app.inject('/?n=x')).json()).to.have.property('undef', false)
    await app.close()
  })

  it("the route's config also names its full url and declared method (request.context.config, routeConfig)", async () => {
    const app = await build((root) => {
      root.register(async (child) => {
        child.get('/c/:id', { config: { k: 'v' } }, async (req, reply) => ({ cfg: reply.context.config, same: req.routeConfig === reply.context.config }))
        child.route({ method: ['GET', 'POST'], url: '/m', handler: async (req) => req.routeConfig })
      }, { prefix: '/v1' })
    })
    expect((await app.inject('/v1/c/1')).json()).to.deep.equal({ cfg: { k: 'v', url: '/v1/c/:id', method: 'GET' }, same: true })
    expect((await app.inject({ method: 'POST', url: '/v1/m' })).json()).to.deep.equal({ url: '/v1/m', method: ['GET', 'POST'] })
    await app.close()
  })
})

describe('Fastify 3.27.4 parity: send() after the handler wrote to reply.raw', () => {
  it('closes the connection with one log line that says why, once (Fastify 3 leaves the response open: the client waits)', async () => {
    const lines: string[] = []
    const stream = { write: (line: string) => { lines.push(line) } }
    const app = server({ logger: { level: 'error', stream } as never })
    app.get('/', (_req, reply) => { reply.raw.write('partial'); reply.send('x') })
    await app.listen(0, '127.0.0.1')
    const { port } = app.server.address() as AddressInfo
    const outcome = await new Promise<string>((resolve) => {
      const req = request({ host: '127.0.0.1', port, path: '/' }, (res) => {
        let body = ''
        res.on('data', (chunk: Buffer) => { body += chunk.toString() })
        res.on('error', () => resolve(`cut after ${JSON.stringify(body)}`))
        res.on('end', () => resolve(`ended ${JSON.stringify(body)}`))
      })
      req.on('error', (error) => resolve(`error ${error.message}`))
      req.end()
    })
    expect(outcome).to.match(/^(cut after|error)/)
    const logged = lines.map((line) => JSON.parse(line) as { err?: { code?: string; message?: string } }).filter((entry) => entry.err?.code === 'ENC_ERR_REPLY_INVALID_HEADER')
    expect(logged).to.have.length(1)
    const message = logged[0].err?.message ?? ''
    expect(message).to.contain('the handler had already written to reply.raw')
    expect(message).to.not.contain('Cannot write headers after they are sent')
    await app.close()
  })

  it('also when the handler wrote only the head (writeHead) and an onSend hook makes the payload a stream: the connection is closed, nothing escapes (found by test/differential, reply-lifecycle: an uncaught exception)', async () => {
    const lines: string[] = []
    const stream = { write: (line: string) => { lines.push(line) } }
    const app = server({ logger: { level: 'error', stream } as never })
    app.get('/', { onSend: async (_req, _reply, payload) => Readable.from([`streamed:${String(payload)}`]) }, async (_req, reply) => {
      reply.raw.writeHead(207, { 'x-raw-head': '1' })
      reply.send('x')
      return reply
    })
    await app.listen(0, '127.0.0.1')
    const { port } = app.server.address() as AddressInfo
    const outcome = await new Promise<string>((resolve) => {
      const req = request({ host: '127.0.0.1', port, path: '/' }, (res) => {
        res.resume()
        res.on('error', () => resolve('cut'))
        res.on('end', () => resolve(`ended ${res.statusCode}`))
      })
      req.on('error', (error) => resolve(`error ${error.message}`))
      req.end()
    })
    expect(outcome).to.match(/^(cut|error)/)
    const logged = lines.map((line) => JSON.parse(line) as { err?: { code?: string } }).filter((entry) => entry.err?.code === 'ENC_ERR_REPLY_INVALID_HEADER')
    expect(logged).to.have.length(1)
    await app.close()
  })
})
