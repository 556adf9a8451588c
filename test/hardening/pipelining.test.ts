// HTTP/1.1 pipelining over a raw socket: Node emits 'request' for every pipelined request at once
// and queues only the answers. They run concurrently, as in Node and Fastify, except behind an
// answer that already closes the connection (server/pipelined-turn.ts).
import { expect } from 'chai'
import { listening, rawClient, sleep } from './helpers'

const get = (path: string): string => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`
const echo = (body: string): string => `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`

/** GET /slow answers after `slowMs`; POST /echo answers its body (and records that it ran in `ran`). */
function slowAndEcho(slowMs: number, ran: string[] = []): ReturnType<typeof listening> {
  return listening((root) => {
    root.get('/slow', async () => { await sleep(slowMs); return { slow: true } })
    root.post('/echo', async (request) => { ran.push('echo'); return request.body })
  })
}

describe('hardening: pipelined HTTP/1.1 requests', () => {
  it('a request pipelined behind an answer already sent with Connection: close never runs its handler', async () => {
    const ran: string[] = []
    const { app, address } = await listening((root) => {
      root.get('/close', (request, reply) => { ran.push(request.url); reply.header('connection', 'close').send({ closing: true }) })
      root.get('/next', async (request) => { ran.push(request.url); return { next: true } })
    })
    const client = await rawClient(address)
    client.write(get('/close') + get('/next') + get('/next?again'))
    expect((await client.next()).status).to.equal(200)
    await client.waitClosed()
    await sleep(20)
    expect(ran).to.deep.equal(['/close'])
    await app.close()
  })

  it('behind an answer that decides to close only after awaiting, the pipelined handler still runs (as in Node, Fastify 3 and 5) and its answer is not sent', async () => {
    const ran: string[] = []
    const { app, address } = await listening((root) => {
      root.get('/close', async (request, reply) => { await sleep(5); ran.push(request.url); reply.header('connection', 'close'); return { closing: true } })
      root.get('/next', async (request) => { ran.push(request.url); return { next: true } })
    })
    const client = await rawClient(address)
    client.write(get('/close') + get('/next'))
    expect((await client.next()).status).to.equal(200)
    await client.waitClosed()
    await sleep(20)
    expect(ran).to.deep.equal(['/next', '/close'])
    await app.close()
  })

  it('a request pipelined behind a 4xx that closes the connection never runs its handler', async () => {
    const ran: string[] = []
    const { app, address } = await listening((root) => {
      root.post('/upload', async () => { ran.push('upload'); return {} })
      root.get('/next', async () => { ran.push('next'); return {} })
    }, { bodyLimit: 10 })
    const client = await rawClient(address)
    client.write(`POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n${' '.repeat(100)}` + get('/next'))
    expect((await client.next()).status).to.equal(413)
    await client.waitClosed()
    await sleep(20)
    expect(ran).to.deep.equal([])
    await app.close()
  })

  it('pipelined requests run concurrently (as in Node and Fastify), and every one is answered, in order', async () => {
    let active = 0
    let most = 0
    const { app, address } = await listening((root) => {
      root.get('/slow/:n', async (request) => {
        const n = (request.params as { n: string }).n
        active++
        most = Math.max(most, active)
        await sleep(2)
        active--
        return { n }
      })
    })
    const client = await rawClient(address)
    const count = 50
    client.write(Array.from({ length: count }, (_, i) => get(`/slow/${i}`)).join(''))
    for (let i = 0; i < count; i++) expect(JSON.parse((await client.next()).body)).to.deep.equal({ n: String(i) })
    expect(most).to.be.greaterThan(1)
    client.destroy()
    await app.close()
  })

  it('a pipelined POST queued behind a slower request still reads its whole body', async () => {
    const { app, address } = await slowAndEcho(20)
    const client = await rawClient(address)
    const body = JSON.stringify({ text: 'x'.repeat(100_000) })
    client.write(get('/slow') + echo(body) + get('/slow'))
    expect((await client.next()).status).to.equal(200)
    const echoed = await client.next()
    expect(echoed.status).to.equal(200)
    expect(echoed.body).to.equal(body)
    expect((await client.next()).status).to.equal(200)
    client.destroy()
    await app.close()
  })

  it('requests pipelined complete before malformed bytes are all answered, in order, before the 400 that closes the connection', async () => {
    const ran: string[] = []
    const { app, address } = await slowAndEcho(30, ran)
    const client = await rawClient(address)
    // Node's parser fails on the bytes after the second echo while /slow is still being answered.
    client.write(get('/slow') + echo('{"n":1}') + echo('{"n":2}') + 'NOT HTTP\r\n\r\n')
    expect((await client.next()).status).to.equal(200)
    const first = await client.next()
    expect([first.status, first.body]).to.deep.equal([200, '{"n":1}'])
    const second = await client.next()
    expect([second.status, second.body]).to.deep.equal([200, '{"n":2}'])
    const refused = await client.next()
    expect(refused.status).to.equal(400)
    expect(JSON.parse(refused.body).code).to.equal('ENC_ERR_REQUEST_MALFORMED')
    await client.waitClosed()
    expect(ran).to.deep.equal(['echo', 'echo'])
    await app.close()
  })

  it('a request whose chunked body is malformed, pipelined behind a complete one, gets the 400 after that one is answered', async () => {
    const { app, address } = await slowAndEcho(30)
    const client = await rawClient(address)
    client.write(get('/slow') + `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`)
    expect((await client.next()).status).to.equal(200)
    expect((await client.next()).status).to.equal(400)
    await client.waitClosed()
    await app.close()
  })

  it('a request answered at its head (414) whose chunked body then turns out malformed, pipelined behind a complete one: both answers arrive, then the close', async () => {
    const { app, address } = await slowAndEcho(30)
    const client = await rawClient(address)
    const query = Array.from({ length: 1001 }, (_, i) => `k${i}=v`).join('&')
    // The 414 is given at the head, queued behind /slow's answer; the bad chunk size comes next.
    client.write(get('/slow') + `POST /echo?${query} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`)
    expect((await client.next()).status).to.equal(200)
    const refused = await client.next()
    expect([refused.status, JSON.parse(refused.body).code]).to.deep.equal([414, 'ENC_ERR_QUERY_TOO_MANY_KEYS'])
    await client.waitClosed()
    await app.close()
  })
})
