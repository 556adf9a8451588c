import 'reflect-metadata'
import { expect } from 'chai'
import { Get, Module, NotFoundHandler, Route } from '../../src/decorators'
import { lift } from '../../src/runtime'
import { createApp } from '../../src/modules'
import type { Reply, Request } from '../../src/runtime'
import { declarationError } from '../decorators/helpers'
import { bootError } from '../modules/helpers'

@Route('/') class Ping { @Get('/ping') ping() { return { pong: true } } }

describe('@NotFoundHandler(): a module\'s not-found handler from the decorator layer (dx §2, spec §3.3)', () => {
  it('answers unknown URLs under the module\'s prefix, with `this` = the module instance; the parent keeps its own', async () => {
    @Module({ prefix: '/api', controllers: [Ping] })
    class ApiModule {
      readonly label = 'api'
      @NotFoundHandler()
      notFound(request: Request, reply: Reply) { reply.code(404).send({ where: this.label, url: request.url }) }
    }
    @Module({ plugins: [ApiModule] })
    class AppModule {
      @NotFoundHandler() notFound(_request: Request, reply: Reply) { reply.code(404).send({ where: 'root' }) }
    }
    const app = await createApp(AppModule)
    try {
      expect((await app.inject({ url: '/api/ping' })).json()).to.deep.equal({ pong: true })
      const api = await app.inject({ url: '/api/nope' })
      expect(api.statusCode).to.equal(404)
      expect(api.json()).to.deep.equal({ where: 'api', url: '/api/nope' })
      expect((await app.inject({ url: '/elsewhere' })).json()).to.deep.equal({ where: 'root' })
    } finally { await app.close() }
  })

  it('takes preValidation/preHandler hooks, as setNotFoundHandler(options, handler) does', async () => {
    @Module()
    class AppModule {
      @NotFoundHandler({ preHandler: async (_request: Request, reply: Reply) => { reply.header('x-pre', 'yes') } })
      notFound(_request: Request, reply: Reply) { reply.code(404).send({ custom: true }) }
    }
    const app = await createApp(AppModule)
    try {
      const res = await app.inject({ url: '/x' })
      expect(res.headers['x-pre']).to.equal('yes')
      expect(res.json()).to.deep.equal({ custom: true })
    } finally { await app.close() }
  })

  it('a lifted module sets its parent\'s handler', async () => {
    @Module() class Fallback { @NotFoundHandler() nf(_q: Request, reply: Reply) { reply.code(404).send({ lifted: true }) } }
    @Module({ plugins: [lift(Fallback)] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      expect((await app.inject({ url: '/x' })).json()).to.deep.equal({ lifted: true })
    } finally { await app.close() }
  })

  it('refuses at boot a child module without a prefix of its own, naming the method and the fix', async () => {
    @Module() class Child { @NotFoundHandler() nf() {} }
    @Module({ plugins: [Child] }) class AppModule {}
    const error = await bootError(AppModule)
    expect(error.code).to.equal('ENC_ERR_MODULE_NOT_FOUND_NO_PREFIX')
    expect(error.message).to.contain('Child.nf').and.contain('AppModule > Child').and.contain("@Module({ prefix: '/admin' })")
  })

  it('refuses a module lifted into a prefix-less child the same way', async () => {
    @Module() class Inner { @NotFoundHandler() nf() {} }
    @Module({ plugins: [lift(Inner)] }) class Child {}
    @Module({ plugins: [Child] }) class AppModule {}
    const error = await bootError(AppModule)
    expect(error.code).to.equal('ENC_ERR_MODULE_NOT_FOUND_NO_PREFIX')
    expect(error.message).to.contain('lifted into AppModule > Child')
  })

  it('refuses two @NotFoundHandler() methods on one class, and one on a controller', async () => {
    const error = declarationError(() => { class Two { @NotFoundHandler() a() {} @NotFoundHandler() b() {} } return Two })
    expect(error.code).to.equal('ENC_ERR_DECL_NOT_FOUND_HANDLER_DUPLICATE')
    expect(error.message).to.contain('Two.b').and.contain("'a'")
    expect(declarationError(() => { class S { @NotFoundHandler() static a() {} } return S }).code).to.equal('ENC_ERR_DECL_STATIC_MEMBER')
    @Route('/') class Misplaced { @NotFoundHandler() nf() {} }
    @Module({ controllers: [Misplaced] }) class AppModule {}
    const misplaced = await bootError(AppModule)
    expect(misplaced.code).to.equal('ENC_ERR_MODULE_MISPLACED_DECORATOR')
    expect(misplaced.message).to.contain('@NotFoundHandler')
  })
})
