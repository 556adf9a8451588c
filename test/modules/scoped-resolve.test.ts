// docs/migrating-from-elysia.md, "Coming from Elysia": derive/resolve is a hook in a lift()ed plugin that usePlugin() gives
// the module's providers; it runs for that module's routes (and its children's) only, and what it
// sets, the request's child logger included, is seen by the handler.
import 'reflect-metadata'
import { expect } from 'chai'
import { Writable } from 'node:stream'
import { injectable } from 'tsyringe'
import { Get, Module, Req, Route, usePlugin } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { HttpError, lift, type Request, type Scope } from '../../src/runtime'

interface Workspace { id: string; plan: 'free' | 'pro' }
declare module '../../src/runtime' {
  interface RequestDecorations { workspace: Workspace }
}

@injectable()
class Workspaces {
  find(id: string): Workspace | undefined { return id === 'acme' ? { id, plan: 'pro' } : undefined }
}

// An interface, not a type alias: lift(plugin, meta) takes it (README's example is written so).
interface WorkspaceOptions { workspaces: Workspaces }

const workspacePlugin = lift(async (scope: Scope, { workspaces }: WorkspaceOptions) => {
  scope.addHook('preHandler', async (request: Request) => {
    const { workspaceId } = request.params as { workspaceId: string }
    const workspace = workspaces.find(workspaceId)
    if (workspace === undefined) throw new HttpError(404, `workspace ${workspaceId} not found`)
    request.workspace = workspace
    request.log = request.log.child({ workspace: workspace.id })
  })
}, { name: 'workspace' })

@Route('/plan')
class PlanController {
  @Get('/') plan(@Req() request: Request) { request.log.info('plan read'); return { plan: request.workspace.plan } }
}

@Module({
  prefix: '/workspaces/:workspaceId',
  providers: [Workspaces],
  plugins: [usePlugin(workspacePlugin, { inject: [Workspaces], useFactory: (workspaces: Workspaces) => ({ workspaces }) })],
  controllers: [PlanController],
})
class WorkspaceModule {}

@Route('/elsewhere')
class ElsewhereController {
  @Get('/') read(@Req() request: Request) { return { seen: request.workspace !== undefined } }
}
@Module({ prefix: '/other', controllers: [ElsewhereController] }) class OtherModule {}

@Module({ plugins: [WorkspaceModule, OtherModule] }) class AppModule {}

describe('scoped resolve (docs/migrating-from-elysia.md, "Coming from Elysia")', () => {
  it('resolves the workspace from the path for the module\'s routes only, with a child logger bound to it, and 404s an unknown one', async () => {
    const lines: Record<string, unknown>[] = []
    const stream = new Writable({ write(chunk: Buffer, _e, done) { for (const l of chunk.toString().split('\n')) if (l) lines.push(JSON.parse(l)); done() } })
    const app = await createApp(AppModule, { logger: { stream } })
    try {
      const ok = await app.inject('/workspaces/acme/plan')
      expect([ok.statusCode, ok.json()]).to.deep.equal([200, { plan: 'pro' }])
      expect(lines.find((l) => l.msg === 'plan read')).to.include({ workspace: 'acme' })
      const unknown = await app.inject('/workspaces/nope/plan')
      expect([unknown.statusCode, unknown.json<{ message: string }>().message]).to.deep.equal([404, 'workspace nope not found'])
      // The sibling module's routes never run the hook: the type says Workspace, the run time undefined.
      expect((await app.inject('/other/elsewhere')).json()).to.deep.equal({ seen: false })
    } finally { await app.close() }
  })
})
