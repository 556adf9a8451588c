// Streams sent as the reply that are not full stream.Readable instances: a legacy stream (the
// `send` module's SendStream has pipe() but no unpipe() or destroy()) or a Readable whose
// destroy() was replaced. As in Fastify 3.27.4 (lib/reply.js sendStream), a source the response
// no longer reads is stopped with destroy(), else close(), else abort(), and a legacy stream's
// error before the first byte is an error reply; neither may throw out of a listener.
import { expect } from 'chai'
import { EventEmitter } from 'node:events'
import { get } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Readable, Stream } from 'node:stream'
import { build } from './helpers'

/** A stream in Node's legacy shape: an EventEmitter with pipe() only. */
function legacyStream(): Stream {
  return new Stream()
}

describe('reply streams that are not full Readables', () => {
  it('a legacy stream that errors before the first byte answers the error reply (no unpipe() needed)', async () => {
    const app = await build((root) => {
      root.get('/', (_req, reply) => {
        const source = legacyStream()
        setImmediate(() => source.emit('error', Object.assign(new Error('no such file'), { statusCode: 404 })))
        reply.send(source)
      })
    })
    const res = await app.inject('/')
    expect(res.statusCode).to.equal(404)
    expect(res.json()).to.deep.include({ statusCode: 404, message: 'no such file' })
    await app.close()
  })

  // Why stream-reply.ts watches 'close' itself rather than stream.finished(): finished() takes a
  // 'close' without 'end' from a stream that is not a stream.Readable for a clean finish, and the
  // client would wait for ever. (Node's legacy Stream.prototype.pipe destroys the response itself then.)
  it('a hand-made source (pipe() of its own) that closes without ending, before the first byte, answers the error reply (500), not a reply that never ends', async () => {
    const app = await build((root) => {
      root.get('/', (_req, reply) => {
        const source = Object.assign(new EventEmitter(), { pipe: <T>(dest: T): T => dest })
        setImmediate(() => source.emit('close'))
        reply.send(source)
      })
    })
    const res = await app.inject('/')
    expect(res.statusCode).to.equal(500)
    expect(res.json()).to.deep.include({ statusCode: 500 })
    await app.close()
  })

  /** Serves an endless stream whose destroy() is missing and whose `stop` method resolves once called; a client reads one chunk and leaves. */
  async function expectStoppedBy(stop: 'close' | 'abort'): Promise<void> {
    let called!: () => void
    const stopCalled = new Promise<void>((resolve) => { called = resolve })
    const app = await build((root) => {
      root.get('/', (_req, reply) => {
        const source = new Readable({ read() { this.push('hello\n') } })
        ;(source as unknown as { destroy: unknown }).destroy = undefined
        ;(source as unknown as Record<string, unknown>)[stop] = () => called()
        reply.send(source)
      })
    })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = app.server.address() as AddressInfo
    get({ host: '127.0.0.1', port, path: '/' }, (response) => { response.once('data', () => response.destroy()) })
    await stopCalled
    await app.close()
  }

  it('a stream without destroy() is stopped with close() when the client leaves', () => expectStoppedBy('close'))

  it('a stream with neither destroy() nor close() is stopped with abort() when the client leaves', () => expectStoppedBy('abort'))
})
