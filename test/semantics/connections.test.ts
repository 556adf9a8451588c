// Issue 12 §2 "Connections": an early error keeps a keep-alive connection when the body was read,
// and a request force-closed by close() still runs its hooks before close() resolves.
import { expect } from 'chai'
import type { Request, Scope } from '../../src'
import { build, deferred } from '../runtime/helpers'
import { rawClient } from '../support/raw-http'

const postCsv = (length: number, body: string): string =>
  `POST /in HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\nContent-Length: ${length}\r\n\r\n${body}`

// TODO(issue 12): un-skip once implemented (phase 2)
describe('semantics: connections (issue 12 §2)', () => {
  it('a 415 after the body was fully read keeps the keep-alive connection open', async () => {
    const app = await build((root) => {
      root.post('/in', async () => ({}))
      root.get('/next', async () => ({ next: true }))
    })
    const client = await rawClient(await app.listen(0))
    client.write(postCsv(3, 'a,b'))
    const first = await client.next()
    expect(first.status).to.equal(415)
    expect(first.headers.connection).to.not.equal('close')
    client.write('GET /next HTTP/1.1\r\nHost: x\r\n\r\n')
    const second = await client.next()
    expect(second.status).to.equal(200)
    expect(JSON.parse(second.body)).to.deep.equal({ next: true })
    client.socket.destroy()
  })

  it('a 415 whose unread body is too large to drain closes the connection', async () => {
    const app = await build((root) => { root.post('/in', async () => ({})) })
    const client = await rawClient(await app.listen(0))
    client.write(postCsv(50 * 1024 * 1024, 'a,b'))
    const first = await client.next()
    expect(first.status).to.equal(415)
    expect(first.headers.connection).to.equal('close')
    await client.waitClosed()
  })

  it('a request force-closed during shutdown runs its abort hooks before close() resolves and before onClose hooks', async () => {
    const order: string[] = []
    const entered = deferred()
    const app = await build((root) => {
      root.addHook('onRequestAbort', async () => { order.push('abort') })
      root.addHook('onResponse', async () => { order.push('response') })
      root.addHook('onClose', async () => { order.push('onClose') })
      root.get('/hang', async (req: Request) => { entered.resolve(); await new Promise((resolve) => req.signal.addEventListener('abort', resolve)); return {} })
    }, { closeTimeout: 50 })
    const client = await rawClient(await app.listen(0))
    client.write('GET /hang HTTP/1.1\r\nHost: x\r\n\r\n')
    await entered.promise
    await (app as Scope).close()
    order.push('closed')
    expect(order).to.deep.equal(['abort', 'onClose', 'closed'])
  })
})
