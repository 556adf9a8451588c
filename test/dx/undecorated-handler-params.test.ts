// A handler with no parameter decorator is called with (request, reply), as a Fastify handler is
// (src/modules/argument-builder.ts). A parameter typed as something neither can be (`id: string`,
// a DTO class, a provider class) or a third parameter is a forgotten decorator or constructor
// injection: boot fails with ENC_ERR_MODULE_HANDLER_PARAMS naming the controller, method,
// parameter index and type, instead of the handler receiving the request object as its `id`.
import 'reflect-metadata'
import { expect } from 'chai'
import { injectable } from 'tsyringe'
import { Get, Module, Post, Reply as ReplyDecorator, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'
import type { Reply, Request } from '../../src'
import { bootError } from '../modules/helpers'

describe('dx: an undecorated handler parameter Enclave cannot pass is a boot error (ENC_ERR_MODULE_HANDLER_PARAMS)', () => {
  it('get(id: string) with no @Params: names the route, parameter 0, its type and the decorator to use', async () => {
    @Route('/notes') class NotesController { @Get('/:id') get(id: string) { return { id } } }
    @Module({ controllers: [NotesController] }) class AppModule {}
    const error = await bootError(AppModule)
    expect(error.code).to.equal('ENC_ERR_MODULE_HANDLER_PARAMS')
    expect(error.message).to.include('NotesController.get')
    expect(error.message).to.include('parameter 0 (typed String) has no parameter decorator')
    expect(error.message).to.include('so it would receive the request object')
    expect(error.message).to.include("@Params('id')")
  })

  // TypeScript refuses both already (handler-fit.ts: no part of the request can fill them); boot is
  // the check for JavaScript, `any`-typed code and a suppressed type error.
  it('a DTO class without @Body(), and a provider class as a handler parameter: the type is named, with the constructor hint', async () => {
    class CreateNoteDto { text = '' }
    @injectable() class NotesService { all() { return [] } }
    @Route('/notes') class NotesController {
      // @ts-expect-error: no part of the request can fill a CreateNoteDto
      @Post('/') create(dto: CreateNoteDto) { return dto }
    }
    @Route('/other') class OtherController {
      // @ts-expect-error: nor a NotesService
      @Get('/') list(_request: Request, notes: NotesService) { return notes.all() }
    }
    @Module({ controllers: [NotesController] }) class DtoModule {}
    @Module({ controllers: [OtherController], providers: [NotesService] }) class ProviderModule {}
    expect((await bootError(DtoModule)).message).to.include('parameter 0 (typed CreateNoteDto)')
    const provider = await bootError(ProviderModule)
    expect(provider.message).to.include('parameter 1 (typed NotesService)')
    expect(provider.message).to.include('so it would receive the reply object')
    expect(provider.message).to.include('a provider (a service) is a constructor parameter of the controller')
  })

  it('a third undecorated parameter would receive undefined', async () => {
    @Route() class C { @Get('/') x(_request: Request, _reply: Reply, _extra: unknown) { return {} } }
    @Module({ controllers: [C] }) class AppModule {}
    const error = await bootError(AppModule)
    expect(error.message).to.include('parameter 2 (typed any)')
    expect(error.message).to.include('so it would receive undefined')
  })

  it('(request, reply) typed as interfaces, any or left out still boots and receives both', async () => {
    @Route() class C {
      @Get('/a') a(request: Request, reply: Reply) { return reply.code(201).send({ url: request.url }) }
      @Get('/b') b(request: any) { return { url: request.url } }
      @Get('/c') c() { return { ok: true } }
    }
    @Module({ controllers: [C] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      const a = await app.inject({ url: '/a' })
      expect([a.statusCode, a.json()]).to.deep.equal([201, { url: '/a' }])
      expect((await app.inject({ url: '/b' })).json()).to.deep.equal({ url: '/b' })
    } finally {
      await app.close()
    }
  })

  // swc, @swc/jest, vitest and ts-jest's isolated mode emit `reply: Reply` as the @Reply() decorator
  // function (a value of that name is in scope), where tsc emits Object (docs/build-tools.md).
  it('reply typed Reply as swc emits it (the @Reply() decorator function as its design type) still boots', async () => {
    @Route() class C { @Get('/a') a(request: Request, reply: Reply) { return reply.code(202).send({ url: request.url }) } }
    Reflect.defineMetadata('design:paramtypes', [Object, ReplyDecorator], C.prototype, 'a')
    @Module({ controllers: [C] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      const a = await app.inject({ url: '/a' })
      expect([a.statusCode, a.json()]).to.deep.equal([202, { url: '/a' }])
    } finally {
      await app.close()
    }
  })
})
