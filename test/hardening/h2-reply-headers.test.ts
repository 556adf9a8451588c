// Reply headers a handler sets from a request (or by mistake) that HTTP/2 refuses. Node's
// Http2ServerResponse.writeHead stores the headers it is given before nghttp2's checks refuse an
// HTTP/1 connection header; the refused one stayed staged and refused the error reply's head too,
// thrown out of the error path: an uncaught exception, the process gone (found by hostile17).
// Header values from the request with CR, LF or NUL: nghttp2 dropped the header (a redirect
// without its Location) or reset the stream; now the logged 500 HTTP/1.1 gives.
import { expect } from 'chai'
import { connect as http2Connect, type ClientHttp2Session } from 'node:http2'
import { Readable } from 'node:stream'
import { recordingLogger, server } from '../support/servers'
import { within } from '../support/raw-http'
import { expectErrorShape, GENERIC_500 } from './helpers'

interface Got { status: number; headers: Record<string, unknown>; body: string; reset: boolean }

function get(session: ClientHttp2Session, path: string): Promise<Got> {
  return within(new Promise<Got>((resolve) => {
    const stream = session.request({ ':path': path })
    let status = 0
    let headers: Record<string, unknown> = {}
    let body = ''
    stream.on('response', (h) => { status = Number(h[':status']); headers = h })
    stream.on('data', (chunk: Buffer) => { body += chunk.toString('utf8') })
    stream.on('error', () => undefined)
    stream.on('close', () => resolve({ status, headers, body, reset: status === 0 }))
    stream.end()
  }), 5_000, `the answer to ${path}`)
}

describe('hardening: HTTP/2 reply headers Node refuses', () => {
  for (const name of ['transfer-encoding', 'upgrade', 'keep-alive', 'proxy-connection']) {
    it(`a handler that sets ${name} gets the generic 500 in the JSON shape, logged, without the header; the session serves on`, async () => {
      const logger = recordingLogger()
      const app = server({ http2: true, logger })
      app.get('/bad', async (_request, reply) => { reply.header(name, 'chunked'); return { ok: true } })
      app.get('/ok', async () => ({ ok: true }))
      const address = await app.listen({ port: 0, host: '127.0.0.1' })
      const session = http2Connect(address)
      session.on('error', () => undefined)
      try {
        const bad = await get(session, '/bad')
        expect(bad.status).to.equal(500)
        expect(expectErrorShape(bad.body, 500)).to.deep.equal(GENERIC_500)
        expect(bad.headers[name]).to.equal(undefined)
        expect(logger.entries.some((e) => e.level === 'error'), 'the failure is logged').to.equal(true)
        const ok = await get(session, '/ok')
        expect(ok).to.deep.include({ status: 200, body: '{"ok":true}' })
      } finally {
        session.destroy()
      }
    })
  }

  const VALUES: Record<string, string> = { 'CR LF': '/a%0d%0aSet-Cookie:%20admin=1', 'LF': '/a%0aX:1', 'NUL': '/a%00b' }
  for (const [what, value] of Object.entries(VALUES)) {
    it(`a header value from the query with ${what} (reply.header, reply.redirect, reply.raw.setHeader) is the logged 500 ENC_ERR_REPLY_INVALID_HEADER, as over HTTP/1.1, not a dropped header or a reset stream`, async () => {
      const logger = recordingLogger()
      const app = server({ http2: true, logger })
      app.get('/echo', async (request, reply) => { reply.header('x-echo', (request.query as { v: string }).v); return { ok: true } })
      app.get('/go', async (request, reply) => reply.redirect((request.query as { v: string }).v))
      // Set on reply.raw (connect middleware, raw users): the same head, checked the same.
      app.get('/raw', async (request, reply) => { reply.raw.setHeader('location', (request.query as { v: string }).v); reply.code(302); return '' })
      app.get('/ok', async () => ({ ok: true }))
      const address = await app.listen({ port: 0, host: '127.0.0.1' })
      const session = http2Connect(address)
      session.on('error', () => undefined)
      try {
        for (const path of [`/echo?v=${value}`, `/go?v=${value}`, `/raw?v=${value}`]) {
          const got = await get(session, path)
          expect(got.status, path).to.equal(500)
          expect(expectErrorShape(got.body, 500), path).to.deep.equal(GENERIC_500)
          expect(got.headers['x-echo'], path).to.equal(undefined)
          expect(got.headers.location, path).to.equal(undefined)
        }
        const refused = logger.entries.filter((e) => e.level === 'error' && /a reply header was refused: Invalid character in header content/.test(String(e.msg)))
        expect(refused.length, JSON.stringify(logger.entries.map((e) => e.msg))).to.equal(3)
        expect(await get(session, '/ok')).to.deep.include({ status: 200, body: '{"ok":true}' })
      } finally {
        session.destroy()
      }
    })
  }

  for (const [what, path] of [['a CR LF value', '/stream?v=a%0d%0aX:1'], ['a NUL value', '/stream?v=a%00b'], ['transfer-encoding', '/stream?h=transfer-encoding']]) {
    it(`a stream reply with ${what} among its headers is the logged 500 before its first byte, never a crash or a silent drop`, async () => {
      const logger = recordingLogger()
      const app = server({ http2: true, logger })
      app.get('/stream', async (request, reply) => {
        const query = request.query as { v?: string; h?: string }
        reply.header(query.h ?? 'x-echo', query.v ?? 'chunked').type('text/plain')
        return Readable.from(['a', 'b'])
      })
      app.get('/ok', async () => ({ ok: true }))
      const address = await app.listen({ port: 0, host: '127.0.0.1' })
      const session = http2Connect(address)
      session.on('error', () => undefined)
      try {
        const got = await get(session, path)
        expect(got.status).to.equal(500)
        expect(expectErrorShape(got.body, 500)).to.deep.equal(GENERIC_500)
        expect(logger.entries.some((e) => e.level === 'error' && /a reply header was refused/.test(String(e.msg)))).to.equal(true)
        expect(await get(session, '/ok')).to.deep.include({ status: 200, body: '{"ok":true}' })
      } finally {
        session.destroy()
      }
    })
  }

  it('a value of Latin-1 text (é) is written as it is, as over HTTP/1.1', async () => {
    const app = server({ http2: true })
    app.get('/echo', async (request, reply) => { reply.header('x-echo', (request.query as { v: string }).v); return { ok: true } })
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const session = http2Connect(address)
    session.on('error', () => undefined)
    try {
      const got = await get(session, '/echo?v=%C3%A9')
      expect(got.status).to.equal(200)
      expect(got.headers['x-echo']).to.equal('é')
    } finally {
      session.destroy()
    }
  })

  it('a custom error handler answering that failure is answered too (its own reply, or the generic 500), never a crash', async () => {
    const app = server({ http2: true })
    app.setErrorHandler(async (_error, _request, reply) => reply.code(502).send({ handled: true }))
    app.get('/bad', async (_request, reply) => { reply.header('transfer-encoding', 'chunked'); return { ok: true } })
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const session = http2Connect(address)
    session.on('error', () => undefined)
    try {
      const bad = await get(session, '/bad')
      expect([500, 502]).to.include(bad.status)
      expect(bad.headers['transfer-encoding']).to.equal(undefined)
    } finally {
      session.destroy()
    }
  })
})
