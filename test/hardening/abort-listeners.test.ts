// Hundreds of clients that send half a body and go away must leave nothing behind on the server:
// no listener added per request to the server or a shared emitter (a MaxListenersExceededWarning
// is the symptom), no warning, and the server keeps answering. 2,000 such requests measured: +15 MB
// RSS, the same as Fastify 3 and 5 (docs/deploy.md).
import { connect } from 'node:net'
import { expect } from 'chai'
import { listening } from './helpers'

describe('hardening: requests aborted mid-body in bulk', () => {
  it('500 POSTs cut mid-body leave the server\'s listener counts as they were, raise no process warning, and the server answers', async () => {
    const { app, address } = await listening((root) => { root.post('/echo', async (request) => request.body); root.get('/ok', async () => ({ ok: true })) })
    const url = new URL(address)
    const warnings: string[] = []
    const onWarning = (warning: Error): void => { warnings.push(`${warning.name}: ${warning.message}`) }
    process.on('warning', onWarning)
    const server = app.server as unknown as NodeJS.EventEmitter
    const counts = (): Record<string, number> => Object.fromEntries(server.eventNames().map((name) => [String(name), server.listenerCount(name)]))
    try {
      expect((await app.inject({ method: 'GET', url: '/ok' })).statusCode).to.equal(200)
      const before = counts()
      for (let round = 0; round < 10; round++) {
        await Promise.all(Array.from({ length: 50 }, () => new Promise<void>((resolve) => {
          const socket = connect(Number(url.port), url.hostname)
          socket.on('error', () => {})
          socket.on('close', () => resolve())
          socket.write('POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n[1,2,3', () => setTimeout(() => socket.destroy(), 2))
        })))
      }
      // The server sees each close a little after the client: wait (bounded) for the counts to settle.
      for (let i = 0; i < 500 && JSON.stringify(counts()) !== JSON.stringify(before); i++) await new Promise((resolve) => setTimeout(resolve, 10))
      expect(counts()).to.deep.equal(before)
      expect(warnings).to.deep.equal([])
      expect((await fetch(`${address}/ok`)).status).to.equal(200)
    } finally {
      process.off('warning', onWarning)
      await app.close()
    }
  })
})
