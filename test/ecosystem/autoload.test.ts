import { expect } from 'chai'
import request from 'supertest'
import autoload from '@fastify/autoload'
import { join } from 'node:path'
import { createServer, lift, type Request, type Scope } from '../../src/runtime'
import { affected, fixture, modes, topology, unaffected } from './helpers'

/**
 * The README's layout: `plugins/` (shared, fastify-plugin) then `routes/` (encapsulated, prefixes
 * from folder names), both autoloaded into the registering context.
 */
function app(routesOptions: Record<string, unknown> = {}) {
  return lift(async (scope: Scope) => {
    await scope.register(autoload, { dir: fixture('autoload', 'plugins'), options: { greeting: 'hi' } })
    await scope.register(autoload, { dir: fixture('autoload', 'routes'), options: { tag: 'global' }, ...routesOptions })
  })
}

const probe = async (req: Request) => ({ greeting: (req.server as { greeting?: string }).greeting ?? null })

// @fastify/autoload README: every file of `dir` (.js required, .mjs imported) is registered as a
// plugin (a route object is wrapped in one); a folder's name is the prefix of its files (`autoPrefix` replaces it; with
// `routeParams`, `_id` is `:id`); `options` go to every plugin, over each file's `autoConfig`
// (an object, or a function of the instance with `prefix` on it); `autoload = false` skips a file;
// with `autoHooks`, a folder's autohooks.js applies to that folder's plugins only.
describe('@fastify/autoload in Enclave', () => {
  for (const mode of modes) {
    describe(`registered in a ${mode}`, () => {
      it('loads plugins/ into the registering context: its decorator is seen there and below, not elsewhere', async () => {
        const a = await topology(mode, { plugin: app(), probe })
        for (const path of affected) await request(a.server).get(path).expect(200, { greeting: 'hi' })
        for (const path of unaffected) await request(a.server).get(path).expect(200, { greeting: null })
      })

      it('loads routes/ under the registering context, with prefixes from folder names and autoPrefix', async () => {
        const a = await topology(mode, { plugin: app(), probe })
        await request(a.server).get('/inside/hello').expect(200, { greeting: 'hi', tag: 'global' })
        await request(a.server).get('/inside/users/').expect(200, { users: ['ada', 'alan'] })
        await request(a.server).get('/inside/users/ada').expect(200, { user: 'ada' })
        await request(a.server).get('/inside/things/list').expect(200, { items: [1, 2] })
        await request(a.server).get('/inside/items/list').expect(404)
        await request(a.server).get('/inside/health').expect(200, { healthy: true })
        await request(a.server).get('/inside/esm/module').expect(200, { esm: true, tag: 'global' })
        await request(a.server).get('/inside/skipped').expect(404)
        // Without routeParams the _id folder is a literal path segment.
        await request(a.server).get('/inside/users/_id/details').expect(200, { details: null })
        for (const path of ['/hello', '/outside/hello', '/inside/child/hello', '/users/ada']) {
          await request(a.server).get(path).expect(404)
        }
      })

      it('passes autoConfig (a function of the instance, prefix on the function) with options over it', async () => {
        const a = await topology(mode, { plugin: app(), probe })
        await request(a.server).get('/inside/configured/opts').expect(200, { from: 'autoConfig', tag: 'global', sawGreeting: 'hi' })
      })

      it('with routeParams, turns a _id folder into the :id parameter', async () => {
        const a = await topology(mode, { plugin: app({ routeParams: true }), probe })
        await request(a.server).get('/inside/users/7/details').expect(200, { details: '7' })
      })

      it('with autoHooks, applies a folder\'s autohooks.js to that folder\'s routes only', async () => {
        const a = await topology(mode, { plugin: app({ autoHooks: true }), probe })
        const refused = await request(a.server).get('/inside/admin/panel').expect(401)
        expect(refused.body).to.include({ statusCode: 401, message: 'admin key required' })
        await request(a.server).get('/inside/admin/panel').set('x-admin-key', 'open-sesame').expect(200, { panel: true })
        await request(a.server).get('/inside/hello').expect(200, { greeting: 'hi', tag: 'global' })
        await request(a.server).get('/inside/users/ada').expect(200, { user: 'ada' })
      })

      it('with autoHooks, a subfolder is outside its parent folder\'s hooks unless cascadeHooks', async () => {
        const plain = await topology(mode, { plugin: app({ autoHooks: true }), probe })
        await request(plain.server).get('/inside/admin/reports/summary').expect(200, { summary: true })
        const cascading = await topology(mode, { plugin: app({ autoHooks: true, cascadeHooks: true }), probe })
        await request(cascading.server).get('/inside/admin/reports/summary').expect(401)
        await request(cascading.server).get('/inside/admin/reports/summary').set('x-admin-key', 'open-sesame').expect(200, { summary: true })
        await request(cascading.server).get('/inside/hello').expect(200, { greeting: 'hi', tag: 'global' })
      })

      it('with encapsulate: false, shares the decorators of plain (unwrapped) plugins with the registering context', async () => {
        const shared = lift(async (scope: Scope) => {
          await scope.register(autoload, { dir: fixture('autoload', 'shared'), encapsulate: false })
        })
        const plainProbe = async (req: Request) => ({ plain: (req.server as { plain?: string }).plain ?? null })
        const open = await topology(mode, { plugin: shared, probe: plainProbe })
        for (const path of affected) await request(open.server).get(path).expect(200, { plain: 'shared' })
        for (const path of unaffected) await request(open.server).get(path).expect(200, { plain: null })
        // (No encapsulate: true counterpart here: autoload marks the required function itself, and
        // the require cache keeps that mark for every later load of the file in this process.)
      })

      it('without autoHooks, loads autohooks.js as a plugin of its own folder (its hook stays in its own context)', async () => {
        const a = await topology(mode, { plugin: app(), probe })
        await request(a.server).get('/inside/admin/panel').expect(200, { panel: true })
      })
    })
  }

  // autoload orders a folder's plugins by fastify-plugin's plugin-meta (name, dependencies), which
  // lift(plugin, meta) now carries too: auth.ts sorts before config.ts, which it depends on.
  it('loads lift()ed plugins of a plugins/ folder in their dependencies\' order, as fp() ones', async () => {
    const app = createServer()
    await app.register(autoload, { dir: join(__dirname, 'fixtures', 'autoload-lifted') })
    app.get('/secret', async (req) => ({ length: (req.server as unknown as { authSecretLength: number }).authSecretLength }))
    await app.ready()
    await request(app.server).get('/secret').expect(200, { length: 16 })
    await app.close()
  })

  // lift(fp(plugin, meta)): the wrapper's plugin-meta is the fp() meta merged with lift()'s, as
  // Enclave's boot reads it; audit.ts and auth.ts sort before config.ts, which both depend on.
  it('loads lift()ed fp() plugins of a plugins/ folder after the dependencies their fp() meta names', async () => {
    const app = createServer()
    await app.register(autoload, { dir: join(__dirname, 'fixtures', 'autoload-lifted-fp') })
    app.get('/secret', async (req) => {
      const server = req.server as unknown as { authSecretLength: number; auditSecretLength: number }
      return { auth: server.authSecretLength, audit: server.auditSecretLength }
    })
    await app.ready()
    await request(app.server).get('/secret').expect(200, { auth: 16, audit: 16 })
    await app.close()
  })
})
