// Graceful shutdown: close() refuses new connections at once, closes idle ones, lets in-flight
// requests finish, and force-closes after closeTimeout; the sample's signal handlers use it.
import { spawn } from 'node:child_process'
import { connect } from 'node:net'
import { join } from 'node:path'
import { expect } from 'chai'
import { listening, rawClient, sleep, within } from './helpers'

function connectError(address: string): Promise<string> {
  const { hostname, port } = new URL(address)
  return within(new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) })
    socket.once('connect', () => { socket.destroy(); resolve('connected') })
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
  }), 5_000, 'connecting during close')
}

// Long Node timeouts, so that whatever closes a connection here is close() itself.
const patient = { keepAliveTimeout: 60_000, closeTimeout: 60_000, handlerTimeout: 0 }

describe('hardening: close()', () => {
  it('refuses new connections at once, while an in-flight request is still running', async () => {
    let release!: () => void
    const { app, address } = await listening((root) => {
      root.get('/slow', () => new Promise((resolve) => { release = () => resolve({ done: true }) }))
    }, patient)
    const busy = await rawClient(address)
    busy.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n')
    for (let i = 0; i < 500 && release === undefined; i++) await sleep(5)
    const closing = app.close()
    expect(await connectError(address)).to.equal('ECONNREFUSED')
    release()
    await within(closing, 5_000, 'close()')
  })

  it('lets an in-flight request finish: its answer arrives, with Connection: close', async () => {
    const ran: string[] = []
    const { app, address } = await listening((root) => {
      root.addHook('onClose', async () => { ran.push('onClose') })
      root.get('/slow', async () => { await sleep(200); ran.push('handler'); return { done: true } })
    }, patient)
    const client = await rawClient(address)
    client.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n')
    await sleep(20)
    const closing = app.close()
    const res = await client.next()
    expect(res.status).to.equal(200)
    expect(JSON.parse(res.body)).to.deep.equal({ done: true })
    expect(res.headers.connection).to.equal('close')
    await within(closing, 5_000, 'close()')
    await client.waitClosed()
    expect(ran).to.deep.equal(['handler', 'onClose'])
  })

  it('closes idle keep-alive connections, and connections that never sent a request, without waiting', async () => {
    const { app, address } = await listening((root) => { root.get('/x', async () => 'x') }, patient)
    const idleAfterRequest = await rawClient(address)
    idleAfterRequest.write('GET /x HTTP/1.1\r\nHost: x\r\n\r\n')
    expect((await idleAfterRequest.next()).headers.connection).to.equal('keep-alive')
    const neverSent = await rawClient(address)
    await within(app.close(), 5_000, 'close() with idle connections (closeTimeout and keepAliveTimeout are 60 s)')
    await idleAfterRequest.waitClosed()
    await neverSent.waitClosed()
  })

  it('closes a connection that goes idle during close(): an upload answered early (401) whose body ends after close() began', async () => {
    const { app, address } = await listening((root) => {
      root.post('/upload', { onRequest: async (_request, reply) => { await reply.code(401).send({ message: 'no token' }) } }, async () => 'stored')
    }, patient)
    const client = await rawClient(address)
    client.write('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: 10\r\n\r\n12345')
    const answer = await client.next()
    expect(answer.status).to.equal(401)
    expect(answer.headers.connection).to.equal('keep-alive')   // sent before close(): the client may reuse it
    const closing = app.close()
    await sleep(20)
    client.write('67890')                                      // the body ends while closing: the connection is idle from here
    await within(closing, 5_000, 'close() after the early-answered body ended (closeTimeout and keepAliveTimeout are 60 s)')
    await client.waitClosed()
  })

  it('answers a request sent on a connection accepted just before close(), instead of resetting it', async () => {
    const { app, address } = await listening((root) => { root.get('/x', async () => ({ ok: true })) }, patient)
    const { hostname, port } = new URL(address)
    // Connected, and the request written at once: close() may run before the server reads it.
    const answer = new Promise<string>((resolve) => {
      const socket = connect({ host: hostname, port: Number(port) })
      let text = ''
      socket.on('data', (chunk) => { text += String(chunk) })
      socket.once('connect', () => {
        socket.write('GET /x HTTP/1.1\r\nHost: x\r\n\r\n')
        void app.close()
      })
      socket.once('close', () => resolve(text))
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
    })
    const text = await within(answer, 5_000, 'the answer')
    expect(text).to.match(/^HTTP\/1\.1 200 /)
    expect(text).to.include('"ok":true')
  })

  it('force-closes a connection whose handler hangs, after closeTimeout; the request ends in onRequestAbort', async () => {
    const ends: string[] = []
    const { app, address } = await listening((root) => {
      root.addHook('onResponse', async () => { ends.push('response') })
      root.addHook('onRequestAbort', async () => { ends.push('abort') })
      root.get('/hang', () => new Promise(() => undefined))
    }, { closeTimeout: 300, handlerTimeout: 0 })
    const client = await rawClient(address)
    client.write('GET /hang HTTP/1.1\r\nHost: x\r\n\r\n')
    await sleep(20)
    await within(app.close(), 5_000, 'close() with a hanging handler and closeTimeout 300 ms')
    await client.waitClosed()
    expect(client.pending).to.equal('')
    for (let i = 0; i < 100 && ends.length === 0; i++) await sleep(10)
    expect(ends).to.deep.equal(['abort'])
  })

  it('a second close() waits for the same shutdown', async () => {
    const { app } = await listening((root) => { root.get('/x', async () => 'x') })
    const [a, b] = [app.close(), app.close()]
    expect(a).to.equal(b)
    await within(Promise.all([a, b]), 5_000, 'close()')
  })
})

describe('hardening: the sample stops on SIGINT through close()', function () {
  this.timeout(60_000)

  it('SIGINT with an idle keep-alive connection open: "SIGINT received", the connection closed, exit code 0', async () => {
    const main = join(__dirname, '..', '..', 'sample', 'main.js')
    const child = spawn(process.execPath, [main], { env: { ...process.env, PORT: '0', HOST: '127.0.0.1', API_KEYS: 'k' }, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString() })
    child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString() })
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    try {
      // 3,000 polls (30 s or more): the sample's boot took 6-13 s on a loaded 2-core machine.
      for (let i = 0; i < 3_000 && !/listening on http:\/\/\S+/.test(output); i++) await sleep(10)
      const address = (/listening on (http:\/\/\S+)/.exec(output) ?? [])[1]
      expect(address, output).to.be.a('string')
      const client = await rawClient(address)
      client.write('GET /two HTTP/1.1\r\nHost: x\r\n\r\n')
      expect((await client.next()).status).to.equal(200)
      child.kill('SIGINT')
      expect(await within(exited, 15_000, 'the sample exiting after SIGINT')).to.equal(0)
      await client.waitClosed()
      expect(output).to.contain('SIGINT received, closing')
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    }
  })
})
