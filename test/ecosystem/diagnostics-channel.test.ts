import { expect } from 'chai'
import diagnosticsChannel from 'node:diagnostics_channel'
import { request as httpRequest } from 'node:http'
import fastifyDiagnosticsChannel from '@fastify/diagnostics-channel'
import fastify5 from 'fastify5'
import { server } from '../support/servers'
import { within } from '../support/raw-http'

// @fastify/diagnostics-channel 5 (its README): hooks that publish to node:diagnostics_channel's
// `fastify.onRoute`, `fastify.onRequest`, `fastify.onResponse`, `fastify.onError` (and
// `fastify.onTimeout`) channels, for APM agents that subscribe to them. The plugin is wrapped in
// fastify-plugin, so its hooks see the whole app.
type Message = Record<string, any>
function subscribe(names: string[]): { seen: Array<[string, Message]>; stop: () => void } {
  const seen: Array<[string, Message]> = []
  const listeners = names.map((name) => {
    const listener = (message: unknown) => { seen.push([name, message as Message]) }
    diagnosticsChannel.subscribe(name, listener)
    return [name, listener] as const
  })
  return { seen, stop: () => { for (const [name, listener] of listeners) diagnosticsChannel.unsubscribe(name, listener) } }
}

describe('@fastify/diagnostics-channel in Enclave', () => {
  it('publishes every route declared after it on fastify.onRoute with its method, url and prefix', async () => {
    const channels = subscribe(['fastify.onRoute'])
    try {
      const app = server()
      await app.register(fastifyDiagnosticsChannel)
      app.get('/books', async () => [])
      app.register(async (scope) => { scope.post('/items', async () => ({})) }, { prefix: '/v1' })
      await app.ready()
      const routes = channels.seen.map(([, options]) => `${options.method} ${options.url} ${options.prefix ?? ''}`)
      expect(routes).to.include('GET /books ')
      expect(routes).to.include('POST /v1/items /v1')
    } finally { channels.stop() }
  })

  it('publishes each request on fastify.onRequest and fastify.onResponse, and a thrown error on fastify.onError, with the request, reply and error', async () => {
    const channels = subscribe(['fastify.onRequest', 'fastify.onResponse', 'fastify.onError'])
    try {
      const app = server()
      await app.register(fastifyDiagnosticsChannel)
      app.get('/books/:id', async (request) => ({ id: (request.params as { id: string }).id }))
      app.get('/fails', async () => { throw Object.assign(new Error('shelf collapsed'), { statusCode: 409 }) })
      await app.ready()
      await app.inject({ method: 'GET', url: '/books/7' })
      await app.inject({ method: 'GET', url: '/fails' })
      const names = channels.seen.map(([name]) => name)
      expect(names).to.deep.equal(['fastify.onRequest', 'fastify.onResponse', 'fastify.onRequest', 'fastify.onError', 'fastify.onResponse'])
      const [, first] = channels.seen[0]
      expect(first.request.url).to.equal('/books/7')
      expect(first.request.params).to.deep.equal({ id: '7' })
      const [, answered] = channels.seen[1]
      expect(answered.reply.statusCode).to.equal(200)
      expect(answered.request).to.equal(first.request)
      const [, failed] = channels.seen[3]
      expect(failed.error.message).to.equal('shelf collapsed')
      expect(failed.reply.statusCode).to.equal(409)
      expect(channels.seen[4][1].reply.statusCode).to.equal(409)
    } finally { channels.stop() }
  })

  it('publishes a request still in flight when its socket times out (connectionTimeout) on fastify.onTimeout, with the request, reply and connectionTimeout, as on Fastify 5', async () => {
    /** The timed-out GET's outcome on one framework: the channel's message, as plain data, and the client's error. */
    const timedOut = async (app: any): Promise<unknown> => {
      const channels = subscribe(['fastify.onTimeout'])
      let release = (): void => {}
      const held = new Promise<void>((resolve) => { release = resolve })
      try {
        await app.register(fastifyDiagnosticsChannel)
        app.get('/slow/:id', async () => { await held; return 'late' })
        const address = await app.listen({ port: 0, host: '127.0.0.1' })
        const url = typeof address === 'string' ? address : `http://127.0.0.1:${app.server.address().port}`
        const outcome = await within(new Promise<string>((resolve) => {
          const req = httpRequest(`${url}/slow/7`, { agent: false }, (res) => { res.resume(); resolve(String(res.statusCode)) })
          req.on('error', (error) => resolve(error.message))
          req.end()
        }), 5000, 'the timed-out request')
        // The hooks run on the socket's timeout, before the client sees it closed; bounded wait anyway.
        for (let i = 0; i < 100 && channels.seen.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10))
        return {
          outcome,
          published: channels.seen.map(([name, message]) => ({
            name, url: message.request.url, params: message.request.params, connectionTimeout: message.connectionTimeout, replySent: message.reply.sent,
          })),
        }
      } finally { release(); channels.stop(); await app.close() }
    }
    const ours = await timedOut(server({ connectionTimeout: 100, handlerTimeout: 0 } as never))
    const theirs = await timedOut(fastify5({ connectionTimeout: 100 }))
    expect(ours).to.deep.equal({ outcome: 'socket hang up', published: [{ name: 'fastify.onTimeout', url: '/slow/7', params: { id: '7' }, connectionTimeout: 100, replySent: false }] })
    expect(ours).to.deep.equal(theirs)
  })
})
