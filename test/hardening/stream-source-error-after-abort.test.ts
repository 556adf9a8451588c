// A client that leaves mid-stream closes the stream reply's source. Some sources answer being
// closed with an error of their own: undici's response body (a fetched or proxied upstream,
// @fastify/reply-from's) emits RequestAbortedError when destroyed before its end. That error was
// logged as a server failure ('response terminated with an error with headers already sent', at
// warn) once per closed browser tab; Fastify 3 and 5 log the client's leaving once, at info.
import { get } from 'node:http'
import { Readable } from 'node:stream'
import { expect } from 'chai'
import { listening, recordingLogger, sleep } from './helpers'

/** A source that never ends on its own and, like undici's body, errors when destroyed early. */
function erringOnDestroy(): Readable & { destroyedBy: () => boolean } {
  let destroyed = false
  let timer: NodeJS.Timeout | undefined
  const source = new Readable({
    read() { timer = setTimeout(() => this.push('data: token\n\n'), 2) },
    destroy(error, callback) {
      destroyed = true
      clearTimeout(timer)
      callback(error ?? Object.assign(new Error('Request aborted'), { code: 'UND_ERR_ABORTED' }))
    },
  })
  return Object.assign(source, { destroyedBy: () => destroyed })
}

/** Resolves once the source emitted 'close' (after its error, if any); fails after `ms`. */
function closedWithin(source: Readable, ms: number): Promise<void> {
  if (source.closed) return Promise.resolve()
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the source did not close within ${ms} ms`)), ms)
    source.once('close', () => { clearTimeout(timer); resolve() })
  })
}

/** GETs `url`, reads `chunks` chunks, then goes away. */
function readThenLeave(url: string, chunks: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = get(url, (response) => {
      let seen = 0
      response.on('data', () => { if (++seen === chunks) { request.destroy(); resolve() } })
    })
    request.on('error', (error) => { if (!request.destroyed) reject(error) })
    setTimeout(() => reject(new Error('no chunks within 5 s')), 5_000).unref()
  })
}

function warnOrError(logger: ReturnType<typeof recordingLogger>): string[] {
  return logger.entries.filter((e) => e.level === 'warn' || e.level === 'error').map((e) => `${e.level}: ${e.msg}`)
}

describe('hardening: a stream source that errors because the client left', () => {
  for (const type of ['text/event-stream', 'application/x-ndjson']) {
    it(`${type}: the source is closed, the leaving is the one 'request aborted' line at info, its error logs no warn`, async () => {
      const logger = recordingLogger()
      const sources: Array<ReturnType<typeof erringOnDestroy>> = []
      const { app, address } = await listening((root) => {
        root.get('/tokens', async (_request, reply) => {
          const source = erringOnDestroy()
          sources.push(source)
          return reply.type(type).send(source)
        })
      }, { logger, disableRequestLogging: false })       // a hand-made logger gets the access lines only when asked
      await readThenLeave(`${address}/tokens`, 3)
      for (let i = 0; i < 100 && !logger.entries.some((e) => e.msg === 'request aborted'); i++) await sleep(10)
      // Not a fixed sleep: the source's own error and close have happened (so has any line they cause).
      await closedWithin(sources[0], 5_000)
      await new Promise((resolve) => setImmediate(resolve))
      expect(sources[0].destroyedBy(), 'the source was closed').to.equal(true)
      expect(logger.entries.filter((e) => e.msg === 'request aborted')).to.have.length(1)
      expect(warnOrError(logger)).to.deep.equal([])
      await app.close()
    })
  }

  it('a source that fails while the client still reads is still logged at warn (the client got a cut body)', async () => {
    const logger = recordingLogger()
    const { app, address } = await listening((root) => {
      root.get('/fails', async (_request, reply) => {
        let n = 0
        const source = new Readable({ read() { if (++n < 3) this.push('{"n":1}\n'); else setTimeout(() => this.destroy(new Error('upstream reset')), 5) } })
        return reply.type('application/x-ndjson').send(source)
      })
    }, { logger })
    await new Promise<void>((resolve) => {
      const request = get(`${address}/fails`, (response) => { response.resume(); response.on('error', () => resolve()); response.on('close', () => resolve()) })
      request.on('error', () => resolve())
    })
    for (let i = 0; i < 100 && warnOrError(logger).length === 0; i++) await sleep(10)
    expect(warnOrError(logger)).to.deep.equal(['warn: response terminated with an error with headers already sent'])
    await app.close()
  })
})
