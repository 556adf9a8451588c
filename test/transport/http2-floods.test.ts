// Hostile HTTP/2 clients (h2c over raw frames). Node 20.20.2 (nghttp2 1.61.0) bounds most floods
// itself; Enclave adds the concurrent-stream cap (node-server.ts). Each test checks the bound
// and that the server still serves another client afterwards. docs/deploy.md lists them.
import { expect } from 'chai'
import { connect as http2Connect } from 'node:http2'
import { server } from '../support/servers'
import { within, sleep } from '../support/raw-http'
import { FLAG, FRAME, frame, hpackLiteral, rawH2, requestBlock } from '../support/raw-h2'
import type { Scope } from '../../src/runtime'

/** A well-behaved client's GET after the attack: the server must still answer it. */
async function stillServes(address: string): Promise<void> {
  const session = http2Connect(address)
  session.on('error', () => undefined)
  try {
    const status = await within(new Promise<number>((resolve, reject) => {
      const stream = session.request({ ':path': '/ok' })
      stream.on('response', (headers) => resolve(Number(headers[':status'])))
      stream.on('error', reject)
      stream.resume()
      stream.end()
    }), 5_000, 'a GET after the attack')
    expect(status).to.equal(200)
  } finally {
    session.destroy()
  }
}

async function h2App(declare: (app: Scope) => void = () => undefined): Promise<string> {
  const app = server({ http2: true })
  app.get('/ok', async () => ({ ok: true }))
  declare(app)
  return app.listen({ port: 0, host: '127.0.0.1' })
}

describe('transport: hostile HTTP/2 clients', () => {
  it('1,000 streams opened at once on a slow route: at most 100 handlers run at once, the session is closed, others are served', async () => {
    let active = 0
    let most = 0
    const release: Array<() => void> = []
    const address = await h2App((app) => {
      app.get('/slow', async () => {
        active++
        most = Math.max(most, active)
        await new Promise<void>((resolve) => release.push(resolve))
        active--
        return {}
      })
    })
    const client = rawH2(address)
    client.socket.write(Buffer.concat(Array.from({ length: 1000 }, (_, i) => frame(FRAME.HEADERS, FLAG.END_HEADERS | FLAG.END_STREAM, 1 + 2 * i, requestBlock('/slow')))))
    // Past 100 streams Node refuses each (RST_STREAM REFUSED_STREAM); past maxSessionRejectedStreams (100) it ends the session.
    await within(client.closed, 5_000, 'the session to be closed')
    expect(most).to.be.at.most(100)
    expect(client.seen.rstStreams).to.be.greaterThan(0)
    for (const resolve of release.splice(0)) resolve()
    await stillServes(address)
  })

  it('a rapid-reset flood (HEADERS then RST_STREAM, 20,000 streams) gets GOAWAY after nghttp2\'s reset budget (CVE-2023-44487) and runs a bounded number of handlers; others are served', async () => {
    let ran = 0
    const address = await h2App((app) => { app.get('/a', async () => { ran++; return {} }) })
    const client = rawH2(address)
    for (let batch = 0; batch < 20 && !client.seen.closed; batch++) {
      const frames: Buffer[] = []
      for (let i = 0; i < 1000; i++) {
        const id = 1 + 2 * (batch * 1000 + i)
        frames.push(frame(FRAME.HEADERS, FLAG.END_HEADERS | FLAG.END_STREAM, id, requestBlock('/a')), frame(FRAME.RST_STREAM, 0, id, Buffer.from([0, 0, 0, 8])))
      }
      client.socket.write(Buffer.concat(frames))
      await sleep(5)
    }
    for (let i = 0; i < 100 && client.seen.goaway === null; i++) await sleep(20)
    // nghttp2 allows a burst of 1,000 resets: 2,000 handlers ran here (Fastify 3 and 5: about 3,100).
    expect(client.seen.goaway).to.not.equal(null)
    expect(ran).to.be.below(5_000)
    client.socket.destroy()
    await stillServes(address)
  })

  it('a CONTINUATION flood (a header block that never ends) is cut with GOAWAY; others are served', async () => {
    const address = await h2App()
    const client = rawH2(address)
    client.socket.write(frame(FRAME.HEADERS, FLAG.END_STREAM, 1, requestBlock('/ok')))
    const continuation = frame(FRAME.CONTINUATION, 0, 1, hpackLiteral('x-c', 'y'))
    for (let batch = 0; batch < 100 && !client.seen.closed; batch++) {
      client.socket.write(Buffer.concat(Array.from({ length: 1000 }, () => continuation)))
      await sleep(2)
    }
    await within(client.closed, 5_000, 'the session to be closed')
    expect(client.seen.goaway).to.not.equal(null)
    await stillServes(address)
  })

  it('a SETTINGS flood and a PING flood from a client that does not read are cut (Node maxOutstandingSettings / maxOutstandingPings); others are served', async () => {
    const address = await h2App()
    for (const flood of [frame(FRAME.SETTINGS, 0, 0), frame(FRAME.PING, 0, 0, Buffer.alloc(8))]) {
      const client = rawH2(address)
      client.socket.pause()
      for (let batch = 0; batch < 100 && !client.seen.closed; batch++) {
        client.socket.write(Buffer.concat(Array.from({ length: 1000 }, () => flood)))
        await sleep(2)
      }
      client.socket.resume()
      await within(client.closed, 5_000, 'the session to be closed')
    }
    await stillServes(address)
  })

  it('a header list of 1,000 fields is refused with RST_STREAM (Node maxHeaderListPairs, 128) without running a handler; others are served', async () => {
    let ran = 0
    const address = await h2App((app) => { app.get('/many', async () => { ran++; return {} }) })
    const client = rawH2(address)
    const fields = Array.from({ length: 1000 }, (_, i) => hpackLiteral(`x${i}`, 'y'))
    client.socket.write(frame(FRAME.HEADERS, FLAG.END_HEADERS | FLAG.END_STREAM, 1, Buffer.concat([requestBlock('/many'), ...fields])))
    for (let i = 0; i < 100 && client.seen.rstStreams === 0; i++) await sleep(20)
    expect(client.seen.rstStreams).to.equal(1)
    expect(ran).to.equal(0)
    client.socket.destroy()
    await stillServes(address)
  })
  it('streams that never send their body get a 408 after bodyTimeout, without a Connection header (Node would warn on stderr)', async () => {
    const warnings: string[] = []
    const onWarning = (warning: Error): void => { warnings.push(warning.message) }
    process.on('warning', onWarning)
    try {
      const app = server({ http2: true, bodyTimeout: 200 })
      app.post('/p', async () => ({}))
      const address = await app.listen({ port: 0, host: '127.0.0.1' })
      const client = rawH2(address)
      const contentType = hpackLiteral('content-type', 'application/json')
      client.socket.write(Buffer.concat(Array.from({ length: 10 }, (_, i) => frame(FRAME.HEADERS, FLAG.END_HEADERS, 1 + 2 * i, Buffer.concat([requestBlock('/p', 'POST'), contentType])))))
      for (let i = 0; i < 150 && client.seen.headers < 10; i++) await sleep(20)
      expect(client.seen.headers).to.equal(10)
      client.socket.destroy()
      await new Promise((resolve) => setImmediate(resolve))
      expect(warnings.filter((m) => /connection header/i.test(m))).to.deep.equal([])
    } finally {
      process.off('warning', onWarning)
    }
  })
})
