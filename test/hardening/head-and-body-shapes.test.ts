// Session 19's fresh angles on request heads and bodies, each pinned: an absurd Content-Length
// with no body, Expect: 100-continue announcing a body past bodyLimit, a query nested 5,000
// brackets deep, a JSON body nested 20,000 levels, and one header block trickled a byte per TCP
// segment. Each gets a JSON 4xx with a code, or its normal answer, without waiting on a body
// that never comes. Bounded: every exchange under 3 s.
import { connect } from 'node:net'
import { expect } from 'chai'
import { expectErrorShape, listening, within } from './helpers'
import { sleep } from '../support/raw-http'

/** Writes `parts` (a pause between them) and collects what comes back until the server closes or `ms` passes. */
function exchange(address: string, parts: string[], ms = 2_000, pauseMs = 0): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port: Number(new URL(address).port) })
    socket.setNoDelay(true)
    socket.on('error', () => undefined)
    let text = ''
    socket.on('data', (chunk: Buffer) => { text += chunk.toString('latin1') })
    const timer = setTimeout(() => { socket.destroy(); resolve({ text, closed: false }) }, ms)
    socket.once('close', () => { clearTimeout(timer); resolve({ text, closed: true }) })
    void (async () => {
      for (const part of parts) {
        if (socket.destroyed) return
        socket.write(part)
        if (pauseMs > 0) await sleep(pauseMs)
      }
    })()
  })
}

const bodyOf = (text: string): string => text.slice(text.indexOf('\r\n\r\n') + 4)

describe('hardening: hostile request heads and bodies (session 19)', function () {
  this.timeout(20_000)

  it('a Content-Length of 99,999,999,999,999 with no body is answered 413 ENC_ERR_CTP_BODY_TOO_LARGE at once and the connection closed, no body awaited', async () => {
    const { address } = await listening((root) => { root.post('/b', async () => ({ ok: true })) })
    const { text, closed } = await exchange(address, ['POST /b HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 99999999999999\r\n\r\n{}'])
    expect(text.startsWith('HTTP/1.1 413')).to.equal(true)
    expect(expectErrorShape(bodyOf(text), 413).code).to.equal('ENC_ERR_CTP_BODY_TOO_LARGE')
    expect(closed, 'closed by the server').to.equal(true)
  })

  it('Expect: 100-continue announcing 50 MB past bodyLimit gets the 413 without a 100 Continue (Fastify 3 invites the body first)', async () => {
    const { address } = await listening((root) => { root.post('/b', async () => ({ ok: true })) })
    const { text, closed } = await exchange(address, ['POST /b HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 50000000\r\n\r\n'])
    expect(text).not.to.include('100 Continue')
    expect(text.startsWith('HTTP/1.1 413')).to.equal(true)
    expect(expectErrorShape(bodyOf(text), 413).code).to.equal('ENC_ERR_CTP_BODY_TOO_LARGE')
    expect(closed).to.equal(true)
  })

  it('a query key nested 5,000 brackets deep (a[b][b]...=1) is one flat key, as in Fastify 3: 200, no recursion', async () => {
    const { address } = await listening((root) => { root.get('/q', async (request) => ({ keys: Object.keys(request.query as object).length })) })
    const { text } = await within(exchange(address, [`GET /q?a${'[b]'.repeat(5_000)}=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`]), 3_000, 'the answer')
    expect(text.startsWith('HTTP/1.1 200')).to.equal(true)
    expect(JSON.parse(bodyOf(text))).to.deep.equal({ keys: 1 })
  })

  it('a JSON body nested 20,000 levels ([[[...]]]) is a 400 ENC_ERR_CTP_JSON_TOO_DEEP, never a stack overflow (Fastify 3 takes it)', async () => {
    const { address } = await listening((root) => { root.post('/b', async () => ({ ok: true })) })
    const body = '['.repeat(20_000) + ']'.repeat(20_000)
    const { text } = await exchange(address, [`POST /b HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`])
    expect(text.startsWith('HTTP/1.1 400')).to.equal(true)
    expect(expectErrorShape(bodyOf(text), 400).code).to.equal('ENC_ERR_CTP_JSON_TOO_DEEP')
  })

  it('one 2 KB header block trickled a byte per TCP segment is parsed and answered once complete', async () => {
    const { address } = await listening((root) => { root.get('/h', async (request) => ({ len: String(request.headers['x-pad']).length })) })
    const head = `GET /h HTTP/1.1\r\nHost: x\r\nX-Pad: ${'p'.repeat(2_000)}\r\nConnection: close\r\n\r\n`
    // A byte per write with Nagle off: each a segment of its own on loopback (writes coalesce only while one is pending).
    const { text } = await exchange(address, Array.from(head), 10_000, 1)
    expect(text.startsWith('HTTP/1.1 200')).to.equal(true)
    expect(JSON.parse(bodyOf(text))).to.deep.equal({ len: 2_000 })
  })
})
