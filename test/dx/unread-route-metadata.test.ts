// @Roles(['admin']) (routeMetadata()) on a route no guard runs on: the metadata changes nothing and
// the route is open while it reads as protected. Boot warns ENC_WARN_ROUTE_METADATA_UNREAD where no
// hook of any stage or level and no interceptor runs on the route; one guard anywhere silences it.
import 'reflect-metadata'
import { expect } from 'chai'
import { injectable } from 'tsyringe'
import { Get, Hook, Module, OnRequest, Route, routeMetadata } from '../../src/decorators'
import { createApp } from '../../src/modules'
import type { Request } from '../../src'

const Roles = routeMetadata<readonly string[]>('roles')

@injectable() class RolesGuard { handle(request: Request): boolean { return Roles.of(request) === undefined || request.headers['x-role'] === Roles.of(request)![0] } }

interface Line { level: number; msg: string; code?: string; route?: string }

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
    expect(warnings[0].msg).to.include("carries route metadata 'roles'").and.include('no guard, hook or interceptor runs on it').and.include('@OnRequest(RolesGuard)')
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
  // With the default silent logger it is one process warning (reportBootWarnings, as the schema warnings: test/schemas/boot-warnings.test.ts).
})
