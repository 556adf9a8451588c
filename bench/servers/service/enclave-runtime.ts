// The service app on Enclave's runtime API (createServer): the same routes as the Fastify contenders.
import { createServer } from '../../../src/runtime'
import type { Request, Reply, Scope, RequestHook } from '../../../src/runtime'
import {
  API_KEY_HEADER, LOG_FILE, USER_PATH, CONFLICT_PATH, HOOKED_PATH, paramsSchema, userResponseSchema, findUser, keyProblem,
  caller, conflict, hookedPayload, Caller,
} from './shape'
import { HOST, portFromArgv, announceReady, failStart } from '../ready-line'

type SvcRequest = Request & { user: Caller | null }

/** The route with one hook of each kind plus onSend, in a child plugin, callback and async styles mixed. */
async function hookedScope(scope: Scope): Promise<void> {
  scope.addHook('onRequest', async (request: Request) => { void request.headers })
  // Fastify's (request, reply, payload, done) form, as the Fastify contenders declare it; addHook's
  // types list preParsing with the request hooks' three parameters, hence the cast.
  const parsing = (request: Request, reply: Reply, payload: unknown, done: (error: Error | null, payload?: unknown) => void): void => { done(null, payload) }
  scope.addHook('preParsing', parsing as unknown as RequestHook)
  scope.addHook('preValidation', async () => {})
  scope.addHook('preHandler', (request: Request, reply: Reply, done: () => void) => { done() })
  scope.addHook('preSerialization', async (request: Request, reply: Reply, payload: unknown) => ({ ...(payload as object), stage: 'serialized' }))
  scope.addHook('onSend', (request: Request, reply: Reply, payload: unknown, done: (error: Error | null, payload?: unknown) => void) => {
    reply.header('x-hooked', '1')
    done(null, payload)
  })
  scope.get(HOOKED_PATH, async () => hookedPayload)
}

async function main(): Promise<void> {
  const app = createServer({ logger: { level: 'info', file: LOG_FILE } })
  app.decorateRequest('user', null)
  app.addHook('onRequest', async (request: Request) => {
    const problem = keyProblem(request.headers)
    if (problem !== null) throw problem
  })
  app.addHook('preHandler', async (request: Request) => {
    if (request.headers[API_KEY_HEADER] !== undefined) (request as SvcRequest).user = caller
  })
  app.get(USER_PATH, { schema: { params: paramsSchema, response: userResponseSchema } }, async (request: Request, reply: Reply) => {
    const user = await findUser((request.params as { id: number }).id, (request as SvcRequest).user!)
    reply.header('x-served-by', 'users')
    return user
  })
  app.get(CONFLICT_PATH, async () => {
    throw conflict()
  })
  app.register(hookedScope)
  await app.listen({ port: portFromArgv(), host: HOST })
  announceReady(app.server.address())
}

main().catch(failStart)
