// Pipelining amplification: one client writes thousands of tiny pipelined GETs on one socket and
// never reads an answer. What does the server hold for them? The server runs in a child process
// (--expose-gc) and reports its heap and RSS after a gc, and how many input bytes it has read,
// after each 128 KB batch. Bounded: at most 16 batches (2 MB), 20 s in all, loopback only.
//   node dist/bench/pipelined-amplification.js [enclave|enclave-off|fastify3|fastify5][:slow] ...
// `:slow` puts a request first whose answer never comes within the run (head-of-line blocking).
import { fork, type ChildProcess } from 'node:child_process'
import { connect, type AddressInfo, type Socket } from 'node:net'

const BATCH = 128 * 1024
const BATCHES = 16
const DEADLINE_MS = 20_000
const REQUEST = 'GET /t HTTP/1.1\r\nHost: x\r\n\r\n'

interface Sample { heapUsed: number; rss: number; bytesRead: number; handled: number }

// The head of the line: an answer that takes longer than the run, so every answer behind it stays queued.
const slow = (): Promise<string> => new Promise((resolve) => { setTimeout(() => resolve('slow'), 60_000).unref() })

async function serve(kind: string): Promise<void> {
  let handled = 0
  const sockets = new Set<Socket>()
  let server: import('node:http').Server
  if (kind === 'fastify3' || kind === 'fastify5') {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const fastify = require(kind) as (o: object) => { get: (p: string, h: () => Promise<unknown>) => void, listen: (...a: unknown[]) => Promise<unknown>, server: import('node:http').Server }
    const app = fastify({ logger: false })
    app.get('/t', async () => { handled++; return { ok: true } })
    app.get('/slow', slow)
    if (kind === 'fastify3') await app.listen(0, '127.0.0.1')
    else await app.listen({ port: 0, host: '127.0.0.1' })
    server = app.server
  } else {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { createServer } = require('../src') as typeof import('../src')
    const app = createServer(kind === 'enclave-off' ? { maxPipelinedRequests: 0 } : {})
    app.get('/t', async () => { handled++; return { ok: true } })
    app.get('/slow', slow)
    await app.listen({ port: 0, host: '127.0.0.1' })
    server = app.server
  }
  server.on('connection', (s: Socket) => { sockets.add(s) })
  const measure = (): Sample => {
    (global as { gc?: () => void }).gc?.()
    const m = process.memoryUsage()
    let bytesRead = 0
    for (const s of sockets) bytesRead += s.bytesRead
    return { heapUsed: m.heapUsed, rss: m.rss, bytesRead, handled }
  }
  process.on('message', () => { process.send?.(measure()) })
  process.send?.({ port: (server.address() as AddressInfo).port, base: measure() })
}

function ask(child: ChildProcess): Promise<Sample> {
  return new Promise((resolve) => { child.once('message', (m) => resolve(m as Sample)); child.send('measure') })
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

async function run(spec: string): Promise<void> {
  const [kind, head] = spec.split(':')
  const child = fork(__filename, ['server', kind], { execArgv: ['--expose-gc'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
  const started = Date.now()
  try {
    const hello = await new Promise<{ port: number, base: Sample }>((resolve) => child.once('message', (m) => resolve(m as never)))
    const socket = connect({ host: '127.0.0.1', port: hello.port })
    socket.on('error', () => undefined)
    socket.pause()
    if (head === 'slow') socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n')
    const batch = REQUEST.repeat(Math.floor(BATCH / REQUEST.length))
    let sent = 0
    let last = hello.base
    for (let i = 0; i < BATCHES && Date.now() - started < DEADLINE_MS; i++) {
      socket.write(batch)
      sent += batch.length
      await sleep(250)
      last = await ask(child)
    }
    const mb = (n: number): string => (n / 1048576).toFixed(1)
    const perKb = (d: number): string => last.bytesRead === 0 ? '-' : (d / (last.bytesRead / 1024) / 1024).toFixed(1)
    console.log(`${spec.padEnd(17)} sent ${mb(sent)} MB, server read ${mb(last.bytesRead)} MB (${last.handled} handlers ran): ` +
      `heap +${mb(last.heapUsed - hello.base.heapUsed)} MB, rss +${mb(last.rss - hello.base.rss)} MB; ` +
      `per KB read: heap +${perKb(last.heapUsed - hello.base.heapUsed)} KB, rss +${perKb(last.rss - hello.base.rss)} KB`)
    socket.destroy()
  } finally {
    child.kill()
  }
}

async function main(): Promise<void> {
  if (process.argv[2] === 'server') return serve(process.argv[3])
  const kinds = process.argv.slice(2)
  for (const kind of kinds.length > 0 ? kinds : ['enclave', 'enclave-off', 'fastify3', 'fastify5', 'enclave:slow', 'enclave-off:slow', 'fastify3:slow', 'fastify5:slow']) await run(kind)
}

main().catch((error: unknown) => { console.error(error); process.exit(1) })
