// Half-closed clients: a client that sends its request and then its FIN (shutdown(SHUT_WR), what
// `curl` does not but a hostile or a broken proxy may). Node's HTTP server has
// httpAllowHalfOpen off: it aborts what is in flight and ends its side at once, so no answer goes
// (Fastify 3 and 5 alike, hostile24 measured). Pinned: the socket closes promptly, the handler's
// signal aborts, its late answer is dropped without an error log, connections come back; a body
// or a head cut short by the FIN is a 400 in the JSON shape with a code, the handler never run.
import { connect } from 'node:net'
import { expect } from 'chai'
import { connectionsBack, expectErrorShape, listening, recordingLogger, sleep } from './helpers'
import { deferred } from '../support/servers'

/** Writes `text`, then the FIN (once `finAfter` settles); resolves with what came back once the server closed (bounded). */
function halfClosed(address: string, text: string, finAfter: Promise<void> = Promise.resolve()): Promise<{ received: string }> {
  const { hostname, port } = new URL(address)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname)
    let received = ''
    const guard = setTimeout(() => { socket.destroy(); reject(new Error('the server kept the half-closed socket for 5 s')) }, 5_000)
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => { received += chunk })
    socket.on('error', () => undefined)
    socket.on('close', () => { clearTimeout(guard); resolve({ received }) })
    socket.write(text, () => { void finAfter.then(() => socket.end()) })
  })
}

function bodyOf(received: string): string {
  return received.slice(received.indexOf('\r\n\r\n') + 4)
}

describe('hardening: clients that half-close (FIN) after sending', () => {
  it('a request whose handler is still at work: the socket closes before it answers, request.signal aborts, the late answer is dropped without an error log; connections come back (as Fastify 3 and 5)', async () => {
    const logger = recordingLogger()
    let abortedSignal = false
    let finished = false
    // Held until the socket has closed: the close cannot have waited for the answer.
    const release = deferred()
    const started = deferred()
    const { app, address } = await listening((root) => {
      root.get('/slow', async (request) => {
        started.resolve()
        await release.promise
        abortedSignal = request.signal.aborted
        finished = true
        return { late: true }
      })
    }, { logger })
    const { received } = await halfClosed(address, 'GET /slow HTTP/1.1\r\nHost: x\r\n\r\n', started.promise)
    expect(received, 'no answer goes to a client that aborted').to.equal('')
    expect(finished, 'closed while the handler still waited').to.equal(false)
    release.resolve()
    for (let i = 0; i < 100 && !finished; i++) await sleep(20)
    expect(finished, 'the handler ran to its end').to.equal(true)
    expect(abortedSignal, 'request.signal aborted by the FIN').to.equal(true)
    await sleep(50)
    expect(logger.entries.filter((e) => e.level === 'error').map((e) => e.msg)).to.deep.equal([])
    expect(await connectionsBack(app)).to.equal(0)
  })

  it('pipelined requests then the FIN: nothing answered, the socket closed, connections come back', async () => {
    let ran = 0
    const { app, address } = await listening((root) => {
      root.get('/slow', async () => { ran++; await sleep(200); return { ok: true } })
    })
    const { received } = await halfClosed(address, 'GET /slow HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(5))
    expect(received).to.equal('')
    expect(ran).to.be.at.most(5)
    await sleep(300)
    expect(await connectionsBack(app)).to.equal(0)
  })

  for (const [label, text] of [
    ['a body shorter than its Content-Length', 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 70\r\n\r\n{"a":1}'],
    ['a chunked body without its last chunk', 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n7\r\n{"a":1}\r\n'],
    ['half a head', 'GET /echo HTTP/1.1\r\nHost: x\r\n'],
  ] as const) {
    it(`${label}, then the FIN: 400 in the JSON shape with a code, the handler never run, the socket closed`, async () => {
      let ran = false
      const { app, address } = await listening((root) => {
        root.post('/echo', async (request) => { ran = true; return request.body })
        root.get('/echo', async () => { ran = true; return {} })
      })
      const { received } = await halfClosed(address, text)
      expect(received.startsWith('HTTP/1.1 400 '), received).to.equal(true)
      const error = expectErrorShape(bodyOf(received), 400)
      expect(error.code).to.be.a('string')
      expect(ran).to.equal(false)
      expect(await connectionsBack(app)).to.equal(0)
    })
  }
})
