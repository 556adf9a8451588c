// Issue 12 §2: Fastify 3's onTimeout hook and connectionTimeout server option. The socket idles
// past connectionTimeout while a handler holds the request; Node destroys the socket and the
// onTimeout hooks of the request in flight run. Event-driven: each wait has a hang guard only.
import { expect } from 'chai'
import { request as httpRequest } from 'node:http'
import type { Reply, Request } from '../../src'
import { createServer } from '../../src'
import { bootError, deferred, server, thrown } from '../runtime/helpers'
import { within } from '../support/raw-http'

/** A GET whose outcome is the client-side error (the server destroyed the socket) or the status. */
function get(address: string, path: string): Promise<string | number> {
  return new Promise((resolve) => {
    const req = httpRequest(`${address}${path}`, { agent: false }, (res) => { res.resume(); resolve(res.statusCode as number) })
    req.on('error', (error) => resolve(error.message))
    req.end()
  })
}

describe('semantics: onTimeout and connectionTimeout (issue 12 §2)', () => {
  it('onTimeout hooks (scope and route option) run when the socket times out with the request in flight', async () => {
    const release = deferred()
    const ran: string[] = []
    const bothRan = deferred()
    const note = (name: string): void => { ran.push(name); if (ran.length === 2) bothRan.resolve() }
    const app = server({ connectionTimeout: 50, handlerTimeout: 0 })
    app.addHook('onTimeout', ((request: Request, _reply: Reply, done: () => void) => { note(`scope ${request.url}`); done() }) as never)
    app.get('/slow', {
      onTimeout: async (request: Request) => { note(`route ${request.url}`) },
    }, async (_request: Request, reply: Reply) => { await release.promise; return reply })
    app.get('/fast', async () => 'ok')
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    expect(await get(address, '/fast')).to.equal(200)
    const outcome = await within(get(address, '/slow'), 5000, 'the timed-out request')
    await within(bothRan.promise, 5000, 'the onTimeout hooks')
    release.resolve()
    expect(outcome).to.equal('socket hang up')
    expect(ran).to.deep.equal(['scope /slow', 'route /slow'])
  })

  it('an onTimeout route option that is not a function fails boot (ENC_ERR_HOOK_INVALID_HANDLER)', async () => {
    const app = server()
    app.addHook('onTimeout', async () => undefined)
    app.get('/', { onTimeout: 'nope' as never }, async () => 'ok')
    expect((await bootError(app)).code).to.equal('ENC_ERR_HOOK_INVALID_HANDLER')
  })

  it('connectionTimeout must be a non-negative integer (ENC_ERR_SERVER_INVALID_OPTION)', () => {
    expect(thrown(() => createServer({ connectionTimeout: -1 })).code).to.equal('ENC_ERR_SERVER_INVALID_OPTION')
  })
})
