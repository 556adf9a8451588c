// Fastify 3 publishes each new instance on the diagnostics channel 'fastify.initialization';
// APM agents subscribe there to hook every server as it is made.
import { expect } from 'chai'
import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { createServer, type Scope } from '../../src/runtime'

describe('diagnostics channel fastify.initialization', () => {
  it('createServer() publishes { fastify: rootScope } on fastify.initialization before it returns, so a subscriber can add hooks and routes first', async () => {
    const seen: Scope[] = []
    const onInit = (message: unknown): void => {
      const { fastify } = message as { fastify: Scope }
      seen.push(fastify)
      fastify.get('/from-subscriber', async () => ({ added: true }))
    }
    subscribe('fastify.initialization', onInit)
    let app: Scope
    try { app = createServer() } finally { unsubscribe('fastify.initialization', onInit) }
    expect(seen).to.deep.equal([app])
    expect((await app.inject({ url: '/from-subscriber' })).json()).to.deep.equal({ added: true })
    await app.close()
  })
})
