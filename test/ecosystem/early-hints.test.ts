import { expect } from 'chai'
import http from 'node:http'
import earlyHints from '@fastify/early-hints'
import { createServer, type Scope } from '../../src/runtime'
import { track } from '../support/servers'
import { modes, topology } from './helpers'

/** A GET over a real socket, collecting the 1xx informational responses before the final one. */
function getWithHints(app: Scope, path: string): Promise<{ status: number, hints: Array<{ status: number, headers: Record<string, unknown> }>, body: string }> {
  const { port } = app.server.address() as { port: number }
  return new Promise((resolve, reject) => {
    const hints: Array<{ status: number, headers: Record<string, unknown> }> = []
    const req = http.get({ host: '127.0.0.1', port, path }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => { body += chunk })
      res.on('end', () => resolve({ status: res.statusCode!, hints, body }))
    })
    req.on('information', (info) => hints.push({ status: info.statusCode, headers: info.headers }))
    req.on('error', reject)
  })
}

// @fastify/early-hints 1.0.1 (its only release) declares `fastify: '4.x'`: Fastify 5 refuses it
// (FST_ERR_PLUGIN_VERSION_MISMATCH) because Fastify 5 has `reply.writeEarlyHints()` built in.
// Enclave does the same: the plugin is refused at boot, and the built-in reply member is offered.
describe('@fastify/early-hints in Enclave', () => {
  it('is refused at boot with ENC_ERR_PLUGIN_VERSION, as Fastify 5 refuses it (fastify: 4.x)', async () => {
    const app = createServer()
    track(app)
    app.register(earlyHints)
    const error = await app.ready().then(() => null, (e: Error & { code?: string }) => e)
    expect(error?.code).to.equal('ENC_ERR_PLUGIN_VERSION')
    expect(error?.message).to.include("'@fastify/early-hints'").and.include("'4.x'")
  })

  for (const mode of modes) {
    it(`Fastify 5's reply.writeEarlyHints() sends a 103 before the reply, in any context (${mode})`, async () => {
      const app = await topology(mode, {
        plugin: async () => {},
        probe: async (_req, reply) => {
          await new Promise<void>((resolve) => reply.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' }, resolve))
          return { ok: true }
        },
      })
      await app.listen({ port: 0, host: '127.0.0.1' })
      const res = await getWithHints(app, '/inside/child/probe')
      expect(res.status).to.equal(200)
      expect(JSON.parse(res.body)).to.deep.equal({ ok: true })
      expect(res.hints).to.have.length(1)
      expect(res.hints[0].status).to.equal(103)
      expect(res.hints[0].headers.link).to.equal('</style.css>; rel=preload; as=style')
    })
  }
})
