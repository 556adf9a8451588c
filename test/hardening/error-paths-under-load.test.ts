// Error paths hit concurrently over keep-alive connections: handlers throwing what is not an
// Error (null, a symbol, a Proxy whose every trap throws), replies sent twice from hooks, error
// handlers that throw null or reject with a 1 MB message, streams that fail before or after their
// first byte. Each request gets its one answer (or, for a stream failing mid-body, a cut
// connection), every 5xx is logged, and nothing is left behind: no process warning
// (MaxListenersExceededWarning), no unhandled rejection, the server's listener counts as they were.
import { Agent, request as httpRequest } from 'node:http'
import { Readable } from 'node:stream'
import { expect } from 'chai'
import { listening, recordingLogger } from './helpers'
import type { Reply, Request } from '../../src/runtime'

type Outcome = number | 'cut'

const hostileProxy = (): object => new Proxy({}, {
  get() { throw new Error('trap: get') },
  has() { throw new Error('trap: has') },
  getPrototypeOf() { throw new Error('trap: getPrototypeOf') },
  ownKeys() { throw new Error('trap: ownKeys') },
})

/** The route, its handler (and route options), and the outcome every request to it must get. */
const routes: ReadonlyArray<readonly [string, Record<string, unknown>, (request: Request, reply: Reply) => unknown, Outcome]> = [
  ['/throw-null', {}, async () => { throw null }, 500],
  ['/throw-undefined', {}, async () => { throw undefined }, 500],
  ['/throw-string', {}, async () => { throw 'a string' }, 500],
  ['/throw-number-sync', {}, () => { throw 42 }, 500],
  ['/throw-symbol', {}, async () => { throw Symbol('s') }, 500],
  ['/throw-object-418', {}, async () => { throw { statusCode: 418, message: 'teapot' } }, 418],
  ['/throw-frozen', {}, async () => { throw Object.freeze(new Error('frozen')) }, 500],
  ['/throw-proxy', {}, async () => { throw hostileProxy() }, 500],
  ['/reject-huge-4xx', {}, async () => { throw Object.assign(new Error('m'.repeat(1024 * 1024)), { statusCode: 400 }) }, 400],
  ['/on-request-sends-twice', { onRequest: (_request: Request, reply: Reply, done: () => void) => { reply.send({ a: 1 }); reply.send({ b: 2 }); done() } }, async () => ({ never: true }), 200],
  ['/pre-handler-sends-twice', { preHandler: async (_request: Request, reply: Reply) => { reply.send({ a: 1 }); reply.send({ b: 2 }) } }, async () => ({ never: true }), 200],
  ['/send-then-throw', {}, async (_request, reply) => { reply.send({ ok: 1 }); throw new Error('late') }, 200],
  ['/error-handler-throws-null', { errorHandler: () => { throw null } }, async () => { throw new Error('x') }, 500],
  ['/error-handler-rejects-huge', { errorHandler: async () => { throw new Error('m'.repeat(1024 * 1024)) } }, async () => { throw new Error('x') }, 500],
  ['/stream-fails-first', {}, async (_request, reply) => reply.send(new Readable({ read() { this.destroy(new Error('before the first byte')) } })), 500],
  ['/stream-fails-mid', {}, async (_request, reply) => {
    let pushed = 0
    reply.type('text/plain')
    return new Readable({ read() { if (pushed++ < 3) this.push('x'.repeat(1000)); else setImmediate(() => this.destroy(new Error('mid-body'))) } })
  }, 'cut'],
  ['/generator-throws-non-error', {}, async (_request, reply) => reply.type('text/plain').send(Readable.from((async function* () { yield 'a'; throw 'not an Error' })())), 'cut'],
  ['/ok', {}, async () => ({ ok: true }), 200],
]

function get(port: number, path: string, agent: Agent): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.on('data', () => undefined)
      res.on('end', () => resolve(res.complete ? res.statusCode as number : 'cut'))
      res.on('error', () => resolve('cut'))
      res.on('aborted', () => resolve('cut'))
    })
    req.on('error', reject)
    req.setTimeout(10_000, () => req.destroy(new Error(`${path}: no answer within 10 s`)))
    req.end()
  })
}

describe('hardening: error paths under concurrency', () => {
  it(`${routes.length} hostile routes × 20 requests at once over keep-alive: each its one answer, every 5xx logged, no warning, no unhandled rejection, listener counts unchanged`, async () => {
    const logger = recordingLogger()
    const { app, address } = await listening((root) => {
      for (const [path, options, handler] of routes) root.get(path, options, handler as never)
    }, { logger, disableRequestLogging: true })
    const server = app.server as unknown as NodeJS.EventEmitter
    const counts = (): Record<string, number> => Object.fromEntries(server.eventNames().map((name) => [String(name), server.listenerCount(name)]))
    const events: string[] = []
    const onWarning = (warning: Error): void => { events.push(`${warning.name}: ${warning.message}`) }
    const onRejection = (reason: unknown): void => { events.push(`unhandledRejection: ${String(reason)}`) }
    process.on('warning', onWarning)
    process.on('unhandledRejection', onRejection)
    const agent = new Agent({ keepAlive: true, maxSockets: 20 })
    try {
      const before = counts()
      const port = Number(new URL(address).port)
      const work = routes.flatMap(([path, , , outcome]) => Array.from({ length: 20 }, async () => [path, outcome, await get(port, path, agent)] as const))
      const results = await Promise.all(work)
      for (const [path, expected, got] of results) expect(got, path).to.equal(expected)
      // Every generic 500 is logged at error level (the cut streams and late sends add entries of their own).
      const fiveHundreds = results.filter(([, , got]) => got === 500).length
      expect(logger.entries.filter((e) => e.level === 'error').length).to.be.at.least(fiveHundreds)
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(events).to.deep.equal([])
      agent.destroy()
      for (let i = 0; i < 200 && JSON.stringify(counts()) !== JSON.stringify(before); i++) await new Promise((resolve) => setTimeout(resolve, 10))
      expect(counts()).to.deep.equal(before)
    } finally {
      agent.destroy()
      process.off('warning', onWarning)
      process.off('unhandledRejection', onRejection)
    }
  })
})
