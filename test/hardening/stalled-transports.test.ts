// Transport-level hostility the HTTP/1.1 fuzz cannot reach: a TLS handshake that never finishes
// (no HTTP timeout runs before it is done) and an HTTP/2 CONNECT (Node answers it before any
// 'request' listener). Every wait is bounded.
import { expect } from 'chai'
import { connect as http2Connect, type ClientHttp2Session } from 'node:http2'
import { connect as netConnect } from 'node:net'
import { recordingLogger, server } from '../support/servers'
import { within } from '../support/raw-http'
import { tlsCert, tlsClient, tlsKey } from '../support/tls'
import { expectErrorShape } from './helpers'

const https = { key: tlsKey, cert: tlsCert }

/** Opens a TCP connection, writes `bytes` (or nothing), resolves with the ms until the server closed it. */
function closedAfter(url: string, bytes: Buffer | null): Promise<number> {
  const { hostname, port } = new URL(url)
  const started = Date.now()
  return within(new Promise<number>((resolve) => {
    const socket = netConnect({ host: hostname, port: Number(port) }, () => { if (bytes !== null) socket.write(bytes) })
    socket.on('error', () => undefined)
    socket.on('close', () => resolve(Date.now() - started))
  }), 5_000, 'the server to close a connection stalled in its TLS handshake')
}

/** The first bytes of a TLS ClientHello (record header, handshake header, version): a handshake left half-sent. */
const halfClientHello = Buffer.from('16030100a5010000a10303', 'hex')

interface H2Answer { status: number; body: string; rst: number }

function h2(session: ClientHttp2Session, headers: Record<string, string>): Promise<H2Answer> {
  return within(new Promise<H2Answer>((resolve, reject) => {
    const stream = session.request(headers, { endStream: false })
    let status = 0
    let body = ''
    stream.on('response', (h) => { status = Number(h[':status']) })
    stream.setEncoding('utf8')
    stream.on('data', (chunk: string) => { body += chunk })
    stream.on('close', () => resolve({ status, body, rst: stream.rstCode ?? 0 }))
    stream.on('error', reject)
  }), 5_000, 'an HTTP/2 answer')
}

describe('hardening: stalled TLS handshakes and HTTP/2 CONNECT', () => {
  for (const [name, options] of [['https', { https }], ['http2 over TLS', { http2: true, https }]] as const) {
    it(`${name}: a connection that sends nothing, or half a ClientHello, is closed after headersTimeout without a log line (Node alone waits 120 s)`, async () => {
      const log = recordingLogger()
      const app = server({ ...options, headersTimeout: 200, requestTimeout: 1_000, logger: log })
      app.get('/ok', async () => ({ ok: true }))
      const url = await app.listen({ port: 0, host: '127.0.0.1' })
      const [silent, half] = await Promise.all([closedAfter(url, null), closedAfter(url, halfClientHello)])
      expect(silent).to.be.at.least(150)
      expect(half).to.be.at.least(150)
      expect(log.entries.filter((e) => e.level === 'error' || e.level === 'warn')).to.deep.equal([])
      // A client that does finish its handshake is served as before.
      const client = await tlsClient(url)
      client.destroy()
    })
  }

  it('https.handshakeTimeout given wins over headersTimeout for the handshake', async () => {
    const app = server({ https: { ...https, handshakeTimeout: 100 }, headersTimeout: 20_000 })
    const url = await app.listen({ port: 0, host: '127.0.0.1' })
    await closedAfter(url, null)
  })

  for (const [name, options] of [['h2c', { http2: true }], ['http2 over TLS', { http2: true, https }]] as const) {
    it(`${name}: a CONNECT stream gets the JSON 501 ENC_ERR_REQUEST_CONNECT_UNSUPPORTED (Node alone answers a bare 405), and the session keeps serving`, async () => {
      const log = recordingLogger()
      const app = server({ ...options, logger: log })
      app.get('/ok', async () => ({ ok: true }))
      const session = http2Connect(await app.listen({ port: 0, host: '127.0.0.1' }), { ca: tlsCert })
      session.on('error', () => undefined)
      try {
        const refused = await h2(session, { ':method': 'CONNECT', ':authority': 'example.com:443' })
        expect(refused.status).to.equal(501)
        expect(expectErrorShape(refused.body, 501).code).to.equal('ENC_ERR_REQUEST_CONNECT_UNSUPPORTED')
        const ok = await h2(session, { ':path': '/ok' })
        expect(ok).to.include({ status: 200, body: '{"ok":true}' })
        expect(log.entries.filter((e) => e.level === 'error' || e.level === 'warn')).to.deep.equal([])
      } finally {
        session.destroy()
      }
    })
  }
})
