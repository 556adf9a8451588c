// Type app (a program of its own; checked by ../type-fixtures.test.ts). Never run.
// A global declaration satisfies register()'s typed dependency check: an app that declares its
// decorations the Fastify way (declaration merging, here on Enclave's interfaces) has them typed on
// every scope, so a plugin whose `dependencies: [auth]` provides exactly those registers on a scope
// that never registered auth in its type (auth is still registered before it: the load check,
// ENC_ERR_PLUGIN_DEPENDENCY, asks that at run time). What the globals do not declare still refuses.
// A name declared both globally and in a typed plugin's `provides` (scope, request or reply) is one
// decoration of one type: the scope register() returns, its handlers' `this`, `request.server` and
// child plugins compile, in finite time. Before session 19 a scope name in both sent tsc into
// endless recursion (stack overflow, or TS2589 on the route) through ScopeServing's constraint.
import { createServer, lift, type, type Scope } from '../../../src'

interface User { id: string }
interface Db { query(sql: string): Promise<unknown[]> }

declare module '../../../src' {
  interface RequestDecorations { user: User | null }
  interface ReplyDecorations { startedAt: number }
  interface ScopeDecorations { db: Db }
}

// The dependencies, typed: they provide exactly what the globals declare.
const auth = lift(async (scope) => {
  scope.decorateRequest('user', null)
}, { name: 'auth', provides: { request: { user: type<User | null>() } } })
const timing = lift(async (scope) => {
  scope.decorateReply('startedAt', 0)
}, { name: 'timing', provides: { reply: { startedAt: type<number>() } } })
const session = lift(async (scope) => {
  scope.decorateRequest('sessionId', '')
}, { name: 'session', provides: { request: { sessionId: type<string>() } } })

const count = lift(async (scope) => {
  scope.decorateRequest('noteCount', 0)
  scope.addHook('onSend', async (request, reply) => { request.noteCount = request.user === null ? 0 : reply.startedAt })
}, { name: 'count', dependencies: [auth, timing], provides: { request: { noteCount: type<number>() } } })

// The globals declare user and startedAt: the check does not refuse count on a plain scope.
const app = createServer()
app.register(auth)
app.register(timing)
app.register(count).get('/count', (request) => ({ count: request.noteCount }))
// Nor on a chain that registered one of them by type and has the other globally.
createServer().register(auth).register(count)

// A dependency whose decoration no global declares (sessionId) is still asked of the scope's type.
const tracked = lift(async (scope) => {
  scope.addHook('onRequest', async (request) => { request.log.info({ session: request.sessionId }) })
}, { name: 'tracked', dependencies: [session] })
// @ts-expect-error [TS2345] is not assignable to type 'DependenciesNotRegistered'
app.register(tracked)
app.register(session).register(tracked)

// A scope decoration declared globally (db) and provided by a typed plugin too: its scope, its
// routes' `this` and `request.server`, hooks and child plugins all read it, and it is still a Scope.
const database = lift(async (scope) => {
  scope.decorate('db', { query: async () => [] })
}, { name: 'database', provides: { scope: { db: type<Db>() } } })
const stored = createServer().register(database)
stored.get('/rows', async function (request) {
  const rows = await this.db.query('select 1')
  return { rows: rows.length + (await request.server.db.query('select 2')).length }
})
stored.addHook('onRequest', async function () { await this.db.query('select 3') })
stored.register(async (child) => { child.get('/child-rows', () => child.db.query('select 4')) })
const asScope: Scope = stored
asScope.get('/plain', () => 'ok')
// Its value is still checked against the one type.
lift(async (scope) => {
  // @ts-expect-error [TS2322] Type 'number' is not assignable to type '(sql: string) => Promise<unknown[]>'
  scope.decorate('db', { query: 1 })
}, { name: 'bad-database', provides: { scope: { db: type<Db>() } } })

// The same for request and reply names in both: user and startedAt, provided again and read on the chain.
const signedIn = lift(async (scope) => {
  scope.decorateRequest('user', null)
  scope.decorateReply('startedAt', 0)
}, { name: 'signed-in', provides: { request: { user: type<User | null>() }, reply: { startedAt: type<number>() } } })
createServer().register(signedIn).get('/me', function (request, reply) {
  return { id: request.user?.id ?? null, at: reply.startedAt, server: this.db === request.server.db }
})
