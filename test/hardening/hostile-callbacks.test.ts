// Hostile user callbacks and headers against this session's server options (brief "hostile"):
// user code Enclave calls that throws is answered 500 and logged, or fails boot with a coded
// error; never an uncaught exception or a hung request. Over real HTTP (raw sockets).
import { expect } from 'chai'
import { bootError, server } from '../support/servers'
import { expectErrorShape, GENERIC_500, listening, rawRequest, recordingLogger } from './helpers'

const get = (path: string, host = 'Host: x\r\n'): string => `GET ${path} HTTP/1.1\r\n${host}Connection: close\r\n\r\n`

describe('hardening: hostile callbacks and headers (this session\'s options)', () => {
  describe('a querystringParser that throws (SPEC: user code Enclave calls is answered 500, logged)', () => {
    for (const path of ['/q?x=1', '/missing?x=1']) {
      it(`${path}: 500 in the error shape, logged, and the server keeps serving`, async () => {
        const log = recordingLogger()
        const { address } = await listening((root) => { root.get('/q', async () => ({ ok: true })) }, {
          logger: log,
          querystringParser: (text: string) => { if (text === 'x=1') throw new Error('parser bug'); return {} },
        })
        const res = await rawRequest(address, get(path))
        expect(res.status).to.equal(500)
        expect(JSON.parse(res.body)).to.deep.equal(GENERIC_500)
        expect(log.entries.some((e) => e.level === 'error' && (e.obj.err as Error | undefined)?.message === 'parser bug')).to.equal(true)
        const next = await rawRequest(address, get('/q'))
        expect(next.status).to.equal(200)
      })
    }
  })

  describe('a clientErrorHandler that throws (Fastify 3 option; Node calls it from an event listener)', () => {
    it('is logged and the built-in 400 answers the malformed request instead of an uncaught exception', async () => {
      const log = recordingLogger()
      const { address } = await listening(() => undefined, {
        logger: log,
        clientErrorHandler: () => { throw new Error('handler bug') },
      })
      const res = await rawRequest(address, 'GARBAGE\r\n\r\n')
      expect(res.status).to.equal(400)
      expect(expectErrorShape(res.body, 400).code).to.equal('ENC_ERR_REQUEST_MALFORMED')
      expect(log.entries.some((e) => e.level === 'error' && (e.obj.err as Error | undefined)?.message === 'handler bug')).to.equal(true)
    })
  })

  describe('a schemaController bucket factory that throws (issue 12, setSchemaController)', () => {
    it('is the coded boot error ENC_ERR_SCH_CONTROLLER_INVALID naming the failure, with the cause kept', () => {
      let thrown: (Error & { code?: string; cause?: unknown }) | undefined
      const boom = new Error('bucket bug')
      try {
        server({ schemaController: { bucket: () => { throw boom } } })
      } catch (error) {
        thrown = error as Error & { code?: string; cause?: unknown }
      }
      expect(thrown?.code).to.equal('ENC_ERR_SCH_CONTROLLER_INVALID')
      expect(thrown?.message).to.contain('factory threw: bucket bug')
      expect(thrown?.cause).to.equal(boom)
    })
  })

  describe('a version constraint find-my-way cannot store (constraints, Fastify 3 route option)', () => {
    for (const version of ['v1.2.0', '>=1.0.0']) {
      it(`'${version}' is ENC_ERR_ROUTE_INVALID with the router's reason, not a duplicate-route error`, async () => {
        const app = server()
        app.get('/v', { constraints: { version } }, async () => ({}))
        const error = await bootError(app)
        expect(error.code).to.equal('ENC_ERR_ROUTE_INVALID')
        expect(error.message).to.contain('route GET /v in root').and.contain('Major version must be a numeric value')
      })
    }

    it('a real second declaration with the same version is still ENC_ERR_ROUTE_DUPLICATE', async () => {
      const app = server()
      app.get('/v', { constraints: { version: '1.2.0' } }, async () => ({}))
      app.get('/v', { constraints: { version: '1.2.0' } }, async () => ({}))
      expect((await bootError(app)).code).to.equal('ENC_ERR_ROUTE_DUPLICATE')
    })
  })

  describe('an HTTP/1.1 request without a Host header (RFC 9112 §3.2)', () => {
    it('is 400 ENC_ERR_REQUEST_NO_HOST in the JSON error shape, the connection closed, no hook or handler run', async () => {
      let ran = 0
      const { address } = await listening((root) => {
        root.addHook('onRequest', async () => { ran++ })
        root.get('/h', { constraints: { host: 'a.example' } }, async () => ({ h: 'a' }))
        root.get('/h', async () => { ran++; return { h: 'none' } })
      })
      const res = await rawRequest(address, get('/h', ''))
      expect(res.status).to.equal(400)
      expect(res.headers.connection).to.equal('close')
      expect(expectErrorShape(res.body, 400).code).to.equal('ENC_ERR_REQUEST_NO_HOST')
      expect(ran).to.equal(0)
    })

    it('an HTTP/1.0 request needs none and is served', async () => {
      const { address } = await listening((root) => { root.get('/h', async () => ({ ok: true })) })
      const res = await rawRequest(address, 'GET /h HTTP/1.0\r\n\r\n')
      expect(res.status).to.equal(200)
      expect(JSON.parse(res.body)).to.deep.equal({ ok: true })
    })
  })
})
