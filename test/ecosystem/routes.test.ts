import { expect } from 'chai'
import request from 'supertest'
import routes from '@fastify/routes'
import { modes, topology } from './helpers'

// @fastify/routes README: `fastify.routes` is a Map from each url to the route options of the
// routes declared after the plugin loaded (an onRoute hook), in the registering context and below.
describe('@fastify/routes in Enclave', () => {
  for (const mode of modes) {
    describe(`registered in a ${mode}`, () => {
      it('maps the urls of the registering context and its descendants to their route options', async () => {
        let seen: Map<string, Array<{ method: string | string[], url: string }>> | undefined
        const app = await topology(mode, {
          plugin: routes,
          probe: async (req) => {
            seen = (req.server as unknown as { routes: typeof seen }).routes
            return { ok: true }
          },
        })
        await request(app.server).get('/inside/probe').expect(200, { ok: true })
        expect(seen).to.be.instanceOf(Map)
        const urls = [...seen!.keys()]
        expect(urls).to.include.members(['/inside/probe', '/inside/child/probe'])
        expect(urls).to.not.include('/root-probe')
        expect(urls).to.not.include('/outside/probe')
        const methods = seen!.get('/inside/probe')!.map((r) => r.method)
        expect(methods).to.include.members(['GET', 'POST'])
        // Invisible outside the registering context (fastify-plugin: in the context, not its parent).
        expect((app as unknown as { routes?: unknown }).routes).to.equal(undefined)
      })
    })
  }
})
