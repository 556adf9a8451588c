// Cold-start worker: the same app through Enclave's decorators (a root module with five
// controllers and two hooks, a child module under /admin with a request decoration, its own hook
// and five controllers), eager; enclave-decorators-lazy.ts compiles on first request.
import { coldStart } from './serve'
import { coldRoutes, PLUGIN_PREFIX, reply, type ColdRoute } from './app'
import type * as Enclave from '../../src'

type Request = Enclave.Request

function controllerFor(E: typeof Enclave, r: ColdRoute): new () => object {
  const { Route, Post, Get } = E
  @Route(r.url)
  class ResourceController {
    @Post('', { schema: { body: r.body, response: { 200: r.response } } }) create() { return reply }
    @Get('/:id', { schema: { params: r.params, response: { 200: r.response } } }) one() { return reply }
  }
  return ResourceController
}

export function decoratorsBuild(lazy: boolean): void {
  coldStart(() => require(process.env.ENCLAVE_DIST ?? '../../src'), async (loaded) => {
    const E = loaded as typeof Enclave
    const { Module, Hook, DecorateRequest, createApp } = E

    @DecorateRequest('tenant', '')
    @Module({ controllers: coldRoutes.filter((r) => r.inPlugin).map((r) => controllerFor(E, r)), prefix: PLUGIN_PREFIX })
    class AdminModule {
      @Hook('onRequest') async tenant(request: Request) { (request as unknown as { tenant: string }).tenant = 'acme' }
    }

    @Module({ controllers: coldRoutes.filter((r) => !r.inPlugin).map((r) => controllerFor(E, r)), plugins: [AdminModule] })
    class AppModule {
      @Hook('onRequest') async seen(request: Request) { request.headers['x-seen'] = '1' }
      @Hook('preHandler') async deny(request: Request, reply: Enclave.Reply) { if (request.headers['x-deny'] !== undefined) reply.code(403).send({ denied: true }) }
    }

    const app = await createApp(AppModule, { logger: { level: 'info' }, schemaCompilation: lazy ? 'lazy' : 'eager' })
    await app.listen({ port: 0, host: '127.0.0.1' })
    return app.server
  })
}

if (require.main === module) decoratorsBuild(false)
