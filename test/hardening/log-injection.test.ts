// Log injection: CR/LF/ANSI escapes and NUL sent in URLs and headers, read by a one-line logger
// (@fastify/one-line-logger over pino-pretty prints messages as they are, unlike pino's JSON lines).
// Raw control bytes in a request line or header never reach Enclave: Node's parser answers 400 (as
// on Fastify 3.27.4 and 5). Percent-encoded ones reach the router and the validators, decoded; every
// line Enclave itself writes (incoming request, 404, validation failure, request completed) carries
// the URL as received, still encoded, on one line. A message the application builds from decoded
// input is printed as given by a pretty logger, on Fastify 3 and 5 alike (README, logging): pino's
// JSON lines escape it (pinned below). Bounded: a dozen requests, every wait under 4 s.
import { Writable } from 'node:stream'
import { connect } from 'node:net'
import { expect } from 'chai'
import oneLineLogger from '@fastify/one-line-logger'
import { server, within } from './helpers'
import type { Scope } from '../../src/runtime'

const EVIL = '%1b[31m%0d%0aFAKE%20LINE%00%7f'
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f\u009b]/

/** A server logging through one-line-logger (synchronously) into `lines`, with routes whose params and query are validated. */
function prettyServer(lines: string[]): Scope {
  const destination = new Writable({ write(chunk: Buffer, _encoding, done) { lines.push(chunk.toString()); done() } })
  const app = server({ logger: { level: 'info', stream: oneLineLogger({ destination, colorize: false, sync: true }) } as never })
  app.get('/n/:id', { schema: { params: { type: 'object', properties: { id: { type: 'integer' } } } } }, async () => 'ok')
  app.get('/p/:id', async (request) => ({ length: String((request.params as { id: string }).id).length }))
  app.get('/q', { schema: { querystring: { type: 'object', properties: { n: { type: 'string', enum: ['a'] } } } } }, async () => 'ok')
  return app
}

/** What the server answers to `text` sent raw (its status line), once it closes the connection. */
function rawStatus(port: number, text: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port })
    let received = ''
    socket.on('data', (chunk: Buffer) => { received += chunk.toString('latin1') })
    socket.on('error', () => undefined)
    socket.on('close', () => resolve(received.split('\r\n')[0]))
    socket.write(text)
  })
}

describe('hardening: control characters in URLs and headers reaching log lines', function () {
  this.timeout(15_000)

  it('raw ESC, DEL, C1 and bare CR bytes in the request line or a header are 400 from Node\'s parser, and none reaches a log line', async () => {
    const lines: string[] = []
    const app = prettyServer(lines)
    await app.listen({ port: 0, host: '127.0.0.1' })
    const port = (app.server.address() as { port: number }).port
    for (const text of [
      'GET /p/a\x1b[31mRED HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      'GET /p/a\x7f\x9bX HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      'GET /p/a HTTP/1.1\r\nHost: x\r\nUser-Agent: ev\x1b[2Jil\r\nConnection: close\r\n\r\n',
      'GET /p/a HTTP/1.1\r\nHost: x\r\nX-A: a\rFAKE\r\nConnection: close\r\n\r\n',
    ]) {
      expect(await within(rawStatus(port, text), 4_000, JSON.stringify(text)), JSON.stringify(text)).to.equal('HTTP/1.1 400 Bad Request')
    }
    for (const line of lines) expect(line.slice(0, -1), line).not.to.match(CONTROL)
    await app.close()
  })

  it('percent-encoded CR/LF, ESC, NUL and DEL in a path parameter, a query value, a 404 and failing validation: every line Enclave writes is one line with the URL still encoded', async () => {
    const lines: string[] = []
    const app = prettyServer(lines)
    const statuses: number[] = []
    for (const url of [`/n/${EVIL}`, `/p/${EVIL}`, `/q?n=${EVIL}`, `/nothing/${EVIL}`, `/q?${EVIL}=${EVIL}`]) statuses.push((await app.inject({ url })).statusCode)
    expect(statuses).to.deep.equal([400, 200, 400, 404, 200])
    expect(lines.length, 'lines written').to.be.at.least(10)
    for (const line of lines) {
      expect(line.endsWith('\n') && line.indexOf('\n') === line.length - 1, JSON.stringify(line)).to.equal(true)
      expect(line.slice(0, -1), JSON.stringify(line)).not.to.match(CONTROL)
    }
    expect(lines.some((line) => line.includes(`GET /p/${EVIL} - incoming request`)), 'the URL logged as received').to.equal(true)
    await app.close()
  })

  it('with pino\'s JSON lines, an error message the application built from decoded input stays one escaped line', async () => {
    const lines: string[] = []
    const destination = new Writable({ write(chunk: Buffer, _encoding, done) { lines.push(chunk.toString()); done() } })
    const app = server({ logger: { level: 'info', stream: destination } as never })
    app.get('/t/:id', async (request) => { throw new Error(`bad id ${(request.params as { id: string }).id}`) })
    expect((await app.inject({ url: `/t/${EVIL}` })).statusCode).to.equal(500)
    const failed = lines.map((line) => JSON.parse(line) as { level: number; err?: { message?: string } }).find((entry) => entry.level === 50)
    expect(failed?.err?.message).to.equal('bad id \u001b[31m\r\nFAKE LINE\u0000\u007f')
    // JSON escapes C0 controls (CR, LF, ESC, NUL); DEL is legal JSON text and stays as it is.
    // eslint-disable-next-line no-control-regex
    for (const line of lines) expect(line.slice(0, -1), line).not.to.match(/[\u0000-\u001f]/)
    await app.close()
  })
})
