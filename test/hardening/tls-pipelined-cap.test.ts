// Pipelining over TLS: pipelined-cap.test.ts floods a plaintext connection; HTTP/1.1 over TLS
// arrives on other servers (node:https with `https`, and node:http2's secure server with
// `https.allowHTTP1`, which hands HTTP/1.1 connections to Node's http code). On both, a client
// pipelining 20,000 tiny requests behind one that is not answered, reading nothing, gets at most
// maxPipelinedRequests (default 100) handlers run and one warning; once the slow answer goes out
// every request is answered, in order. Before server/tls-http1-parsing.ts the connection stalled
// for good after ~500 answers: a paused parser fed by the TLS handle failed with HPE_PAUSED (plain
// node:https loses the connection the same way, with the cap off too: the second case).
// Bounded: the slow handler is released by the test, every wait under 20 s, ~700 KB sent.
import { connect as tlsConnect, type TLSSocket } from 'node:tls'
import { expect } from 'chai'
import { deferred, recordingLogger, server } from '../support/servers'
import { sleep, within } from '../support/raw-http'
import { tlsCert, tlsKey } from '../support/tls'
import type { ServerOptions } from '../../src/runtime'

const COUNT = 20_000
const get = (path: string): string => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`

async function connectTls(address: string): Promise<TLSSocket> {
  const { port } = new URL(address)
  const socket = tlsConnect({ host: '127.0.0.1', port: Number(port), ca: tlsCert, servername: 'localhost', ALPNProtocols: ['http/1.1'] })
  socket.on('error', () => undefined)
  await within(new Promise<void>((resolve) => socket.once('secureConnect', () => resolve())), 5_000, 'TLS handshake')
  return socket
}

describe('hardening: maxPipelinedRequests over TLS (https, and HTTP/2 with allowHTTP1)', function () {
  this.timeout(30_000)

  for (const [label, options] of [
    ['https', { https: { key: tlsKey, cert: tlsCert } }],
    ['http2 with https.allowHTTP1', { http2: true, https: { key: tlsKey, cert: tlsCert, allowHTTP1: true } }],
  ] as const) {
    for (const cap of [undefined, 0]) {
      const count = cap === 0 ? 3_000 : COUNT
      it(`${label}, ${cap === 0 ? 'maxPipelinedRequests 0 (Node\'s own pause only)' : 'the default cap'}: ${count.toLocaleString('en')} requests pipelined behind an unanswered one, nothing read${cap === 0 ? '' : ': at most 100 handlers run, one warning'}; then all answered in order`, async () => {
        const logger = recordingLogger()
        const app = server({ ...(options as ServerOptions), logger, ...(cap === undefined ? {} : { maxPipelinedRequests: cap }) })
        const release = deferred()
        let ran = 0
        app.get('/slow', async () => { await release.promise; return 'slow#' })
        app.get('/t/:n', async (request) => { ran++; return `${(request.params as { n: string }).n}#` })
        const address = await app.listen({ port: 0, host: '127.0.0.1' })
        const socket = await connectTls(address)
        socket.pause()
        let batch = get('/slow')
        for (let i = 0; i < count; i++) {
          batch += get(`/t/${i}`)
          if (batch.length > 60_000) { socket.write(batch); batch = '' }
        }
        socket.write(batch)
        const capWarnings = () => logger.entries.filter((e) => e.level === 'warn' && (e.obj.err as { code?: string } | undefined)?.code === 'ENC_ERR_CONNECTION_PIPELINED_LIMIT')
        if (cap === undefined) {
          // Until the cap is reached (its warning), bounded: a loaded machine parses slower.
          for (let i = 0; i < 150 && capWarnings().length === 0; i++) await sleep(100)
          await sleep(300)
          expect(capWarnings(), 'the cap was reached and said so once').to.have.length(1)
          expect(ran, 'handlers run while the head of the line holds').to.be.at.most(100)
        } else {
          await sleep(1_500)
        }

        let text = ''
        let ends = 0
        const all = new Promise<void>((resolve) => {
          socket.on('data', (chunk: Buffer) => {
            const part = chunk.toString('latin1')
            text += part
            for (const c of part) if (c === '#') ends++
            if (ends >= count + 1) resolve()
          })
        })
        socket.resume()
        release.resolve()
        await within(all, 20_000, `all ${count + 1} answers (${ends} came)`)
        const bodies = text.split('HTTP/1.1 ').slice(1).map((answer) => answer.slice(answer.indexOf('\r\n\r\n') + 4))
        expect(bodies[0]).to.equal('slow#')
        expect(bodies.slice(1).map((b) => Number(b.slice(0, -1)))).to.deep.equal(Array.from({ length: count }, (_, i) => i))
        expect(ran).to.equal(count)
        socket.destroy()
      })
    }
  }
})
