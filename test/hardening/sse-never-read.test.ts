// An event stream whose client never reads while the handler keeps producing: drainTimeout cuts
// the connection and the source stream is closed, so the producer stops and what it buffered
// is freed (a handler that ignores backpressure would otherwise fill memory for as long as the
// client likes). Bounded: drainTimeout 1 s, every wait under 6 s.
import { connect } from 'node:net'
import { Readable } from 'node:stream'
import { expect } from 'chai'
import { server } from '../support/servers'
import { sleep, within } from '../support/raw-http'

describe('hardening: an event stream to a client that never reads', function () {
  this.timeout(15_000)

  it('is cut after drainTimeout: the source stream is destroyed, its producer stops, the connection is gone', async () => {
    const app = server({ drainTimeout: 1_000 })
    const sources: Readable[] = []
    let pushed = 0
    app.get('/events', async (_request, reply) => {
      const event = `data: ${'x'.repeat(65_000)}\n\n`
      // Ignores backpressure on purpose: pushes whatever read() asks, and more on a timer.
      const source = new Readable({ read() {} })
      const timer = setInterval(() => { pushed++; source.push(event) }, 5)
      source.on('close', () => clearInterval(timer))
      sources.push(source)
      reply.type('text/event-stream')
      return source
    })
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const socket = connect({ host: '127.0.0.1', port: Number(new URL(address).port) })
    socket.on('error', () => undefined)
    socket.write('GET /events HTTP/1.1\r\nHost: x\r\n\r\n')
    socket.pause()
    for (let i = 0; i < 100 && sources.length === 0; i++) await sleep(20)
    expect(sources.length).to.equal(1)
    await within(new Promise((resolve) => sources[0].once('close', resolve)), 6_000, 'the event source to be closed')
    const stoppedAt = pushed
    await sleep(100)
    expect(pushed, 'the producer stopped').to.equal(stoppedAt)
    socket.destroy()
    let open = -1
    for (let i = 0; i < 100 && open !== 0; i++) {
      open = await new Promise<number>((resolve) => app.server.getConnections((_e, n) => resolve(n)))
      if (open !== 0) await sleep(20)
    }
    expect(open).to.equal(0)
  })
})
