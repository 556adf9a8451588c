// Clients that go away at every point of a request. The server must not crash, must not leave a
// rejection unhandled, and every request that started must end in exactly one terminal hook
// (onResponse or onRequestAbort), so that a count kept by hooks returns to zero.
import { Readable } from 'node:stream'
import { expect } from 'chai'
import { listening, rawClient, sleep, type RawClient } from './helpers'
import { poll } from '../support/until'
import type { Scope } from '../../src/runtime'

interface Accounting {
  started: Set<string>; ends: Map<string, string[]>; handled: string[]
  /** /slow's handlers wait for this instead of a fixed delay, so a slow machine cannot let one answer before its client aborts. */
  gate: Promise<void>; openGate: () => void; slowDone: number
}

function accounting(): Accounting {
  let openGate!: () => void
  const gate = new Promise<void>((resolve) => { openGate = resolve })
  return { started: new Set(), ends: new Map(), handled: [], gate, openGate, slowDone: 0 }
}

function accountedRoutes(acc: Accounting) {
  return (root: Scope): void => {
    root.addHook('onRequest', async (request) => { acc.started.add(request.id) })
    const end = (kind: string) => async (request: { id: string }): Promise<void> => {
      const list = acc.ends.get(request.id) ?? []
      list.push(kind)
      acc.ends.set(request.id, list)
    }
    root.addHook('onResponse', end('response'))
    root.addHook('onRequestAbort', end('abort'))
    root.post('/body', async (request) => { acc.handled.push('body'); return request.body })
    root.get('/slow', async () => { acc.handled.push('slow'); await acc.gate; acc.slowDone++; return { slow: true } })
    root.get('/stream', async () => {
      acc.handled.push('stream')
      let n = 0
      return new Readable({ read() { n++; if (n < 1000) setTimeout(() => this.push('x'.repeat(1024)), 1); else this.push(null) } })
    })
    root.get('/ok', async () => ({ ok: true }))
    root.get('/u/:id', async () => ({ ok: true }))
  }
}

/** Waits (bounded) until every started request has ended; the accounting is then checked exactly. */
async function settled(acc: Accounting): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if ([...acc.started].every((id) => acc.ends.has(id))) return
    await sleep(10)
  }
}

const waitFor = (condition: () => boolean): Promise<boolean> => poll(condition, { ms: 2_500, every: 5 })

describe('hardening: clients that abort', () => {
  const unhandled: unknown[] = []
  const onUnhandled = (reason: unknown): void => { unhandled.push(reason) }
  before(() => { process.on('unhandledRejection', onUnhandled); process.on('uncaughtException', onUnhandled) })
  after(() => { process.removeListener('unhandledRejection', onUnhandled); process.removeListener('uncaughtException', onUnhandled) })

  let acc: Accounting
  let address: string
  beforeEach(async () => {
    acc = accounting()
    unhandled.length = 0
    address = (await listening(accountedRoutes(acc), { handlerTimeout: 2_000, bodyTimeout: 2_000 })).address
  })
  afterEach(() => acc.openGate())

  /** Checks the accounting; resolves to the terminal hooks that ran, before the final probe request. */
  async function check(expectedStarted: number): Promise<string[]> {
    await settled(acc)
    expect(acc.started.size, 'requests that reached onRequest').to.equal(expectedStarted)
    for (const id of acc.started) expect(acc.ends.get(id), `terminal hooks of ${id}`).to.have.length(1)
    expect(acc.ends.size, 'no terminal hook without onRequest').to.equal(acc.started.size)
    expect(unhandled).to.deep.equal([])
    const kinds = [...acc.ends.values()].flat()
    // The server still answers.
    const client = await rawClient(address)
    client.write('GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    expect((await client.next()).status).to.equal(200)
    return kinds
  }

  async function abortAfter(text: string, until: () => boolean): Promise<void> {
    const client: RawClient = await rawClient(address)
    client.write(text)
    await waitFor(until)
    client.destroy()
    await client.waitClosed()
  }

  it('mid-body (Content-Length): 20 clients, each ends in onRequestAbort, the handler never runs', async () => {
    for (let i = 0; i < 20; i++) {
      const seen = acc.started.size
      await abortAfter('POST /body HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":"' + 'x'.repeat(100), () => acc.started.size > seen)
    }
    expect(await check(20)).to.deep.equal(new Array(20).fill('abort'))
    expect(acc.handled).to.deep.equal([])
  })

  it('mid-chunk (chunked): 20 clients, the same', async () => {
    for (let i = 0; i < 20; i++) {
      const seen = acc.started.size
      await abortAfter('POST /body HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n40\r\n{"a":"xx', () => acc.started.size > seen)
    }
    await check(20)
    expect(acc.handled).to.deep.equal([])
  })

  it('before the response, while the handler works: 20 clients; the handler finishing later is harmless', async () => {
    for (let i = 0; i < 20; i++) {
      const seen = acc.handled.length
      await abortAfter('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n', () => acc.handled.length > seen)
    }
    // Every abort is in before any handler finishes: the answers come after their clients left.
    await settled(acc)
    acc.openGate()
    await waitFor(() => acc.slowDone === 20)
    expect(acc.slowDone, 'handlers that finished after their abort').to.equal(20)
    expect(await check(20)).to.deep.equal(new Array(20).fill('abort'))
  })

  it('in the middle of a streamed response: 10 clients', async () => {
    for (let i = 0; i < 10; i++) {
      const client = await rawClient(address)
      client.write('GET /stream HTTP/1.1\r\nHost: x\r\n\r\n')
      await waitFor(() => client.pending.length > 5_000)
      client.destroy()
      await client.waitClosed()
    }
    await check(10)
  })

  it('before the headers are complete: no request starts, nothing to account for', async () => {
    for (let i = 0; i < 10; i++) {
      const client = await rawClient(address)
      client.write('GET /ok HTTP/1.1\r\nHost: x\r\nX-Half: ')
      await sleep(5)
      client.destroy()
      await client.waitClosed()
    }
    await check(0)
  })

  it('answers given before any handler (404, 405, bad URL, both 414s, 413, 415, bad JSON) go through onRequest and onResponse once each', async () => {
    const early = [
      'GET /nowhere HTTP/1.1', 'DELETE /ok HTTP/1.1', 'GET /u/%E0%A4%A HTTP/1.1', `GET /u/${'x'.repeat(101)} HTTP/1.1`,
      `GET /ok?${Array.from({ length: 1001 }, (_, i) => `k${i}=1`).join('&')} HTTP/1.1`,
    ].map((line) => `${line}\r\nHost: x\r\nConnection: close\r\n\r\n`)
    const withBody = (type: string, body: string, length = Buffer.byteLength(body)): string =>
      `POST /body HTTP/1.1\r\nHost: x\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n${body}`
    const requests = [...early, withBody('application/json', '{', 2_000_000), withBody('application/xml', '<a/>'), withBody('application/json', '{"a":')]
    const statuses: number[] = []
    for (const text of requests) {
      const client = await rawClient(address)
      client.write(text)
      statuses.push((await client.next()).status)
      client.destroy()
    }
    expect(statuses).to.deep.equal([404, 405, 400, 414, 414, 413, 415, 400])
    expect(await check(requests.length)).to.deep.equal(new Array(requests.length).fill('response'))
  })

  it('a mix, in parallel on many connections: the count returns to zero', async () => {
    const kinds = [
      'POST /body HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":',
      'POST /body HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n40\r\n{"a"',
      'GET /slow HTTP/1.1\r\nHost: x\r\n\r\n',
      'POST /body HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{"a":1}',
    ]
    const clients = await Promise.all(Array.from({ length: 40 }, async (_, i) => {
      const client = await rawClient(address)
      client.write(kinds[i % kinds.length])
      return client
    }))
    await waitFor(() => acc.started.size === 40)
    await sleep(5)
    for (const client of clients) client.destroy()
    acc.openGate()
    await check(40)
  })
})
