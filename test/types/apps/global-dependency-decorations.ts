// Type app (a program of its own; checked by ../type-fixtures.test.ts). Never run.
// A global declaration satisfies register()'s typed dependency check: an app that declares its
// decorations the Fastify way (declaration merging, here on Enclave's interfaces) has them typed on
// every scope, so a plugin whose `dependencies: [auth]` provides exactly those registers on a scope
// that never registered auth in its type (auth is still registered before it: the load check,
// ENC_ERR_PLUGIN_DEPENDENCY, asks that at run time). What the globals do not declare still refuses.
// Request and reply decorations: a scope decoration declared both globally and in a typed plugin's
// provides.scope sends tsc into endless recursion on the scope's shortcuts (known, not fixed yet).
import { createServer, lift, type } from '../../../src'

interface User { id: string }

declare module '../../../src' {
  interface RequestDecorations { user: User | null }
  interface ReplyDecorations { startedAt: number }
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
