// Every options object Enclave owns checks its keys the same way (src/runtime/schemas/unknown-options.ts):
// a misspelt option fails with its coded error, naming the key and the closest known one, instead
// of silently leaving the default in place (`listen({ prot: 3000 })` listened on a random port,
// `openapiRoute({ pth })` served /openapi.json, `startCluster({ worker: 2 })` one per core).
import 'reflect-metadata'
import { expect } from 'chai'
import {
  bearerAuth, createApp, createClient, createServer, defineContract, Get, health, HttpError, Module, openapiRoute, Route,
} from '../../src'
import { resolveClusterOptions } from '../../src/cluster/cluster-options'
import { unknownOptions } from '../../src/runtime/internal'

type Case = [what: string, act: () => unknown, code: string, hint: string]

@Route() class PingController { @Get('/ping') ping() { return { ok: true } } }
@Module({ controllers: [PingController] }) class PingModule {}

async function refusal(act: () => unknown): Promise<Error & { code?: string }> {
  try { await act() } catch (error) { return error as Error & { code?: string } }
  throw new Error('accepted')
}

// A misspelt key is a type error too (excess property): this is the JavaScript user's, or a variable's, path.
const anyOptions = (value: object): never => value as never

const cases: Case[] = [
  ['createServer() options', () => createServer(anyOptions({ bodyLimt: 10 })), 'ENC_ERR_SERVER_INVALID_OPTION', "'bodyLimit'"],
  ['createApp() options: its own', () => createApp(PingModule, anyOptions({ overides: [] })), 'ENC_ERR_MODULE_APP_OPTIONS', "'overrides'"],
  ['createApp() options: a server option', () => createApp(PingModule, anyOptions({ loger: true })), 'ENC_ERR_MODULE_APP_OPTIONS', "'logger'"],
  ['createApp({ closeOnSignals }) options', () => createApp(PingModule, { closeOnSignals: anyOptions({ shutdownDelai: 5 }) }), 'ENC_ERR_MODULE_SIGNAL_OPTIONS', "'shutdownDelay'"],
  ['createApp({ health }) options', () => createApp(PingModule, { health: anyOptions({ readinesPath: '/ready' }) }), 'ENC_ERR_HEALTH_INVALID_OPTIONS', "'readinessPath'"],
  ['@Module() options', () => { @Module(anyOptions({ controller: [PingController] })) class Typo {} return Typo }, 'ENC_ERR_DECL_MODULE_OPTIONS', "'controllers'"],
  ['route options', async () => { const app = createServer(); app.get('/', anyOptions({ schma: {} }), async () => 'x'); await app.ready() }, 'ENC_ERR_ROUTE_INVALID', "'schema'"],
  ['listen() options', async () => { const app = createServer(); try { await app.listen(anyOptions({ prot: 3000 })) } finally { await app.close() } }, 'ENC_ERR_SERVER_LISTEN_OPTIONS', "'port'"],
  // A misspelt host is reported as an unknown option, not as a bad port (session 25 named it ENC_ERR_SERVER_INVALID_PORT).
  ['listen() options: a misspelt host', async () => { const app = createServer(); try { await app.listen(anyOptions({ port: 0, hots: '0.0.0.0' })) } finally { await app.close() } }, 'ENC_ERR_SERVER_LISTEN_OPTIONS', "'host'"],
  ['openapiRoute() options', () => openapiRoute(anyOptions({ pth: '/spec.json' })), 'ENC_ERR_OPENAPI_INVALID_OPTIONS', "'path'"],
  ['scope.openapi() options', async () => { const app = createServer(); await app.ready(); app.openapi({ title: 't', version: '1' }, anyOptions({ route: 'scope' })) }, 'ENC_ERR_INSPECT_INVALID_OPTIONS', "'routes'"],
  ['health() options', () => health(anyOptions({ checkTimout: 10 })), 'ENC_ERR_HEALTH_INVALID_OPTIONS', "'checkTimeout'"],
  ['bearerAuth() options', () => bearerAuth(anyOptions({ keys: ['k'], realm: 'x', key: ['k'] })), 'ENC_ERR_AUTH_INVALID_OPTIONS', "'keys'"],
  // startCluster() reads its options through resolveClusterOptions() before anything else; called
  // here directly, so a broken check cannot make this mocha process a cluster primary forking copies.
  ['startCluster() options', () => resolveClusterOptions(anyOptions({ worker: 2 })), 'ENC_ERR_CLUSTER_INVALID_OPTION', "'workers'"],
  ['createClient() options', () => createClient(defineContract({ ping: { method: 'GET', url: '/ping' } }), anyOptions({ baseURL: 'http://127.0.0.1:1' })), 'ENC_ERR_CLIENT_OPTIONS', "'baseUrl'"],
  ['new HttpError() options', () => new HttpError(401, 'Who are you?', anyOptions({ header: { 'www-authenticate': 'Bearer' } })), 'ENC_ERR_REPLY_INVALID_HTTP_ERROR', "'headers'"],
  ['printRoutes() options', async () => { const app = createServer(); await app.ready(); app.printRoutes(anyOptions({ commonPrefx: false })) }, 'ENC_ERR_INSPECT_INVALID_OPTIONS', "'commonPrefix'"],
]

describe('dx: a misspelt option of any options object Enclave owns fails with "did you mean"', function () {
  this.timeout(20_000)

  for (const [what, act, code, hint] of cases) {
    it(`${what}: ${code} naming the misspelt key and ${hint}`, async () => {
      const error = await refusal(act)
      expect(error.code, error.message).to.equal(code)
      expect(error.message).to.include(`(did you mean ${hint}?)`)
    })
  }

  it('one shared check: every unknown key named, each with its closest known key, none when nothing is close', () => {
    expect(unknownOptions({ port: 1 }, ['port', 'host'])).to.equal(null)
    expect(unknownOptions({ prot: 1, hots: 'x' }, ['port', 'host'])).to.equal("unknown options 'prot' (did you mean 'port'?), 'hots' (did you mean 'host'?)")
    expect(unknownOptions({ banana: 1 }, ['port', 'host'])).to.equal("unknown option 'banana'")
  })

  it('createApp() leaves a Fastify option Enclave does not offer to createServer(), which says what to do instead', async () => {
    const error = await refusal(() => createApp(PingModule, anyOptions({ routerOptions: {} })))
    expect(error.code).to.equal('ENC_ERR_SERVER_INVALID_OPTION')
    expect(error.message).to.include('a Fastify option Enclave does not offer')
  })

  it("listen() still takes Node's listen options that Fastify 3 passes through (backlog, exclusive, ipv6Only ...)", async () => {
    const app = createServer()
    try {
      const options = { port: 0, host: '127.0.0.1', backlog: 511, exclusive: false, readableAll: false, writableAll: false, ipv6Only: false }
      expect(await app.listen(anyOptions(options))).to.match(/^http:\/\/127\.0\.0\.1:\d+$/)
    } finally {
      await app.close()
    }
  })
})
