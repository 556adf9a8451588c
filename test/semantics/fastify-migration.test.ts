// What a Fastify 3 app moved onto createServer() meets at declaration: Fastify's callback forms
// and the Fastify server options Enclave does not offer are refused with what to write instead
// (migrant7: the callbacks never ran, and `https` read as a typo).
import { expect } from 'chai'
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
    it('inject(options, callback) is refused with ENC_ERR_SERVER_UNSUPPORTED_FORM, naming the promise form', () => {
      const app = createServer()
      app.get('/', async () => ({ ok: true }))
      let called = false
      const error = thrown(() => (app as unknown as CallbackForms).inject({ url: '/' }, () => { called = true }))
      expect(error.code).to.equal('ENC_ERR_SERVER_UNSUPPORTED_FORM')
      expect(error.message).to.contain('inject(options, callback) in root').and.contain('await app.inject(options)')
      expect(called).to.equal(false)
    })

    it('listen(port, callback) and listen(port, host, callback) are refused before the server listens', () => {
      const app = createServer()
      for (const call of [() => (app as unknown as CallbackForms).listen(0, () => undefined), () => (app as unknown as CallbackForms).listen(0, '127.0.0.1', () => undefined)]) {
        const error = thrown(call)
        expect(error.code).to.equal('ENC_ERR_SERVER_UNSUPPORTED_FORM')
        expect(error.message).to.contain('listen(..., callback)').and.contain('await app.listen({ port, host })')
      }
      expect(app.server.listening).to.equal(false)
    })

    it('close(callback) is refused; close() without one still closes', async () => {
      const app = createServer()
      const error = thrown(() => (app as unknown as CallbackForms).close(() => undefined))
      expect(error.code).to.equal('ENC_ERR_SERVER_UNSUPPORTED_FORM')
      expect(error.message).to.contain('await app.close()')
      await app.close()
    })

    it('inject() without options (light-my-request\'s chain) is refused at the call instead of crashing the process later', () => {
      const app = createServer()
      const error = thrown(() => (app as unknown as { inject(): unknown }).inject())
      expect(error.code).to.equal('ENC_ERR_SERVER_UNSUPPORTED_FORM')
      expect(error.message).to.contain('inject() in root: the chain form').and.contain("await app.inject({ method: 'GET', url })")
    })

    it('listen(process.env.PORT): a string of digits is a port; a non-numeric one is refused with ENC_ERR_SERVER_INVALID_PORT instead of listening on a pipe', async () => {
      const app = createServer()
      app.get('/', async () => ({ ok: true }))
      const bad = await (app as unknown as { listen(port: unknown): Promise<string> }).listen('abc').then(() => null, (error: Error & { code?: string }) => error)
      expect(bad?.code).to.equal('ENC_ERR_SERVER_INVALID_PORT')
      expect(bad?.message).to.contain("listen() in root: the port 'abc' is not an integer from 0 to 65535")
      expect(app.server.listening).to.equal(false)
      for (const port of [-1, 65536, 1.5, '']) {
        const error = await (app as unknown as { listen(port: unknown): Promise<string> }).listen(port).then(() => null, (e: Error & { code?: string }) => e)
        expect(error?.code, String(port)).to.equal('ENC_ERR_SERVER_INVALID_PORT')
      }
      const address = await (app as unknown as { listen(port: unknown): Promise<string> }).listen('0')
      expect(address).to.match(/^http:\/\/127\.0\.0\.1:\d+$/)
      await app.close()
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

  describe('Fastify server options Enclave does not offer', () => {
    const cases: Array<[string, unknown, string]> = [
      ['https', { key: 'k', cert: 'c' }, 'terminate TLS in a proxy'],
      ['http2', true, 'HTTP/1.1'],
      ['serverFactory', () => undefined, 'scope.routing(req, res)'],
      ['jsonShorthand', true, 'always accepts the shorthand'],
      ['versioning', {}, 'constraints: { version }'],
      ['constraints', {}, '{ version, host }'],
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
