import { expect } from 'chai'
import routesStats from '@fastify/routes-stats'
import { bootError, server } from '../support/servers'

// @fastify/routes-stats' current major (3.x, the newest on npm) is a Fastify 4 plugin: fastify-plugin
// `fastify: '4.x'`, and it reads `reply.context.config`, which Fastify 5 removed. Fastify 5 refuses it
// at boot, and so does Enclave (it offers the Fastify 5 plugin API): a coded error naming the
// plugin, the range it wants and what Enclave offers, before any request (docs/plugins.md).
describe('@fastify/routes-stats in Enclave', () => {
  it('is refused at boot with ENC_ERR_PLUGIN_VERSION naming the plugin and its fastify 4.x range', async () => {
    const app = server()
    app.register(routesStats)
    app.get('/books', async () => [])
    const error = await bootError(app)
    expect(error.code).to.equal('ENC_ERR_PLUGIN_VERSION')
    expect(error.message).to.contain("plugin '@fastify/routes-stats'")
    expect(error.message).to.contain("expects Fastify '4.x'")
    expect(error.message).to.contain('Fastify 5.x plugin API')
  })
})
