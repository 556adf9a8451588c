import { expect } from 'chai'
import { createServer as createHttpServer, get, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer, get as httpsGet } from 'node:https'
import { createServer, type ServerOptions } from '../../src'
import { recordingLogger, server, thrown } from '../support/servers'
import { tlsCert, tlsKey } from '../support/tls'

function fetchBody(url: string, secure = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const done = (res: IncomingMessage): void => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => { body += chunk })
      res.on('end', () => resolve(body))
    }
    ;(secure ? httpsGet(url, { ca: tlsCert, agent: false }, done) : get(url, { agent: false }, done)).on('error', reject)
  })
}

describe('transport: serverFactory (Fastify 3 option)', () => {
  it('serverFactory(handler, options) makes the server: its requests go through the routes, and scope.server is that server', async () => {
    let made: Server | null = null
    let seen: ServerOptions | null = null
    const app = server({
      bodyLimit: 2048,
      serverFactory: (handler, options) => {
        seen = options
        made = createHttpServer((req: IncomingMessage, res: ServerResponse) => { res.setHeader('x-own-server', 'yes'); handler(req, res) })
        return made
      },
    })
    app.get('/', async () => ({ ok: true }))
    const url = await app.listen(0)
    expect(app.server).to.equal(made)
    expect(seen).to.include({ bodyLimit: 2048 })
    expect(await fetchBody(`${url}/`)).to.equal('{"ok":true}')
    await app.close()
    expect((made as unknown as Server).listening).to.equal(false)
  })

  it("a factory's https server is served over TLS and the listen line says https://", async () => {
    const log = recordingLogger()
    const app = server({ logger: log, serverFactory: (handler) => createHttpsServer({ key: tlsKey, cert: tlsCert }, handler) as unknown as Server })
    app.get('/', async (request) => request.protocol)
    const url = await app.listen(0)
    expect(url).to.match(/^https:\/\//)
    expect(await fetchBody(`${url}/`, true)).to.equal('https')
  })

  it('a factory that returns no server fails createServer() with ENC_ERR_SERVER_INVALID_OPTION', () => {
    const error = thrown(() => createServer({ serverFactory: (() => undefined) as unknown as ServerOptions['serverFactory'] }))
    expect(error.code).to.equal('ENC_ERR_SERVER_INVALID_OPTION')
    expect(error.message).to.contain('createServer({ serverFactory }): the factory must return a server')
  })

  it('serverFactory with https, http2 or a server-level timeout is refused: those belong to the server the factory makes', () => {
    const factory = (handler: (req: IncomingMessage, res: ServerResponse) => void): Server => createHttpServer(handler)
    const withHttps = thrown(() => createServer({ serverFactory: factory, https: { key: tlsKey, cert: tlsCert } }))
    expect(withHttps.code).to.equal('ENC_ERR_SERVER_INVALID_OPTION')
    expect(withHttps.message).to.contain('createServer({ serverFactory, https })')
    expect(thrown(() => createServer({ serverFactory: factory, http2: true })).message).to.contain('createServer({ serverFactory, http2 })')
    const withTimeout = thrown(() => createServer({ serverFactory: factory, keepAliveTimeout: 1000 }))
    expect(withTimeout.message).to.contain('createServer({ serverFactory, keepAliveTimeout })').and.contain('server.keepAliveTimeout')
  })
})

describe('transport: https/http2 option shapes', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['https that is not an object', { https: true }, 'createServer({ https }): must be an object of TLS options'],
    ['https with a key node:tls cannot read', { https: { key: 'not a key', cert: 'not a cert' } }, 'createServer({ https }): node:tls refused the TLS options'],
    ['http2 that is not a boolean', { http2: 'yes' }, 'createServer({ http2 }): must be true or false'],
    ['http2SessionTimeout without http2', { http2SessionTimeout: 1000 }, 'applies to HTTP/2 sessions only'],
    ['a negative http2SessionTimeout', { http2: true, http2SessionTimeout: -1 }, 'createServer({ http2SessionTimeout }): must be a whole number'],
    ['a serverFactory that is not a function', { serverFactory: {} }, 'createServer({ serverFactory }): must be a function'],
  ]
  for (const [what, options, message] of cases) {
    it(`${what} fails createServer() with ENC_ERR_SERVER_INVALID_OPTION`, () => {
      const error = thrown(() => createServer(options as ServerOptions))
      expect(error.code).to.equal('ENC_ERR_SERVER_INVALID_OPTION')
      expect(error.message).to.contain(message)
    })
  }
})
