// A stage that fails after the reply went out is only logged. That line ran in a promise's
// rejection handler: a logger (or err serializer) that threw there was an unhandled rejection,
// found by the HTTP/2 frame fuzz, whose logger could not stringify a circular error.
import { expect } from 'chai'
import { server } from '../support/servers'

describe('hardening: the log line of a failure after the reply was sent', () => {
  it('an async handler that sent, then rejects, with a logger whose error() throws: no unhandled rejection, the answer stands, the server serves on', async () => {
    const unhandled: unknown[] = []
    const onUnhandled = (reason: unknown): void => { unhandled.push(reason) }
    process.on('unhandledRejection', onUnhandled)
    try {
      const lines: string[] = []
      const logger = { level: 'error', info() {}, debug() {}, warn() {}, error(_obj: unknown, msg?: string) { lines.push(String(msg)); throw new TypeError('Converting circular structure to JSON') } }
      const app = server({ logger: logger as never })
      app.get('/late', async (_request, reply) => {
        reply.send({ sent: true })
        throw new Error('after the send')
      })
      app.get('/ok', async () => ({ ok: true }))
      const res = await app.inject({ method: 'GET', url: '/late' })
      expect(res.statusCode).to.equal(200)
      expect(res.json()).to.deep.equal({ sent: true })
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(unhandled).to.deep.equal([])
      expect(lines).to.include('a request stage failed after the reply was sent')
      expect((await app.inject({ method: 'GET', url: '/ok' })).statusCode).to.equal(200)
    } finally {
      process.off('unhandledRejection', onUnhandled)
    }
  })
})
