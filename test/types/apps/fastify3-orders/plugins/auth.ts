// Was: `const auth: FastifyPluginCallback<AuthOptions> = (fastify, opts, done) => { ...; done() }`
// wrapped by fp(), with a `preHandlerHookHandler` exported for routes to list.
import { lift, type CallbackPlugin, type Reply, type Request, type RequestHook, type Scope } from '../../../../../src'

export interface Account { id: number; name: string; roles: Array<'admin' | 'clerk'> }
export interface AuthOptions { tokens: Record<string, Account>; realm?: string }

const authPlugin: CallbackPlugin<AuthOptions> = (app, opts, done) => {
  app.decorate('verifyToken', (token: string) => opts.tokens[token] ?? null)
  app.decorateRequest('account', null)
  app.addHook('onRequest', async (request) => {
    const header = request.headers.authorization
    request.account = header === undefined ? null : app.verifyToken(header.replace(/^Bearer /, ''))
  })
  done()
}

export default lift(authPlugin, { name: 'auth', dependencies: ['db'] })

// Was: `export const requireAdmin: preHandlerHookHandler = function (request, reply, done) { ... }`.
export const requireAdmin: RequestHook = function (this: Scope, request: Request, reply: Reply, done) {
  if (request.account === null || !request.account.roles.includes('admin')) {
    reply.problem(403, 'admins only')
    return
  }
  done()
}

// Was: `export async function requireAccount(request: FastifyRequest, reply: FastifyReply)`.
export async function requireAccount(request: Request, reply: Reply): Promise<void> {
  if (request.account === null) reply.problem(401, 'sign in')
}
