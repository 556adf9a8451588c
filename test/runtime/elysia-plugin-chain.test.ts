// An Elysia team's habits, mapped as docs/migrating-from-elysia.md says (the types are in
// test/types/fixtures/elysia-plugin-chain.ts): a deriver reading its dependency's scope decoration
// through request.server, a controller's RequestWith<typeof role> reading role's dependencies'
// values, a named plugin registered twice (refused with the fix to drop a call), a macro as route
// config read by an onRoute hook, and hooks that cover a scope's routes whatever the order.
import 'reflect-metadata'
import { expect } from 'chai'
import { Get, HttpError, Module, Req, Requires, Route, createApp, derive, lift, type, type Request, type RequestWith } from '../../src'
import fp from 'fastify-plugin'
import { bootError, server } from './helpers'

interface Users { byToken(token: string): { id: string } | undefined }
const db = lift(async (scope) => {
  scope.decorate('users', { byToken: (token: string) => (token === 'tok-ann' ? { id: 'ann' } : undefined) })
}, { name: 'db', provides: { scope: { users: type<Users>() } } })
const auth = derive({
  user: (request) => {
    const user = request.server.users.byToken(String(request.headers.authorization))
    if (user === undefined) throw new HttpError(401, 'unknown token', { code: 'UNAUTHENTICATED' })
    return user
  },
}, { name: 'auth', dependencies: [db], stage: 'onRequest' })
const workspace = derive({ workspace: (request) => ({ id: (request.params as { workspaceId: string }).workspaceId }) }, { name: 'workspace' })
const role = derive({
  role: (request) => (request.workspace.id === 'acme' && request.user.id === 'ann' ? 'owner' : 'viewer'),
}, { name: 'role', dependencies: [auth, workspace] })

describe('Elysia migration: a typed plugin chain (docs/migrating-from-elysia.md)', () => {
  it("a deriver reads its dependency's scope decoration through request.server", async () => {
    const app = server()
    app.register(db).register(auth).get('/me', (request) => ({ id: request.user.id }))
    expect((await app.inject({ url: '/me', headers: { authorization: 'tok-ann' } })).json()).to.deep.equal({ id: 'ann' })
    const refused = await app.inject({ url: '/me', headers: { authorization: 'tok-x' } })
    expect(refused.statusCode).to.equal(401)
    expect(refused.json()).to.include({ code: 'UNAUTHENTICATED' })
  })

  it("a controller's RequestWith<typeof role> reads role's dependencies' values and request.server's decorations", async () => {
    @Requires(role)
    @Route('/ws/:workspaceId')
    class Overview {
      @Get('/') show(@Req() request: RequestWith<typeof role>) {
        return { role: request.role, user: request.user.id, workspace: request.workspace.id, known: request.server.users.byToken('tok-ann') !== undefined }
      }
    }
    @Module({ plugins: [db, auth, workspace, role], controllers: [Overview] })
    class Root {}
    const app = await createApp(Root, { logger: false })
    try {
      const answer = await app.inject({ url: '/ws/acme', headers: { authorization: 'tok-ann' } })
      expect(answer.json()).to.deep.equal({ role: 'owner', user: 'ann', workspace: 'acme', known: true })
    } finally { await app.close() }
  })

  it('refuses a named plugin registered twice in one scope, telling to register it once (not to rename)', async () => {
    const app = server()
    app.register(db).register(auth).register(auth)
    const error = await bootError(app)
    expect(error.code).to.equal('ENC_ERR_DEC_ALREADY_PRESENT')
    expect(error.message).to.include('The plugin auth is registered in this scope already: register it once')
    expect(error.message).to.include("hasPlugin('auth')")
    expect(error.message).not.to.include('Rename it')
  })

  it('names in its hasPlugin() hint the name hasPlugin() knows: fastify-plugin\'s name, not the function\'s; no hint for an unnamed plugin', async () => {
    const named = fp(async function authPlugin(scope) { scope.decorateRequest('who', null) }, { name: 'auth-by-fp' })
    const app = server()
    app.register(named).register(named)
    const error = await bootError(app)
    expect(error.code).to.equal('ENC_ERR_DEC_ALREADY_PRESENT')
    expect(error.message).to.include("hasPlugin('auth-by-fp')")
    expect(app.hasPlugin('auth-by-fp')).to.equal(true)
    expect(app.hasPlugin('authPlugin')).to.equal(false)
    const unnamed = async function bare(scope: { decorateRequest(name: string, value: unknown): unknown }) { scope.decorateRequest('who', null) }
    const other = server()
    other.register(fp(unnamed)).register(fp(unnamed))
    const refused = await bootError(other)
    expect(refused.code).to.equal('ENC_ERR_DEC_ALREADY_PRESENT')
    expect(refused.message).not.to.include('hasPlugin(')
    expect(refused.message).to.include('lists it in its dependencies')
  })

  it("plays Elysia's macro: a route's config read by a lifted plugin's onRoute hook, which adds the route's preHandler", async () => {
    const rbac = lift(async (scope) => {
      scope.addHook('onRoute', (route) => {
        const needed = (route.config as { role?: string } | undefined)?.role
        if (needed === undefined) return
        const own = route.preHandler === undefined ? [] : Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler]
        route.preHandler = [...own, async (request: Request) => {
          // The hook is added to routes of any scope below, so it reads role as the untyped record it may be.
          if ((request as unknown as { role?: string }).role !== needed) throw new HttpError(403, `needs ${needed}`, { code: 'FORBIDDEN' })
        }]
      })
    }, { name: 'rbac' })
    const app = server()
    app.register(db).register(rbac).register(async (api) => {
      const scoped = api.register(auth).register(workspace).register(role)
      scoped.get('/ws/:workspaceId/danger', { config: { role: 'owner' } }, (request) => ({ ok: request.role }))
      scoped.get('/ws/:workspaceId/open', (request) => ({ ok: request.role }))
    })
    const ann = { authorization: 'tok-ann' }
    expect((await app.inject({ url: '/ws/acme/danger', headers: ann })).json()).to.deep.equal({ ok: 'owner' })
    const refused = await app.inject({ url: '/ws/other/danger', headers: ann })
    expect(refused.statusCode).to.equal(403)
    expect(refused.json()).to.include({ code: 'FORBIDDEN', message: 'needs owner' })
    expect((await app.inject({ url: '/ws/other/open', headers: ann })).json()).to.deep.equal({ ok: 'viewer' })
  })

  it("gives a group's routes a shared schema from an onRoute hook (Elysia's guard({ schema }))", async () => {
    const app = server()
    app.register(async (v1) => {
      v1.addHook('onRoute', (route) => {
        route.schema = { ...route.schema, headers: { type: 'object', required: ['x-team'], properties: { 'x-team': { type: 'string', minLength: 2 } } } }
      })
      v1.get('/a', () => 'a')
      v1.get('/b', () => 'b')
    }, { prefix: '/v1' })
    app.get('/open', () => 'open')
    const missing = await app.inject('/v1/b')
    expect(missing.statusCode).to.equal(400)
    expect(missing.json<{ message: string }>().message).to.include('x-team')
    expect((await app.inject({ url: '/v1/a', headers: { 'x-team': 'ok' } })).body).to.equal('a')
    expect((await app.inject('/open')).body).to.equal('open')
  })

  it("runs a scope's hooks for its routes declared before the hook too (Elysia applies a hook only to the routes after it)", async () => {
    const app = server()
    app.get('/before', (request) => ({ seen: (request as unknown as { seen?: boolean }).seen === true }))
    app.addHook('onRequest', async (request) => { (request as unknown as { seen: boolean }).seen = true })
    expect((await app.inject('/before')).json()).to.deep.equal({ seen: true })
  })
})
