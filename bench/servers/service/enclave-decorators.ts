// The service app through decorators (createApp): the same routes as the runtime API, declared on
// modules and controllers, the users' store injected into the controller by tsyringe. The
// difference between the two is the cost of the decorator layer with DI.
import 'reflect-metadata'
import { injectable } from 'tsyringe'
import { createApp, Module, Route, Get, Hook, DecorateRequest } from '../../../src'
import type { Request, Reply } from '../../../src'
import {
  API_KEY_HEADER, LOG_FILE, CONFLICT_PATH, HOOKED_PATH, paramsSchema, userResponseSchema, findUser, keyProblem,
  caller, conflict, hookedPayload, Caller, UserRecord,
} from './shape'
import { HOST, portFromArgv, announceReady, failStart } from '../ready-line'

type SvcRequest = Request & { user: Caller | null }

/** The store a real controller would await: a provider of the root module. */
@injectable()
class UserStore {
  find(id: number, who: Caller): Promise<UserRecord> {
    return findUser(id, who)
  }
}

@Route()
class UsersController {
  constructor(private readonly users: UserStore) {}

  @Get('/svc/users/:id', { schema: { params: paramsSchema, response: userResponseSchema } })
  async show(request: Request, reply: Reply): Promise<UserRecord> {
    const user = await this.users.find((request.params as { id: number }).id, (request as SvcRequest).user!)
    reply.header('x-served-by', 'users')
    return user
  }

  @Get(CONFLICT_PATH)
  async conflict(): Promise<unknown> {
    throw conflict()
  }
}

@Route()
class HookedController {
  @Get(HOOKED_PATH)
  async hooked(): Promise<unknown> {
    return hookedPayload
  }
}

/** The route with one hook of each kind plus onSend, in a child module, callback and async styles mixed. */
@Module({ controllers: [HookedController] })
class HookedModule {
  @Hook('onRequest') async seen(request: Request): Promise<void> { void request.headers }
  @Hook('preParsing') parsing(request: Request, reply: Reply, payload: unknown, done: (error: Error | null, payload?: unknown) => void): void { done(null, payload) }
  @Hook('preValidation') async validating(): Promise<void> {}
  @Hook('preHandler') handling(request: Request, reply: Reply, done: () => void): void { done() }
  @Hook('preSerialization') async stage(request: Request, reply: Reply, payload: unknown): Promise<unknown> {
    return { ...(payload as object), stage: 'serialized' }
  }
  @Hook('onSend') sending(request: Request, reply: Reply, payload: unknown, done: (error: Error | null, payload?: unknown) => void): void {
    reply.header('x-hooked', '1')
    done(null, payload)
  }
}

@DecorateRequest('user', null)
@Module({ plugins: [HookedModule], controllers: [UsersController], providers: [UserStore] })
class ServiceModule {
  @Hook('onRequest') async auth(request: Request): Promise<void> {
    const problem = keyProblem(request.headers)
    if (problem !== null) throw problem
  }

  @Hook('preHandler') async identify(request: Request): Promise<void> {
    if (request.headers[API_KEY_HEADER] !== undefined) (request as SvcRequest).user = caller
  }
}

async function main(): Promise<void> {
  const app = await createApp(ServiceModule, { logger: { level: 'info', file: LOG_FILE } })
  await app.listen({ port: portFromArgv(), host: HOST })
  announceReady(app.server.address())
}

main().catch(failStart)
