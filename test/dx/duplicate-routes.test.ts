// Two declarations of one method and path fail boot with ENC_ERR_ROUTE_DUPLICATE. Under modules the
// scopes' paths alone (`AppModule > NotesModule` twice) do not say which controllers collide: the
// message names each side's handler (`NotesController.list`) and its scope, and the ways out.
import 'reflect-metadata'
import { expect } from 'chai'
import { Get, Module, Route } from '../../src/decorators'
import { createServer } from '../../src'
import { bootError } from '../modules/helpers'

describe('dx: a duplicate route names both declarations (controller class and method, module path) and the fix', () => {
  it('two controllers with @Get() on the same path in two modules of one prefix', async () => {
    @Route('/notes') class NotesController { @Get('/') list() { return [] } }
    @Route('/notes') class ArchiveController { @Get('/') all() { return [] } }
    @Module({ controllers: [NotesController] }) class NotesModule {}
    @Module({ controllers: [ArchiveController] }) class ArchiveModule {}
    @Module({ plugins: [NotesModule, ArchiveModule] }) class AppModule {}
    const error = await bootError(AppModule)
    expect(error.code).to.equal('ENC_ERR_ROUTE_DUPLICATE')
    expect(error.message).to.include('GET /notes is declared twice: by NotesController.list in AppModule > NotesModule and by ArchiveController.all in AppModule > ArchiveModule')
    expect(error.message).to.include("a controller's @Get('...') or @Route('...')")
  })

  it('two methods of one controller on the same path: both methods named, in the same module', async () => {
    @Route('/notes') class NotesController {
      @Get('/:id') one() { return {} }
      @Get('/:id') again() { return {} }
    }
    @Module({ controllers: [NotesController] }) class AppModule {}
    const error = await bootError(AppModule)
    expect(error.code).to.equal('ENC_ERR_ROUTE_DUPLICATE')
    expect(error.message).to.include('by NotesController.one in AppModule and by NotesController.again in AppModule')
  })

  it('plugin routes: a named handler is named, an anonymous one is told by its scope alone', async () => {
    const app = createServer()
    app.register(async function users(scope) { scope.get('/users', async function listUsers() { return [] }) })
    app.register(async function admin(scope) { scope.get('/users', async () => []) })
    const error = await app.ready().then(() => null, (e: unknown) => e as Error & { code: string })
    expect(error?.code).to.equal('ENC_ERR_ROUTE_DUPLICATE')
    expect(error?.message).to.include('GET /users is declared twice: by listUsers in root > users and in root > admin')
    await app.close()
  })
})
