import { expect } from 'chai'
import { get, type Agent } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import { bootError, build, deferred, server } from './helpers'

/** A GET over a real socket; resolves once the whole body has arrived. */
function fetchText(url: string, agent?: Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, agent === undefined ? {} : { agent }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => { body += chunk })
      res.on('end', () => resolve({ status: res.statusCode as number, body }))
    }).on('error', reject)
  })
}

/** The error code of a TCP connection attempt, or 'connected'. */
function tryConnect(address: string): Promise<string> {
  const { hostname, port } = new URL(address)
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) })
    socket.on('connect', () => { socket.destroy(); resolve('connected') })
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'))
  })
}

describe('runtime: listen and close', () => {
  describe('§9 listen', () => {
    it("addresses() (Fastify 4+) is [] before listen() and after close(), and the listening address in between", async () => {
      const app = server()
      app.get('/', async () => ({ ok: true }))
      expect(app.addresses()).to.deep.equal([])
      const address = await app.listen({ port: 0, host: '127.0.0.1' })
      const [listening] = app.addresses()
      expect(listening.address).to.equal('127.0.0.1')
      expect(listening.family).to.equal('IPv4')
      expect(address).to.equal(`http://127.0.0.1:${listening.port}`)
      await app.close()
      expect(app.addresses()).to.deep.equal([])
    })

    it('listen(port) (the release line) boots, listens and resolves to the address', async () => {
      let booted = false
      const app = server()
      app.register(async (s) => { booted = true; s.get('/hi', async () => 'hi') })
      const address = await app.listen(0)
      expect(booted).to.equal(true)
      const port = (app.server.address() as AddressInfo).port
      expect(address).to.equal(`http://127.0.0.1:${port}`)
      expect(await fetchText(`${address}/hi`)).to.deep.equal({ status: 200, body: 'hi' })
    })

    it('listen({ port, host }) (the development line)', async () => {
      const app = await build((root) => { root.get('/hi', async () => 'hi') })
      const address = await app.listen({ port: 0, host: '127.0.0.1' })
      expect(address).to.match(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(await fetchText(`${address}/hi`)).to.deep.equal({ status: 200, body: 'hi' })
    })

    it('listen(port, host)', async () => {
      const app = await build((root) => { root.get('/hi', async () => 'hi') })
      const address = await app.listen(0, '127.0.0.1')
      expect(await fetchText(`${address}/hi`)).to.deep.equal({ status: 200, body: 'hi' })
    })

    it('a given port number is used', async () => {
      const probe = server()
      const free = Number(new URL(await probe.listen(0)).port)
      await probe.close()
      const app = await build(() => undefined)
      expect(await app.listen(free)).to.equal(`http://127.0.0.1:${free}`)
    })

    it('listen() while listening throws ENC_ERR_SERVER_LISTENING', async () => {
      const app = await build(() => undefined)
      await app.listen(0)
      let code: unknown = null
      try { await app.listen(0) } catch (error) { code = (error as { code: string }).code }
      expect(code).to.equal('ENC_ERR_SERVER_LISTENING')
    })

    it('listen() after close() rejects with ENC_ERR_SERVER_CLOSED and does not listen again (Fastify 3: FST_ERR_REOPENED_CLOSE_SERVER)', async () => {
      const app = await build(() => undefined)
      await app.listen(0)
      await app.close()
      let code: unknown = null
      try { await app.listen(0) } catch (error) { code = (error as { code: string }).code }
      expect(code).to.equal('ENC_ERR_SERVER_CLOSED')
      expect(app.server.listening).to.equal(false)
    })

    it('close() called while listen() is still booting: listen() rejects with ENC_ERR_SERVER_CLOSED instead of listening after close() (a SIGTERM during startup exits)', async () => {
      const app = server()
      app.get('/', async () => 'ok')
      const listening = app.listen(0).then(() => null, (error: { code?: string }) => error.code)
      await app.close()
      expect(await listening).to.equal('ENC_ERR_SERVER_CLOSED')
      expect(app.server.listening).to.equal(false)
    })

    it('listen() rejects with the boot error and does not listen', async () => {
      const error = new Error('plugin failed')
      const app = server()
      app.register(async () => { throw error })
      let caught: unknown = null
      try { await app.listen(0) } catch (e) { caught = e }
      expect(caught).to.equal(error)
      expect(app.server.listening).to.equal(false)
      expect(await bootError(app)).to.equal(error)
    })
  })

  describe('close', () => {
    it('stops accepting at once, lets an in-flight request finish, then runs onClose hooks', async () => {
      const order: string[] = []
      const entered = deferred()
      const release = deferred()
      const app = await build((root) => {
        root.get('/slow', async () => { entered.resolve(); await release.promise; order.push('handler done'); return 'finished' })
        root.addHook('onClose', async () => { order.push('onClose') })
      })
      const address = await app.listen(0)
      const inFlight = fetchText(`${address}/slow`)
      await entered.promise
      const closing = app.close()
      expect(await tryConnect(address)).to.equal('ECONNREFUSED')
      expect(order).to.deep.equal([])
      release.resolve()
      expect(await inFlight).to.deep.equal({ status: 200, body: 'finished' })
      await closing
      expect(order).to.deep.equal(['handler done', 'onClose'])
      expect(app.server.listening).to.equal(false)
    })

    it('does not wait for idle keep-alive connections', async () => {
      const app = await build((root) => { root.get('/x', async () => 'x') })
      const address = await app.listen(0)
      const { Agent: HttpAgent } = await import('node:http')
      const agent = new HttpAgent({ keepAlive: true })
      try {
        expect(await fetchText(`${address}/x`, agent)).to.deep.equal({ status: 200, body: 'x' })
        await app.close() // with the idle socket still open in the agent: must not hang until keepAliveTimeout
      } finally {
        agent.destroy()
      }
    })

    it('a keep-alive connection busy during close() is closed once its response is out', async () => {
      const { Agent: HttpAgent } = await import('node:http')
      const agent = new HttpAgent({ keepAlive: true })
      const entered = deferred()
      const release = deferred()
      const app = await build((root) => {
        root.get('/slow', async () => { entered.resolve(); await release.promise; return 'slow' })
      }, { keepAliveTimeout: 60_000, closeTimeout: 60_000 })
      const address = await app.listen(0)
      try {
        const inFlight = fetchText(`${address}/slow`, agent)
        await entered.promise
        const closing = app.close()
        release.resolve()
        expect(await inFlight).to.deep.equal({ status: 200, body: 'slow' })
        await closing // would wait for the 60 s keep-alive timeout if the socket were kept
      } finally {
        agent.destroy()
      }
    })

    it('close() on a server that never listened runs the onClose hooks of a booted server', async () => {
      let closed = false
      const app = await build((root) => { root.addHook('onClose', async () => { closed = true }) })
      await app.close()
      expect(closed).to.equal(true)
    })
  })
})
