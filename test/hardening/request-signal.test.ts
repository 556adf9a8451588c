// request.signal: a handler can stop work nobody will read. It aborts when the client goes away
// before the reply is written, or when handlerTimeout has answered; never after a normal reply.
import { expect } from 'chai'
import { listening, rawClient, sleep } from './helpers'
import { poll } from '../support/until'
import { createServer } from '../../src/runtime'
import type { Request } from '../../src/runtime'

declare module '../../src/runtime' {
  interface RequestDecorations { user: unknown }
}

const waitFor = (condition: () => boolean): Promise<boolean> => poll(condition, { ms: 2_000, every: 5 })

/** Resolves with the signal's reason once it aborts (the way a driver or fetch() would see it). */
function aborted(signal: AbortSignal): Promise<unknown> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(signal.reason)
    else signal.addEventListener('abort', () => resolve(signal.reason), { once: true })
  })
}

describe('hardening: request.signal', () => {
  it('the client closing the connection mid-handler aborts the signal with ENC_ERR_REQUEST_ABORTED', async () => {
    let reason: unknown = null
    let started = false
    const { address } = await listening((root) => {
      root.get('/work', async (request) => {
        started = true
        reason = await aborted(request.signal)
        return { stopped: true }
      })
    }, { handlerTimeout: 5_000 })
    const client = await rawClient(address)
    client.write('GET /work HTTP/1.1\r\nHost: x\r\n\r\n')
    await waitFor(() => started)
    client.destroy()
    await waitFor(() => reason !== null)
    expect((reason as { code?: string }).code).to.equal('ENC_ERR_REQUEST_ABORTED')
    expect((reason as Error).message).to.equal('The client closed the connection before the reply was written')
  })

  it('a signal first asked for after the client left is already aborted', async () => {
    let state: { aborted: boolean; code?: string } | null = null
    let started = false
    const { address } = await listening((root) => {
      root.get('/late-look', async (request) => {
        started = true
        await new Promise<void>((resolve) => request.raw.socket?.once('close', () => resolve()))
        await sleep(10)
        state = { aborted: request.signal.aborted, code: (request.signal.reason as { code?: string } | undefined)?.code }
        return {}
      })
    }, { handlerTimeout: 5_000 })
    const client = await rawClient(address)
    client.write('GET /late-look HTTP/1.1\r\nHost: x\r\n\r\n')
    await waitFor(() => started)
    client.destroy()
    await waitFor(() => state !== null)
    expect(state).to.deep.equal({ aborted: true, code: 'ENC_ERR_REQUEST_ABORTED' })
  })

  it('handlerTimeout aborts the signal with the ENC_ERR_HANDLER_TIMEOUT error while the client gets its 503', async () => {
    let reason: unknown = null
    const { address } = await listening((root) => {
      root.get('/stuck', async (request) => {
        reason = await aborted(request.signal)
        return { never: 'sent' }
      })
    }, { handlerTimeout: 150 })
    const client = await rawClient(address)
    client.write('GET /stuck HTTP/1.1\r\nHost: x\r\n\r\n')
    expect((await client.next()).status).to.equal(503)
    await waitFor(() => reason !== null)
    expect((reason as { code?: string; statusCode?: number }).code).to.equal('ENC_ERR_HANDLER_TIMEOUT')
    expect((reason as { statusCode?: number }).statusCode).to.equal(503)
    client.destroy()
  })

  it('a handler that never looked at the signal before the timeout finds it aborted afterwards', async () => {
    let seen: boolean | null = null
    const { address } = await listening((root) => {
      root.get('/slow', async (request) => {
        await sleep(300)
        seen = request.signal.aborted
        return {}
      })
    }, { handlerTimeout: 100 })
    const client = await rawClient(address)
    client.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n')
    expect((await client.next()).status).to.equal(503)
    await waitFor(() => seen !== null)
    expect(seen).to.equal(true)
    client.destroy()
  })

  it('request.aborted turns true when the client leaves mid-handler, on a route without any hooks', async () => {
    let seen: { before: boolean; after: boolean } | null = null
    let started = false
    const { address } = await listening((root) => {
      root.get('/bare', async (request) => {
        started = true
        const before = request.aborted
        await new Promise<void>((resolve) => request.raw.socket?.once('close', () => resolve()))
        await sleep(10)
        seen = { before, after: request.aborted }
        return {}
      })
    }, { handlerTimeout: 5_000 })
    const client = await rawClient(address)
    client.write('GET /bare HTTP/1.1\r\nHost: x\r\n\r\n')
    await waitFor(() => started)
    client.destroy()
    await waitFor(() => seen !== null)
    expect(seen).to.deep.equal({ before: false, after: true })
  })

  it('after a normal reply the signal never aborts, not even when the connection closes later', async () => {
    let signal: AbortSignal | null = null
    let finished: { aborted: boolean } | null = null
    const { address } = await listening((root) => {
      root.get('/fine', async (request) => { signal = request.signal; finished = request; return { ok: true } })
    })
    const client = await rawClient(address)
    client.write('GET /fine HTTP/1.1\r\nHost: x\r\n\r\n')
    expect((await client.next()).status).to.equal(200)
    client.destroy()
    await sleep(50)
    expect((signal as AbortSignal | null)?.aborted).to.equal(false)
    expect((finished as { aborted: boolean } | null)?.aborted).to.equal(false)
  })

  it('requests of scopes with request decorators (a subclass per scope) have the signal too', async () => {
    const app = createServer()
    app.decorateRequest('user', { factory: () => ({ name: 'ada' }) })
    app.get('/d', async (request: Request) => ({ isSignal: request.signal instanceof AbortSignal, aborted: request.signal.aborted, user: request.user }))
    const res = await app.inject({ url: '/d' })
    expect(res.json()).to.deep.equal({ isSignal: true, aborted: false, user: { name: 'ada' } })
    await app.close()
  })

  it("'signal' is one of the request's own names: decorateRequest('signal') is refused", () => {
    const app = createServer()
    expect(() => app.decorateRequest('signal' as string, 1)).to.throw().with.property('code').that.matches(/^ENC_ERR_DEC_/)
  })
})
