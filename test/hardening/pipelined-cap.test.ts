// maxPipelinedRequests (server/pipelined-cap.ts): a client pipelining thousands of tiny requests on
// one connection had every one Node parsed in flight at once, handler and all (~12 KB of heap
// each). Past the cap a request waits, its handler not run, and the connection is not read until
// answers go out; a client that reads its answers still gets every one, in order.
// Bounded: slow handlers are released by the test, every wait under 8 s, at most 1 MB sent.
import { connect, type AddressInfo, type Socket } from 'node:net'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { expect } from 'chai'
import { deferred, recordingLogger, server, thrown } from '../support/servers'
import { sleep, within } from '../support/raw-http'
import type { Scope, ServerOptions } from '../../src/runtime'

const get = (path: string): string => `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`

async function start(app: Scope): Promise<Socket> {
  await app.listen({ port: 0, host: '127.0.0.1' })
  return connectTo(app)
}

function connectTo(app: Scope): Socket {
  const socket = connect({ host: '127.0.0.1', port: (app.server.address() as AddressInfo).port })
  socket.on('error', () => undefined)
  return socket
}

/** Collects what `socket` receives; `until(n)` resolves once `n` answers have fully arrived (each body ends with `#`). */
function answers(socket: Socket): { text: () => string; until: (count: number) => Promise<void> } {
  let text = ''
  let ends = 0
  const waiting: Array<{ count: number; resolve: () => void }> = []
  socket.on('data', (chunk: Buffer) => {
    const part = chunk.toString('latin1')
    text += part
    for (const c of part) if (c === '#') ends++
    for (const w of waiting) if (ends >= w.count) w.resolve()
  })
  return { text: () => text, until: (count) => new Promise<void>((resolve) => { if (ends >= count) resolve(); else waiting.push({ count, resolve }) }) }
}

function bodiesOf(text: string): string[] {
  return text.split('HTTP/1.1 ').slice(1).map((answer) => answer.slice(answer.indexOf('\r\n\r\n') + 4))
}

function capWarnings(logger: ReturnType<typeof recordingLogger>): Array<Record<string, unknown>> {
  return logger.entries.filter((e) => e.level === 'warn' && (e.obj.err as { code?: string } | undefined)?.code === 'ENC_ERR_CONNECTION_PIPELINED_LIMIT').map((e) => e.obj)
}

/** The heap after a full collection (gc exposed for this process when mocha was not given --expose-gc). */
function heapAfterGc(): number {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  gc()
  gc()
  return process.memoryUsage().heapUsed
}

/** A slow request first, then `count` tiny GETs, written in pieces of at most 64 KB; the client reads nothing. */
function floodBehindSlow(socket: Socket, count: number): void {
  socket.pause()
  let batch = get('/slow')
  for (let i = 0; i < count; i++) {
    batch += get(`/t/${i}`)
    if (batch.length > 60_000) { socket.write(batch); batch = '' }
  }
  if (batch !== '') socket.write(batch)
}

describe('hardening: maxPipelinedRequests (requests in flight on one HTTP/1.1 connection)', function () {
  this.timeout(20_000)

  it('behind an answer that does not come, a client pipelining 30,000 requests and reading nothing gets at most maxPipelinedRequests handlers run (default 100), heap growth bounded, one warning', async () => {
    const logger = recordingLogger()
    const app = server({ logger })
    const release = deferred()
    let ran = 0
    app.get('/slow', async () => { await release.promise; return 'slow#' })
    app.get('/t/:n', async (request) => { ran++; return `${(request.params as { n: string }).n}#` })
    const socket = await start(app)
    const before = heapAfterGc()
    // ~1 MB of input: without the cap Node runs every request of the reads it makes (~4,500 here, ~12 MB of heap).
    floodBehindSlow(socket, 30_000)
    await sleep(1_500)
    const grown = heapAfterGc() - before
    expect(ran, 'handlers run while the head of the line holds').to.be.at.most(100)
    expect(grown, 'heap growth (bytes)').to.be.below(16 * 1024 * 1024)
    const warnings = capWarnings(logger)
    expect(warnings).to.have.length(1)
    expect(warnings[0]).to.include({ method: 'GET', limit: 100 })
    release.resolve()
    socket.destroy()
  })

  it('a well-behaved client pipelining 1,000 requests (reading its answers) gets all 1,000 answers, in order, with at most the limit running at once', async () => {
    const app = server({ maxPipelinedRequests: 50 })
    let running = 0
    let most = 0
    app.get('/t/:n', async (request) => {
      running++
      most = Math.max(most, running)
      const n = Number((request.params as { n: string }).n)
      // Later requests often finish first: the answers must still come out in request order.
      await sleep(n % 7)
      running--
      return `${n}#`
    })
    const socket = await start(app)
    const received = answers(socket)
    let requests = ''
    for (let i = 0; i < 1_000; i++) requests += get(`/t/${i}`)
    socket.write(requests)
    await within(received.until(1_000), 8_000, 'every answer')
    expect(bodiesOf(received.text())).to.deep.equal(Array.from({ length: 1_000 }, (_, i) => `${i}#`))
    expect(most, 'handlers running at once').to.be.at.most(51)
    socket.destroy()
  })

  it('pipelined POSTs past the limit, the last one\'s body arriving later while it waits, are all answered in order with their bodies', async () => {
    const app = server({ maxPipelinedRequests: 5 })
    const release = deferred()
    app.get('/slow', async () => { await release.promise; return 'slow#' })
    app.post('/echo', async (request) => `${(request.body as { n: number }).n}#`)
    const socket = await start(app)
    const received = answers(socket)
    const post = (n: number): string => { const body = JSON.stringify({ n }); return `POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}` }
    let requests = get('/slow')
    for (let i = 0; i < 200; i++) requests += post(i)
    const last = post(200)
    socket.write(requests + last.slice(0, -3))
    await sleep(200)
    socket.write(last.slice(-3))
    await sleep(100)
    release.resolve()
    await within(received.until(202), 8_000, 'every answer')
    expect(bodiesOf(received.text())).to.deep.equal(['slow#', ...Array.from({ length: 201 }, (_, i) => `${i}#`)])
    socket.destroy()
  })

  it('requests waiting past the limit when the client goes away never run their handlers, and the server goes on serving', async () => {
    const app = server({ maxPipelinedRequests: 10 })
    const release = deferred()
    let ran = 0
    app.get('/slow', async () => { await release.promise; return 'slow#' })
    app.get('/t/:n', async () => { ran++; return 'ok#' })
    const socket = await start(app)
    floodBehindSlow(socket, 500)
    await sleep(300)
    socket.destroy()
    await sleep(100)
    release.resolve()
    await sleep(200)
    expect(ran).to.be.at.most(10)
    const again = connectTo(app)
    const received = answers(again)
    again.write(get('/t/1'))
    await within(received.until(1), 4_000, 'an answer on a new connection')
    again.destroy()
  })

  it('maxPipelinedRequests: 0 turns the cap off (Node\'s own behaviour: every parsed request runs); a negative, fractional or string value is refused at createServer()', async () => {
    const app = server({ maxPipelinedRequests: 0 })
    const release = deferred()
    let ran = 0
    app.get('/slow', async () => { await release.promise; return 'slow#' })
    app.get('/t/:n', async () => { ran++; return 'ok#' })
    const socket = await start(app)
    floodBehindSlow(socket, 2_000)
    await sleep(800)
    expect(ran).to.be.above(100)
    release.resolve()
    socket.destroy()
    for (const bad of [-1, 1.5, '10', Number.NaN]) {
      const error = thrown(() => server({ maxPipelinedRequests: bad } as unknown as ServerOptions))
      expect(error.code, String(bad)).to.equal('ENC_ERR_SERVER_INVALID_OPTION')
      expect(error.message).to.include('maxPipelinedRequests')
    }
  })
})

describe('hardening: the maxPipelinedRequests warning speaks only for a stuck connection', function () {
  this.timeout(20_000)

  it('a polite client pipelining 300 requests deep (past the limit of 100) and reading every answer is served in full, in order, at most 100 at once behind the one answered, and nothing is logged', async () => {
    const logger = recordingLogger()
    const app = server({ logger })
    let running = 0
    let most = 0
    app.get('/t/:n', async (request) => {
      running++
      most = Math.max(most, running)
      // Long enough that the first 100 are still running when the rest arrive: the cap holds them.
      await sleep(5)
      running--
      return `${(request.params as { n: string }).n}#`
    })
    const socket = await start(app)
    const received = answers(socket)
    let requests = ''
    for (let i = 0; i < 300; i++) requests += get(`/t/${i}`)
    socket.write(requests)
    await within(received.until(300), 8_000, 'every answer')
    expect(bodiesOf(received.text())).to.deep.equal(Array.from({ length: 300 }, (_, i) => `${i}#`))
    // The limit plus the request being answered (Node hands it the socket: never queued, never counted).
    expect(most, 'handlers running at once').to.equal(101)
    // Past the stall watch's two checks: a late line would show here.
    await sleep(700)
    expect(capWarnings(logger)).to.deep.equal([])
    socket.destroy()
  })

  it('a client pipelining 300 requests for 64 KB answers and reading none of them is capped (at most 100 handlers at once behind the one answered, the rest not run while it does not read) and logged once', async () => {
    const logger = recordingLogger()
    const app = server({ logger, drainTimeout: 60_000, maxQueuedBytes: 0 })
    const big = 'x'.repeat(64 * 1024)
    let running = 0
    let most = 0
    let ran = 0
    app.get('/t/:n', async () => {
      running++
      ran++
      most = Math.max(most, running)
      await sleep(1)
      running--
      return big
    })
    const socket = await start(app)
    socket.pause()
    let requests = ''
    for (let i = 0; i < 300; i++) requests += get(`/t/${i}`)
    socket.write(requests)
    await within(new Promise<void>((resolve) => { const check = setInterval(() => { if (capWarnings(logger).length > 0) { clearInterval(check); resolve() } }, 20) }), 6_000, 'the warning')
    const ranThen = ran
    await sleep(600)
    expect(ran, 'no handler runs while the client reads nothing').to.equal(ranThen)
    expect(ran, 'handlers run').to.be.below(300)
    expect(most, 'handlers running at once').to.be.at.most(101)
    const warnings = capWarnings(logger)
    expect(warnings).to.have.length(1)
    expect(warnings[0]).to.include({ method: 'GET', limit: 100 })
    socket.destroy()
  })
})
