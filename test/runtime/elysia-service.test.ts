// An Elysia user's typed service, run: the app of test/types/fixtures/elysia-service.ts (whose
// types are checked there) behaves as its types say. `.decorate` is a typed plugin's
// provides.scope, `.derive` a hook in a typed plugin, `.group` an encapsulated plugin with a prefix,
// `.guard` a hook in it, and a plugin that `.use()`s another lists it in `dependencies: [db]`.
import { expect } from 'chai'
import fp from 'fastify-plugin'
import { HttpError, createServer, lift, type } from '../../src'
import { bootError, server, thrown } from './helpers'
import { track } from '../support/servers'

interface User { id: string; role: 'admin' | 'member' }
interface Notes { list(owner: string): string[]; add(owner: string, text: string): void }

const db = lift(async (scope) => {
  const rows = new Map<string, string[]>()
  scope.decorate('notes', { list: (owner: string) => rows.get(owner) ?? [], add: (owner: string, text: string) => { rows.set(owner, [...rows.get(owner) ?? [], text]) } })
}, { name: 'db', provides: { scope: { notes: type<Notes>() } } })

const auth = lift(async (scope) => {
  scope.decorateRequest('user', null)
  scope.addHook('onRequest', async (request) => {
    const token = request.headers.authorization
    if (token === undefined) throw new HttpError(401, 'no token')
    request.user = { id: token, role: token === 'root' ? 'admin' : 'member' }
  })
}, { name: 'auth', provides: { request: { user: type<User>() } } })

const count = lift(async (scope) => {
  scope.decorateRequest('noteCount', 0)
  scope.addHook('preHandler', async (request) => { request.noteCount = scope.notes.list(request.user.id).length })
}, { name: 'count', dependencies: [db, auth], provides: { request: { noteCount: type<number>() } } })

const body = { type: 'object', required: ['text'], properties: { text: { type: 'string', minLength: 1 } }, additionalProperties: false } as const

function service() {
  const app = track(createServer()).register(db)
  app.get('/health', function () { return { notes: this.notes.list('root').length } })
    .register(async (v1) => {
      v1.register(auth).register(count)
        .get('/me', (request) => ({ id: request.user.id, notes: request.noteCount }))
        .post('/notes', { schema: { body } }, function (request, reply) {
          this.notes.add(request.user.id, request.body.text)
          return reply.code(201).send({ count: request.noteCount + 1 })
        })
        .register(async (admin) => {
          admin.addHook('preHandler', async (request) => { if (request.user.role !== 'admin') throw new HttpError(403, 'admins only') })
          admin.get('/notes/:owner', function (request) {
            const { owner } = request.params as { owner: string }
            return { by: request.user.id, notes: this.notes.list(owner) }
          })
        }, { prefix: '/admin' })
      v1.get('/stats', (request) => ({ url: request.url, notes: v1.notes.list('root').length }))
    }, { prefix: '/v1' })
  app.register(async (sibling) => {
    sibling.get('/sibling', function (request) { return { notes: this.notes.list('ann'), user: (request as unknown as { user?: unknown }).user ?? null } })
  })
  return app
}

describe('an Elysia user\'s typed service (docs/migrating-from-elysia.md, "Coming from Elysia"): typed plugins, groups, guards and plugin dependencies run as typed', () => {
  it('serves the derived user, the decorated store and the resolved count in the group, with the guard in the nested group', async () => {
    const app = service()
    const me = (token: string) => app.inject({ url: '/v1/me', headers: { authorization: token } })
    expect((await me('ann')).json()).to.deep.equal({ id: 'ann', notes: 0 })
    const created = await app.inject({ method: 'POST', url: '/v1/notes', headers: { authorization: 'ann' }, payload: { text: 'milk' } })
    expect([created.statusCode, created.json()]).to.deep.equal([201, { count: 1 }])
    expect((await me('ann')).json()).to.deep.equal({ id: 'ann', notes: 1 })
    const invalid = await app.inject({ method: 'POST', url: '/v1/notes', headers: { authorization: 'ann' }, payload: { text: '' } })
    expect(invalid.statusCode).to.equal(400)
    expect((await app.inject({ url: '/v1/admin/notes/ann', headers: { authorization: 'ann' } })).json()).to.include({ statusCode: 403, message: 'admins only' })
    expect((await app.inject({ url: '/v1/admin/notes/ann', headers: { authorization: 'root' } })).json()).to.deep.equal({ by: 'root', notes: ['milk'] })
    expect((await app.inject('/health')).json()).to.deep.equal({ notes: 0 })
  })

  it('runs the derive hook for every route of the group (hooks follow the scope, the types follow the chain) and for no sibling', async () => {
    const app = service()
    expect((await app.inject('/v1/me')).json()).to.include({ statusCode: 401, message: 'no token' })
    // `v1` kept its type without `user`, but auth's onRequest hook runs for /v1/stats as well.
    expect((await app.inject('/v1/stats')).statusCode).to.equal(401)
    expect((await app.inject({ url: '/v1/stats', headers: { authorization: 'ann' } })).json()).to.deep.equal({ url: '/v1/stats', notes: 0 })
    // The sibling sees the root's store and no user: auth was registered in the group.
    expect((await app.inject('/sibling')).json()).to.deep.equal({ notes: [], user: null })
  })

  it('fails boot naming the missing dependency when a plugin listing a typed plugin in its dependencies is registered without it (ENC_ERR_PLUGIN_DEPENDENCY)', async () => {
    const app = server()
    app.register(db).register(count as never)
    const error = await bootError(app)
    expect(error.code).to.equal('ENC_ERR_PLUGIN_DEPENDENCY')
    expect(error.message).to.include("'count'").and.include("'auth'")
  })

  it('refuses at lift() a dependency plugin without a name (it could not be found by one), and a dependency that is neither a name nor a plugin (ENC_ERR_PLUGIN_META)', () => {
    const anonymous = lift(async () => undefined)
    const error = thrown(() => lift(async () => undefined, { name: 'needs', dependencies: [anonymous as never] }))
    expect(error.code).to.equal('ENC_ERR_PLUGIN_META')
    expect(error.message).to.include('dependencies[0] is a plugin without a name').and.include("lift(plugin, { name: '...' })")
    const error2 = thrown(() => lift(async () => undefined, { name: 'needs', dependencies: [42 as never] }))
    expect(error2.message).to.include('dependencies must be an array of plugin names, got an array')
  })

  it('takes in dependencies a plugin named by fastify-plugin (fp(fn, { name })): it is found by that name, as the load check records it', async () => {
    const store: unknown = fp(async () => undefined, { name: 'store' })
    const needs = lift(async () => undefined, { name: 'needs', dependencies: [store as never] })
    const app = server()
    app.register(store as never)
    app.register(needs)
    await app.ready()
    expect(app.hasPlugin('needs')).to.equal(true)
    const missing = server()
    missing.register(needs)
    const error = await bootError(missing)
    expect(error.code).to.equal('ENC_ERR_PLUGIN_DEPENDENCY')
    expect(error.message).to.include("'store'")
  })
})
