import { expect } from 'chai'
import { createServer, request, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { watchNextRequest } from '../../bench/boot/first-request'

function get(server: Server): Promise<string> {
  const { port } = server.address() as AddressInfo
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
      let text = ''
      res.setEncoding('utf8').on('data', (c: string) => { text += c }).on('end', () => resolve(text))
    })
    req.setTimeout(5000, () => req.destroy(new Error('no answer within 5 s')))
    req.on('error', reject)
    req.end()
  })
}

// The boot bench's server-side figure for the first request (boot21): measured inside the server,
// from node's 'request' event to end(), for the one request it watches, without changing the answer.
describe('bench first request: the server\'s own share', () => {
  let server: Server
  const seen: ServerResponse[] = []
  before(async () => {
    server = createServer((_req, res) => {
      seen.push(res)
      // Some CPU in the handler, so the figure has something to count.
      let n = 0
      for (let i = 0; i < 200_000; i++) n += i % 7
      res.end(String(n > 0))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  })
  after(() => { server.close() })

  it('times the next request from its request event to end(), answers it unchanged, and leaves end() as it was', async () => {
    const watched = watchNextRequest(server)
    expect(await get(server)).to.equal('true')
    const { cpuMs, finished } = await watched
    await finished
    expect(cpuMs).to.be.a('number').and.to.be.greaterThan(0)
    expect(Object.prototype.hasOwnProperty.call(seen[0], 'end')).to.equal(false)
    expect(server.listenerCount('request')).to.equal(1)
  })
})
