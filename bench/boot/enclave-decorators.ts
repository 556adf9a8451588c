/**
 * Boot worker: Enclave through decorators, to listening (information only; run directly, eager). The
 * 1,000 routes sit on ten controllers of 100 methods; the classes are built in a loop, so the
 * decorators are applied by calling them, exactly as TypeScript's emitted code does.
 */
import 'reflect-metadata'
import { createApp, Module, Route, Post, Schema } from '../../src'
import { measureBoot } from './report'
import { bootReply, BootRoute } from './routes'

const CONTROLLERS = 10

function controller(routes: readonly BootRoute[], index: number): new () => object {
  const Controller = class {}
  Object.defineProperty(Controller, 'name', { value: `BootController${index}` })
  routes.forEach((r, j) => {
    const key = `route${j}`
    const descriptor: PropertyDescriptor = { value: () => bootReply, writable: true, configurable: true, enumerable: false }
    const decorated = Post(r.url, { schema: { body: r.body, response: { 200: r.response } } })(Controller.prototype, key, descriptor)
    Object.defineProperty(Controller.prototype, key, decorated ?? descriptor)
  })
  Route()(Controller)
  return Controller
}

/**
 * The app through decorators; `lazy` sets schemaCompilation on the server (enclave-decorators-lazy.ts),
 * `cacheDirectory` the schemaCache option (enclave-decorators-cached.ts).
 */
export function measureDecoratorsBoot(lazy: boolean, cacheDirectory?: () => string): void {
  measureBoot(async ({ routes, shared }) => {
    const schemas = shared.map((schema) => { const Shared = class {}; Schema(schema as never)(Shared); return Shared })
    const per = Math.ceil(routes.length / CONTROLLERS)
    const controllers = Array.from({ length: CONTROLLERS }, (_, i) => controller(routes.slice(i * per, (i + 1) * per), i))
    class BootModule {}
    Module({ controllers, schemas })(BootModule)
    const app = await createApp(BootModule, {
      logger: false, schemaCompilation: lazy ? 'lazy' : 'eager', ...(cacheDirectory === undefined ? {} : { schemaCache: { directory: cacheDirectory() } }),
    })
    await app.listen({ port: 0, host: '127.0.0.1' })
    return app.server
  })
}

if (require.main === module) measureDecoratorsBoot(false)
