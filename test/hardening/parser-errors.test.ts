// Requests Node's HTTP parser refuses before any route runs, over raw sockets: an HTTP client
// would normalise or refuse to send every one of these.
import { expect } from 'chai'
import { expectErrorShape, listening, rawClient } from './helpers'

describe('hardening: requests Node cannot parse get the JSON error shape, then a closed connection', () => {
  let handled: string[]
  const routes = (root: import('../../src/runtime').Scope): void => {
    root.get('/x', async () => { handled.push('GET /x'); return { ok: true } })
    root.post('/x', async (request) => { handled.push(`POST /x ${String(request.body)}`); return { ok: true } })
    root.get('/secret', async () => { handled.push('GET /secret'); return { secret: true } })
  }
  beforeEach(() => { handled = [] })

  async function refused(text: string, status: number, code: string): Promise<void> {
    const { address } = await listening(routes)
    const client = await rawClient(address)
    client.write(text)
    const response = await client.next()
    expect(response.status).to.equal(status)
    expect(response.headers['content-type']).to.equal('application/json; charset=utf-8')
    expect(response.headers.connection).to.equal('close')
    expect(expectErrorShape(response.body, status).code).to.equal(code)
    await client.waitClosed()
    // Nothing after the refused request was read as a request of its own.
    expect(client.pending).to.equal('')
  }

  it('headers larger than Node accepts: 431', async () => {
    await refused(`GET /x HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'ENC_ERR_REQUEST_HEADERS_TOO_LARGE')
    expect(handled).to.deep.equal([])
  })

  it('a request line longer than Node accepts: 431 too (it counts against the header limit)', async () => {
    await refused(`GET /x?${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431, 'ENC_ERR_REQUEST_HEADERS_TOO_LARGE')
  })

  for (const [label, line] of [
    ['garbage', 'NOT A REQUEST'],
    ['an unknown HTTP version', 'GET /x HTTP/9.9'],
    ['a space inside the target', 'GET /x y HTTP/1.1'],
    ['a control character in the target', 'GET /x\x01 HTTP/1.1'],
  ] as const) {
    it(`a malformed request line (${label}): 400`, async () => {
      await refused(`${line}\r\nHost: x\r\n\r\n`, 400, 'ENC_ERR_REQUEST_MALFORMED')
      expect(handled).to.deep.equal([])
    })
  }

  it('a header line without a colon: 400', async () => {
    await refused('GET /x HTTP/1.1\r\nHost: x\r\nNoColonHere\r\n\r\n', 400, 'ENC_ERR_REQUEST_MALFORMED')
  })

  it('Content-Length with Transfer-Encoding (request smuggling): 400, and the hidden request is never run', async () => {
    const hidden = 'GET /secret HTTP/1.1\r\nHost: x\r\n\r\n'
    await refused('POST /x HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n' +
      `Content-Length: ${4 + hidden.length}\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${hidden}`, 400, 'ENC_ERR_REQUEST_MALFORMED')
    expect(handled).to.deep.equal([])
  })

  it('two Content-Length headers (even equal ones): 400, the body never read as a request', async () => {
    await refused('POST /x HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc', 400, 'ENC_ERR_REQUEST_MALFORMED')
    expect(handled).to.deep.equal([])
  })

  it('a Content-Length that is not a number: 400', async () => {
    await refused('POST /x HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 3x\r\n\r\nabc', 400, 'ENC_ERR_REQUEST_MALFORMED')
  })

  it('a Transfer-Encoding other than chunked last: 400', async () => {
    await refused('POST /x HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked, identity\r\n\r\n3\r\nabc\r\n0\r\n\r\n', 400, 'ENC_ERR_REQUEST_MALFORMED')
  })

  // Found by the fuzz8 generative fuzzer: llhttp reads `PRI /x` (no version) as the HTTP/2
  // preface, an upgrade; Node closed the connection once the body was read, before any answer.
  for (const [label, text] of [
    ['with a JSON content type', 'PRI /x\r\nHost: x\r\nContent-Type: application/json\r\n\r\n'],
    ['with a body', 'PRI /x\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 3\r\n\r\nabc'],
    ['on a path without a route', 'PRI /nowhere\r\nHost: x\r\nContent-Type: application/json\r\n\r\n'],
  ] as const) {
    it(`a PRI request line without a version (${label}): 400 in the JSON shape, not a connection closed without a word`, async () => {
      await refused(text, 400, 'ENC_ERR_REQUEST_MALFORMED')
      expect(handled).to.deep.equal([])
    })
  }

  it('a malformed chunk size: 400 after the request had started, still the JSON shape', async () => {
    const { address } = await listening(routes)
    const client = await rawClient(address)
    client.write('POST /x HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n')
    const response = await client.next()
    expect(response.status).to.equal(400)
    expectErrorShape(response.body, 400)
    await client.waitClosed()
    expect(handled).to.deep.equal([])
  })

  it('a valid request on the same connection before the bad one is answered normally first', async () => {
    const { address } = await listening(routes)
    const client = await rawClient(address)
    client.write('GET /x HTTP/1.1\r\nHost: x\r\n\r\nNOT A REQUEST\r\n\r\n')
    const first = await client.next()
    expect(first.status).to.equal(200)
    expect(JSON.parse(first.body)).to.deep.equal({ ok: true })
    const second = await client.next()
    expect(second.status).to.equal(400)
    expectErrorShape(second.body, 400)
    await client.waitClosed()
  })

  it('the server keeps serving new connections after each of these', async () => {
    const { address } = await listening(routes)
    for (const text of ['NOT A REQUEST\r\n\r\n', `GET /x HTTP/1.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`]) {
      const bad = await rawClient(address)
      bad.write(text)
      await bad.next()
      await bad.waitClosed()
    }
    const good = await rawClient(address)
    good.write('GET /x HTTP/1.1\r\nHost: x\r\n\r\n')
    expect((await good.next()).status).to.equal(200)
    good.destroy()
  })
})
