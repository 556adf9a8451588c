// A GET or HEAD request's body is never parsed (Fastify 3's handleRequest calls the handler at once
// for both), so `@Body()` there is null on every request. A NestJS habit (`@Get() search(@Body()
// filters)`) that used to boot and silently see nothing: now ENC_ERR_MODULE_BODY_NOT_PARSED.
import 'reflect-metadata'
import { expect } from 'chai'
import { Body, Delete, Get, Head, Module, Post, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { bootError } from '../modules/helpers'

describe('dx: @Body() on a route method whose routes are all GET or HEAD fails boot (ENC_ERR_MODULE_BODY_NOT_PARSED)', () => {
  it('@Get() with @Body(): names the route, the parameter and the fix', async () => {
    @Route('/notes') class NotesController { @Get('/search') search(@Body() filters: unknown) { return { filters } } }
    @Module({ controllers: [NotesController] }) class AppModule {}
    const error = await bootError(AppModule)
    expect(error.code).to.equal('ENC_ERR_MODULE_BODY_NOT_PARSED')
    expect(error.message).to.include('NotesController.search in AppModule')
    expect(error.message).to.include('@Body() (parameter 0)')
    expect(error.message).to.include('never parsed, so it would be null on every request')
    expect(error.message).to.include('@Query()')
  })

  it("@Head() with @Body('name') (no schema) is refused the same way", async () => {
    @Route('/notes') class NotesController { @Head('/') probe(@Body('name') name: unknown) { return name } }
    @Module({ controllers: [NotesController] }) class AppModule {}
    const error = await bootError(AppModule)
    expect(error.code).to.equal('ENC_ERR_MODULE_BODY_NOT_PARSED')
    expect(error.message).to.include("@Body('name') (parameter 0)")
  })

  it('@Get() @Post() on one method boots: the POST route reads the body, the GET one null (as in NestJS)', async () => {
    @Route('/notes') class NotesController { @Get('/') @Post('/') both(@Body() body: unknown) { return { body: body ?? 'none' } } }
    @Module({ controllers: [NotesController] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      expect((await app.inject({ method: 'POST', url: '/notes', payload: { a: 1 } })).json()).to.deep.equal({ body: { a: 1 } })
      expect((await app.inject({ method: 'GET', url: '/notes' })).json()).to.deep.equal({ body: 'none' })
    } finally { await app.close() }
  })

  it('@Delete() with @Body() boots and reads a DELETE body sent with a Content-Type (Fastify 3 parses it)', async () => {
    @Route('/notes') class NotesController { @Delete('/') remove(@Body() body: unknown) { return { body } } }
    @Module({ controllers: [NotesController] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      expect((await app.inject({ method: 'DELETE', url: '/notes', payload: { ids: [1] } })).json()).to.deep.equal({ body: { ids: [1] } })
    } finally { await app.close() }
  })
})
