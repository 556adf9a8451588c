// listen() that cannot bind (a port in use: `npm start` twice; a host that is not this machine's
// or a typo of one): Node's error, as Fastify 3 rethrows it, so `error.code === 'EADDRINUSE'`
// still reads; its message names the port or host and the fix, and `enclaveCode` the table entry
// (ENC_ERR_SERVER_LISTEN_FAILED). From createServer(), createApp() and startCluster(), whose
// primary stops instead of respawning workers that would fail on the same address.
import 'reflect-metadata'
import { expect } from 'chai'
import { spawn } from 'node:child_process'
import { createServer as netServer, type Server } from 'node:net'
import { join } from 'node:path'
import { createServer } from '../../src'
import { Get, Module, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { listenFix } from '../../src/runtime/server/listen-failure'
import { within } from '../support/raw-http'

type BindError = Error & { code?: string; syscall?: string; port?: number; enclaveCode?: string }

async function occupied(): Promise<{ port: number; holder: Server }> {
  const holder = netServer()
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve))
  return { port: (holder.address() as { port: number }).port, holder }
}

const failure = (promise: Promise<unknown>): Promise<BindError> => promise.then(() => { throw new Error('listen() resolved') }, (error: BindError) => error)

describe('dx: listen() that cannot bind names the address and the fix (ENC_ERR_SERVER_LISTEN_FAILED)', function () {
  this.timeout(60_000)

  it('a port in use: createServer().listen() rejects with code EADDRINUSE (as Fastify 3), a message naming port, host and the fix, and enclaveCode', async () => {
    const { port, holder } = await occupied()
    const app = createServer()
    try {
      const error = await failure(app.listen({ port, host: '127.0.0.1' }))
      expect(error.code).to.equal('EADDRINUSE')
      expect(error.syscall).to.equal('listen')
      expect(error.enclaveCode).to.equal('ENC_ERR_SERVER_LISTEN_FAILED')
      expect(error.message).to.include(`cannot listen on port ${port} on host 127.0.0.1`)
      expect(error.message).to.include('EADDRINUSE')
      expect(error.message).to.include('npm start twice?')
      expect(error.message).to.include(`PORT=${port + 1}, or 0 for a free one`)
      // The stack's first line is the new message too: it is what an uncaught rejection prints.
      expect(error.stack?.split('\n')[0]).to.equal(`Error: ${error.message}`)
      expect(app.server.listening).to.equal(false)
    } finally {
      await app.close()
      holder.close()
    }
  })

  it('createApp(Root).listen() on a port in use: the same error', async () => {
    @Route() class HelloController { @Get('/') hello() { return { ok: true } } }
    @Module({ controllers: [HelloController] }) class AppModule {}
    const { port, holder } = await occupied()
    const app = await createApp(AppModule)
    try {
      const error = await failure(app.listen(port, '127.0.0.1'))
      expect(error.code).to.equal('EADDRINUSE')
      expect(error.enclaveCode).to.equal('ENC_ERR_SERVER_LISTEN_FAILED')
      expect(error.message).to.match(new RegExp(`^listen\\(\\) in AppModule: cannot listen on port ${port} on host 127\\.0\\.0\\.1 \\(listen EADDRINUSE`))
    } finally {
      await app.close()
      holder.close()
    }
  })

  it('a host that does not resolve (a typo of localhost) keeps code ENOTFOUND and says the host does not resolve', async () => {
    const app = createServer()
    try {
      const error = await failure(app.listen({ port: 0, host: 'locahost.invalid' }))
      expect(error.code).to.be.oneOf(['ENOTFOUND', 'EAI_AGAIN'])
      expect(error.enclaveCode).to.equal('ENC_ERR_SERVER_LISTEN_FAILED')
      expect(error.message).to.include('on host locahost.invalid')
      expect(error.message).to.include('The host name does not resolve')
    } finally {
      await app.close()
    }
  })

  it('a host that is not an address of this machine (EADDRNOTAVAIL) names the hosts to use instead', async () => {
    const app = createServer()
    try {
      // TEST-NET-1 (RFC 5737): never assigned to a machine.
      const error = await failure(app.listen({ port: 0, host: '192.0.2.1' }))
      expect(error.code).to.equal('EADDRNOTAVAIL')
      expect(error.message).to.include("use '127.0.0.1' (this machine only), '0.0.0.0' or '::'")
    } finally {
      await app.close()
    }
  })

  it('each bind failure has its own fix: a privileged port (EACCES), a socket path in use, anything else names PORT and HOST', () => {
    expect(listenFix('EACCES', { port: 80, host: '0.0.0.0' })).to.include('Ports below 1024 need privileges')
    expect(listenFix('EADDRINUSE', { path: '/run/app.sock' })).to.include('remove the file once nothing serves on it')
    expect(listenFix('EWHATEVER', { port: 3000, host: '127.0.0.1' })).to.include('(PORT, HOST)')
  })

  it('startCluster() on a port in use: the primary logs the reason once, respawns no worker, and exits 1', async () => {
    const { port, holder } = await occupied()
    const fixture = join(__dirname, '..', 'fixtures', 'cluster-app.js')
    const primary = spawn(process.execPath, [fixture], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    primary.stdout?.on('data', (chunk: Buffer) => { output += chunk.toString() })
    primary.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString() })
    try {
      const code = await within(new Promise<number | null>((resolve) => primary.once('exit', (c) => resolve(c))), 45_000, 'the primary to exit')
      expect(code, output).to.equal(1)
      expect(output).to.include(`cannot listen, so no worker can; stopping instead of respawning: listen() in ClusterApp: cannot listen on port ${port} on host 127.0.0.1`)
      expect(output).to.not.include('respawning in')
    } finally {
      if (primary.exitCode === null && primary.signalCode === null) primary.kill('SIGKILL')
      holder.close()
    }
  })
})
