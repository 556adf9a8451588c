// What a Fastify 3 app moved onto createServer() meets: Fastify's callback forms of listen, close
// and inject work, and the Fastify server options Enclave does not offer are refused with what to
// write instead (migrant7: the callbacks never ran, and `https` read as a typo).
import { expect } from 'chai'
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { tmpdir } from 'node:os'
import { existsSync, statSync, unlinkSync } from 'node:fs'
import { get as httpGet } from 'node:http'
import { Writable } from 'node:stream'
import fp from 'fastify-plugin'
import { createServer, type ServerOptions } from '../../src'
import { bootError, server, thrown } from '../runtime/helpers'

type Callback = (error: Error | null, value?: unknown) => void
type CallbackForms = {
  listen(port: number, callback: Callback): unknown
  listen(port: number, host: string, callback: Callback): unknown
  close(callback: Callback): unknown
  inject(options: object, callback: Callback): unknown
}

describe('semantics: a Fastify app moving to createServer()', () => {
  describe("Fastify's callback forms of listen, close and inject", () => {
    it('inject(options, callback) calls back with the response (Fastify 3)', async () => {
      const app = createServer()
      app.get('/', async () => ({ ok: true }))
      const res = await new Promise<{ statusCode: number; body: string }>((resolve, reject) => {
        (app as unknown as CallbackForms).inject({ url: '/' }, (error, response) => { if (error !== null) reject(error); else resolve(response as never) })
      })
      expect(res.statusCode).to.equal(200)
      expect(JSON.parse(res.body)).to.deep.equal({ ok: true })
      await app.close()
    })

    it('listen(port, callback), listen(port, host, callback) and close(callback) call back with the address, then once closed (Fastify 3)', async () => {
      for (const form of ['port', 'port+host'] as const) {
        const app = createServer()
        app.get('/', async () => ({ ok: true }))
        const address = await new Promise<string>((resolve, reject) => {
          const done: Callback = (error, value) => { if (error !== null) reject(error); else resolve(value as string) }
          const returned = form === 'port' ? (app as unknown as CallbackForms).listen(0, done) : (app as unknown as CallbackForms).listen(0, '127.0.0.1', done)
          expect(returned, form).to.equal(undefined)
        })
        expect(address, form).to.match(/^http:\/\/127\.0\.0\.1:\d+$/)
        expect(app.server.listening, form).to.equal(true)
        await new Promise<void>((resolve, reject) => { (app as unknown as CallbackForms).close((error) => { if (error) reject(error); else resolve() }) })
        expect(app.server.listening, form).to.equal(false)
      }
    })

    it("listen(port, callback) on a taken port calls back with (error, null) instead of rejecting unheld (Fastify 3)", async () => {
      const first = createServer()
      const address = await first.listen(0, '127.0.0.1')
      const port = Number(new URL(address).port)
      const second = createServer()
      const [error, given] = await new Promise<[Error | null, unknown]>((resolve) => { (second as unknown as CallbackForms).listen(port, '127.0.0.1', (e, value) => { resolve([e, value]) }) })
      expect((error as Error & { code?: string }).code).to.equal('EADDRINUSE')
      expect(given).to.equal(null)
      await second.close()
      await first.close()
    })

    describe('listen() on a Unix domain socket (Fastify 3)', () => {
      const socketPath = (name: string) => join(tmpdir(), `enclave-p12b-${process.pid}-${name}.sock`)
      const remove = (path: string) => { try { unlinkSync(path) } catch { /* absent */ } }

      it("listen('/path.sock') serves there, resolves to the path, server.address() is the path and the log says 'Server listening at <path>'", async () => {
        const path = socketPath('string')
        remove(path)
        const lines: string[] = []
        const stream = new Writable({ write(chunk: Buffer, _encoding, done) { lines.push(String(chunk)); done() } })
        const app = createServer({ logger: { level: 'info', stream } })
        app.get('/', async () => ({ ok: true }))
        expect(await app.listen(path)).to.equal(path)
        expect(app.server.address()).to.equal(path)
        expect(app.addresses()).to.deep.equal([])
        expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).to.include(`Server listening at ${path}`)
        const body = await new Promise<string>((resolve, reject) => {
          httpGet({ socketPath: path, path: '/' }, (res) => { let text = ''; res.setEncoding('utf8'); res.on('data', (c: string) => { text += c }); res.on('end', () => resolve(text)) }).on('error', reject)
        })
        expect(JSON.parse(body)).to.deep.equal({ ok: true })
        await app.close()
        expect(existsSync(path)).to.equal(false)
      })

      it('listen({ path }) and the callback form listen(path, cb) listen on the socket as in Fastify 3', async () => {
        const path = socketPath('options')
        remove(path)
        const app = createServer()
        expect(await app.listen({ path })).to.equal(path)
        await app.close()
        const second = createServer()
        const address = await new Promise<string | undefined>((resolve, reject) => second.listen(path, (error, given) => error === null ? resolve(given) : reject(error)))
        expect(address).to.equal(path)
        await second.close()
      })

      it("Node's own listen options go to server.listen() as Fastify 3 hands them: readableAll and writableAll make the socket file every user's (a proxy running as another user connects); an aborted signal closes the listener", async () => {
        const path = socketPath('modes')
        remove(path)
        const app = createServer()
        await app.listen({ path, readableAll: true, writableAll: true })
        expect(statSync(path).mode & 0o066, 'group and others may read and write').to.equal(0o066)
        await app.close()
        const controller = new AbortController()
        const tcp = createServer()
        await tcp.listen({ port: 0, host: '127.0.0.1', backlog: 64, exclusive: true, signal: controller.signal })
        expect(tcp.server.listening).to.equal(true)
        controller.abort()
        for (let i = 0; i < 50 && tcp.server.listening; i++) await new Promise((resolve) => setTimeout(resolve, 10))
        expect(tcp.server.listening).to.equal(false)
        await tcp.close()
      })

      it('a socket file still in use fails listen() with EADDRINUSE, as in Fastify 3 (the file is not removed)', async () => {
        const path = socketPath('busy')
        remove(path)
        const first = createServer()
        await first.listen(path)
        const second = createServer()
        const error = await second.listen(path).then(() => null, (e: NodeJS.ErrnoException) => e)
        expect(error?.code).to.equal('EADDRINUSE')
        expect(second.server.listening).to.equal(false)
        await second.close()
        await first.close()
      })

      it('a string without a slash, or both port and path, is refused with ENC_ERR_SERVER_INVALID_PORT instead of a socket file named after a typo', async () => {
        const app = createServer()
        for (const given of ['undefined', 'app.sock']) {
          const error = await (app as unknown as { listen(port: unknown): Promise<string> }).listen(given).then(() => null, (e: Error & { code?: string }) => e)
          expect(error?.code, given).to.equal('ENC_ERR_SERVER_INVALID_PORT')
          expect(error?.message, given).to.contain("a socket path (one with a '/'")
        }
        const both = await app.listen({ port: 0, path: socketPath('both') }).then(() => null, (e: Error & { code?: string }) => e)
        expect(both?.code).to.equal('ENC_ERR_SERVER_INVALID_PORT')
        expect(both?.message).to.contain('give a port or a path, not both')
        const empty = await app.listen({ path: '' }).then(() => null, (e: Error & { code?: string }) => e)
        expect(empty?.message).to.contain('the path must be a non-empty string')
        expect(app.server.listening).to.equal(false)
        await app.close()
      })
    })

    it('listen(process.env.PORT): a string of digits is a port; a non-numeric one is refused with ENC_ERR_SERVER_INVALID_PORT instead of listening on a pipe', async () => {
      const app = createServer()
      app.get('/', async () => ({ ok: true }))
      const bad = await (app as unknown as { listen(port: unknown): Promise<string> }).listen('abc').then(() => null, (error: Error & { code?: string }) => error)
      expect(bad?.code).to.equal('ENC_ERR_SERVER_INVALID_PORT')
      expect(bad?.message).to.contain("listen() in root: 'abc' is not a port (an integer from 0 to 65535) nor a socket path (one with a '/'")
      expect(app.server.listening).to.equal(false)
      for (const port of [-1, 65536, 1.5, '']) {
        const error = await (app as unknown as { listen(port: unknown): Promise<string> }).listen(port).then(() => null, (e: Error & { code?: string }) => e)
        expect(error?.code, String(port)).to.equal('ENC_ERR_SERVER_INVALID_PORT')
      }
      const address = await (app as unknown as { listen(port: unknown): Promise<string> }).listen('0')
      expect(address).to.match(/^http:\/\/127\.0\.0\.1:\d+$/)
      await app.close()
    })

    it('a callback that throws surfaces as an uncaught exception, as in Fastify, and is not called again with its own error', () => {
      // In a child process: the throw must reach process 'uncaughtException', which mocha owns here.
      const entry = join(__dirname, '..', '..', 'src', 'runtime')
      const script = `
        const { createServer } = require(${JSON.stringify(entry)})
        const seen = []
        const forms = {
          listen: (app, cb) => app.listen(0, '127.0.0.1', cb),
          ready: (app, cb) => app.ready(cb),
          inject: (app, cb) => app.inject('/', cb),
          close: (app, cb) => app.ready().then(() => app.close(cb)),
        }
        const names = Object.keys(forms)
        process.on('unhandledRejection', (e) => { seen.push('unhandledRejection:' + e.message) })
        process.on('uncaughtException', (e) => { seen.push('uncaughtException:' + e.message); next() })
        let calls = {}
        function next() {
          const name = names.shift()
          if (name === undefined) { setTimeout(() => { console.log(JSON.stringify({ seen, calls })); process.exit(0) }, 50); return }
          const app = createServer({ logger: false })
          app.get('/', async () => 'hi')
          calls[name] = 0
          forms[name](app, (error) => { calls[name]++; if (error) seen.push('error:' + error.message); throw new Error(name) })
        }
        next()`
      const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 30_000 }))
      expect(out).to.deep.equal({
        seen: ['uncaughtException:listen', 'uncaughtException:ready', 'uncaughtException:inject', 'uncaughtException:close'],
        calls: { listen: 1, ready: 1, inject: 1, close: 1 },
      })
    })

    it('the promise forms are unchanged: inject(options) answers', async () => {
      const app = createServer()
      app.get('/', async () => ({ ok: true }))
      expect((await app.inject({ url: '/' })).json()).to.deep.equal({ ok: true })
      await app.close()
    })
  })

  it("an app's own fastify-plugin plugin with fastify: '3.x' is refused with how to fix its metadata, not only 'use another major'", async () => {
    const app = server()
    app.register(fp(async () => {}, { name: 'db', fastify: '3.x' }))
    const error = await bootError(app)
    expect(error.code).to.equal('ENC_ERR_PLUGIN_VERSION')
    expect(error.message).to.include("plugin 'db' registered in root expects Fastify '3.x'")
      .and.include("for one of your own moved from Fastify 3, write fastify: '5.x' in its fastify-plugin options or leave the key out")
  })

  describe('jsonShorthand (Fastify 3 server option)', () => {
    it('jsonShorthand: true is accepted as a no-op: a shorthand part is still expanded', async () => {
      const app = createServer({ jsonShorthand: true })
      app.post('/', { schema: { body: { n: { type: 'integer' } } } }, async (request) => request.body)
      expect((await app.inject({ method: 'POST', url: '/', payload: { n: 'x' } })).statusCode).to.equal(400)
      expect((await app.inject({ method: 'POST', url: '/', payload: { n: 2 } })).json()).to.deep.equal({ n: 2 })
      await app.close()
    })

    it('jsonShorthand: false reads every part as a complete schema, as Fastify 3.27.4: a body { required } without type or properties validates as written', async () => {
      const app = createServer({ jsonShorthand: false })
      app.post('/', { schema: { body: { required: ['n'] }, querystring: { type: 'object', properties: { q: { type: 'integer' } } }, response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } } } },
        async (request) => request.body)
      expect((await app.inject({ method: 'POST', url: '/', payload: { m: 1 } })).statusCode).to.equal(400)
      expect((await app.inject({ method: 'POST', url: '/?q=x', payload: { n: 1 } })).statusCode).to.equal(400)
      expect((await app.inject({ method: 'POST', url: '/?q=1', payload: { n: 1 } })).json()).to.deep.equal({ n: 1 })
      await app.close()
    })

    it('jsonShorthand: false refuses a part written in shorthand (no JSON Schema keyword, only property schemas) at boot with ENC_ERR_SCH_NOT_OBJECT: read as a schema it would accept anything', async () => {
      const app = createServer({ jsonShorthand: false })
      app.post('/', { schema: { body: { name: { type: 'string' }, age: { type: 'integer' } } } }, async () => ({}))
      const error = await app.ready().then(() => null, (e: Error & { code?: string }) => e)
      expect(error?.code).to.equal('ENC_ERR_SCH_NOT_OBJECT')
      expect(error?.message).to.contain('has no JSON Schema keyword, only name, age').and.contain("{ type: 'object', properties: { name, age } }")
      await app.close()
    })

    it('a non-boolean jsonShorthand is refused as Fastify 3 refuses it: must be a boolean', () => {
      const error = thrown(() => createServer({ jsonShorthand: 'hello' } as unknown as ServerOptions))
      expect(error.code).to.equal('ENC_ERR_SERVER_INVALID_OPTION')
      expect(error.message).to.contain('createServer({ jsonShorthand }): must be a boolean').and.contain('got string')
    })
  })

  describe('Fastify server options Enclave does not offer', () => {
    const cases: Array<[string, unknown, string]> = [
      ['useSemicolonDelimiter', false, "Fastify 5's default, false"],
      ['routerOptions', { ignoreTrailingSlash: true }, 'at the top level of createServer()'],
    ]
    for (const [option, value, instead] of cases) {
      it(`${option} is refused as a Fastify option Enclave does not offer, saying what to do instead (not as a typo)`, () => {
        const error = thrown(() => createServer({ [option]: value } as ServerOptions))
        expect(error.code).to.equal('ENC_ERR_SERVER_INVALID_OPTION')
        expect(error.message).to.contain(`createServer({ ${option} }): a Fastify option Enclave does not offer`).and.contain(instead)
        expect(error.message).not.to.contain('did you mean')
      })
    }

    it("logger.prettyPrint (Fastify 3's pino 6 option) is refused with ENC_ERR_SERVER_INVALID_OPTION naming pino-pretty, not pino's bare error", () => {
      const error = thrown(() => createServer({ logger: { prettyPrint: true } } as unknown as ServerOptions))
      expect(error.code).to.equal('ENC_ERR_SERVER_INVALID_OPTION')
      expect(error.message).to.contain('createServer({ logger: { prettyPrint } })').and.contain('pino-pretty')
    })

    it('an option named like an Object.prototype member is still an unknown option', () => {
      const error = thrown(() => createServer({ toString: 1 } as unknown as ServerOptions))
      expect(error.message).to.contain('createServer({ toString }): unknown option')
    })
  })
})
