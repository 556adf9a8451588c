// The service app as both Fastify contenders declare it: Fastify 3 and 5 take the same API for
// these routes, so it is written once; each contender keeps its own package and listen() call.
import {
  API_KEY_HEADER, USER_PATH, CONFLICT_PATH, HOOKED_PATH, paramsSchema, userResponseSchema, findUser, keyProblem,
  caller, conflict, hookedPayload, Caller,
} from './shape'

type Done = (error?: Error | null) => void
type PayloadDone = (error: Error | null, payload?: unknown) => void
interface SvcRequest { params: unknown; headers: Record<string, unknown>; user: Caller | null }
interface SvcReply { header(name: string, value: string): SvcReply }
type Hook = (request: SvcRequest, reply: SvcReply, done: Done) => unknown
type PayloadHook = (request: SvcRequest, reply: SvcReply, payload: unknown, done: PayloadDone) => unknown

/** What the two majors' instances have in common for these routes. */
export interface FastifyService {
  decorateRequest(name: string, value: unknown): unknown
  addHook(name: string, hook: Hook | PayloadHook): unknown
  get(path: string, options: object, handler: (request: SvcRequest, reply: SvcReply) => Promise<unknown>): unknown
  register(plugin: (scope: FastifyService) => Promise<void>): unknown
}

/** The route with one hook of each kind plus onSend, in a child plugin, callback and async styles mixed. */
async function hookedScope(scope: FastifyService): Promise<void> {
  scope.addHook('onRequest', async (request: SvcRequest) => { void request.headers })
  scope.addHook('preParsing', ((request, reply, payload, done) => { done(null, payload) }) as PayloadHook)
  scope.addHook('preValidation', async () => {})
  scope.addHook('preHandler', ((request, reply, done) => { done() }) as Hook)
  scope.addHook('preSerialization', (async (request: SvcRequest, reply: SvcReply, payload: unknown) => ({ ...(payload as object), stage: 'serialized' })) as unknown as PayloadHook)
  scope.addHook('onSend', ((request, reply, payload, done) => {
    reply.header('x-hooked', '1')
    done(null, payload)
  }) as PayloadHook)
  scope.get(HOOKED_PATH, {}, async () => hookedPayload)
}

export function declareFastifyService(app: FastifyService): void {
  app.decorateRequest('user', null)
  app.addHook('onRequest', async (request: SvcRequest) => {
    const problem = keyProblem(request.headers)
    if (problem !== null) throw problem
  })
  app.addHook('preHandler', async (request: SvcRequest) => {
    if (request.headers[API_KEY_HEADER] !== undefined) request.user = caller
  })
  app.get(USER_PATH, { schema: { params: paramsSchema, response: userResponseSchema } }, async (request, reply) => {
    const user = await findUser((request.params as { id: number }).id, request.user!)
    reply.header('x-served-by', 'users')
    return user
  })
  app.get(CONFLICT_PATH, {}, async () => {
    throw conflict()
  })
  app.register(hookedScope)
}
