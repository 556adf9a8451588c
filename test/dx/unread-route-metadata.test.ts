// @Roles(['admin']) (routeMetadata()) on a route no guard runs on: the metadata changes nothing and
// the route is open while it reads as protected. Boot warns ENC_WARN_ROUTE_METADATA_UNREAD where no
// hook that can refuse before the handler is declared by the app (a guard, an interceptor, a module
// @Hook(), or a plugin hook described as security); hooks plugins add everywhere (cookie) do not count.
import 'reflect-metadata'
import { expect } from 'chai'
import cookie from '@fastify/cookie'
import { injectable } from 'tsyringe'
import { Get, Hook, Module, OnRequest, Route, routeMetadata } from '../../src/decorators'
import { createApp } from '../../src/modules'
import type { Request } from '../../src'

const Roles = routeMetadata<readonly string[]>('roles')

@injectable() class RolesGuard { handle(request: Request): boolean { return Roles.of(request) === undefined || request.headers['x-role'] === Roles.of(request)![0] } }

interface Line { level: number; msg: string; code?: string; route?: string; module?: string }

async function warningsOf(root: Function): Promise<Line[]> {
  const lines: Line[] = []
  const app = await createApp(root, { logger: { level: 'warn', stream: { write: (line: string) => { lines.push(JSON.parse(line) as Line) } } } })
  await app.close()
  return lines.filter((l) => l.code === 'ENC_WARN_ROUTE_METADATA_UNREAD')
}

describe('dx: route metadata that no guard, hook or interceptor reads is a boot warning (ENC_WARN_ROUTE_METADATA_UNREAD)', () => {
  it('@Roles on a controller with no guard anywhere: one warning per route, naming the route, the handler, the key and the fix', async () => {
    @Roles(['admin']) @Route('/admin') class AdminController {
      @Get('/users') users() { return [] }
      @Get('/audit') audit() { return [] }
    }
    @Module({ controllers: [AdminController] }) class AppModule {}
    const warnings = await warningsOf(AppModule)
    expect(warnings.map((w) => w.route).sort()).to.deep.equal(['GET /admin/audit', 'GET /admin/users'])
    expect(warnings[0].msg).to.include("carries route metadata 'roles'").and.include('no guard, hook or interceptor of the app runs on it').and.include('@OnRequest(RolesGuard)')
  })

  it('a guard on the method, on the controller, on the module, or a module @Hook(): no warning', async () => {
    @Route('/a') class OnMethod { @Roles(['admin']) @OnRequest(RolesGuard) @Get('/') a() { return [] } }
    @Roles(['admin']) @OnRequest(RolesGuard) @Route('/b') class OnController { @Get('/') b() { return [] } }
    @Roles(['admin']) @Route('/c') class UnderModule { @Get('/') c() { return [] } }
    @OnRequest(RolesGuard) @Module({ controllers: [UnderModule], providers: [RolesGuard] }) class GuardedModule {}
    @Roles(['admin']) @Route('/d') class UnderHook { @Get('/') d() { return [] } }
    @Module({ controllers: [UnderHook] }) class HookModule { @Hook('onRequest') async check() {} }
    @Module({ controllers: [OnMethod, OnController], providers: [RolesGuard], plugins: [GuardedModule, HookModule] }) class AppModule {}
    expect(await warningsOf(AppModule)).to.deep.equal([])
  })
  it('a plugin that adds an onRequest hook to every route (@fastify/cookie) does not count as the guard: still a warning', async () => {
    @Roles(['admin']) @Route('/admin') class AdminController { @Get('/users') users() { return [] } }
    @Module({ controllers: [AdminController], plugins: [cookie] }) class AppModule {}
    const warnings = await warningsOf(AppModule)
    expect(warnings.map((w) => w.route)).to.deep.equal(['GET /admin/users'])
    expect(warnings[0].msg).to.include('in AppModule')
  })

  it('two controllers of one class name in two modules are judged each by its own scope: the unguarded one warns, naming its module', async () => {
    function adminModule(guarded: boolean, prefix: string): Function {
      @Roles(['admin']) @Route('/admin') class AdminController { @Get('/users') users() { return [] } }
      if (guarded) {
        @OnRequest(RolesGuard) @Module({ controllers: [AdminController], providers: [RolesGuard], prefix }) class GuardedAdmin {}
        return GuardedAdmin
      }
      @Module({ controllers: [AdminController], prefix }) class OpenAdmin {}
      return OpenAdmin
    }
    @Module({ plugins: [adminModule(true, '/v1'), adminModule(false, '/v2')] }) class AppModule {}
    const warnings = await warningsOf(AppModule)
    expect(warnings.map((w) => w.route)).to.deep.equal(['GET /v2/admin/users'])
    expect(warnings[0].module).to.include('OpenAdmin')
  })
  // With the default silent logger it is one process warning (reportBootWarnings, as the schema warnings: test/schemas/boot-warnings.test.ts).
})
