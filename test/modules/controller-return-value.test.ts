// A controller method's return value is its answer, sync or async alike: a sync method that returns
// undefined is answered at once (204 when it set it, the coded 500 otherwise), never left waiting
// for a send() until handlerTimeout.
import 'reflect-metadata'
import { expect } from 'chai'
import { Delete, Get, HttpCode, Module, Params, Post, Reply, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'
import type { Logger, Scope } from '../../src/runtime'
import { recordingLogger } from '../support/servers'

describe('controllers: a sync method that returns undefined is answered at once', () => {
  let app: Scope
  afterEach(async () => { await app?.close() })

  async function boot(controller: new (...args: any[]) => object, logger?: Logger): Promise<Scope> {
    @Module({ controllers: [controller] }) class Root {}
    return createApp(Root, { handlerTimeout: 60_000, logger })
  }

  it('answers 204 with no body when a void method set reply.code(204) (the NestJS delete shape)', async () => {
    @Route('/books') class Books {
      @Delete('/:id') remove(@Params('id') _id: string, @Reply() reply: Reply): void { reply.code(204) }
    }
    app = await boot(Books)
    const response = await app.inject({ method: 'DELETE', url: '/books/1' })
    expect(response.statusCode).to.equal(204)
    expect(response.body).to.equal('')
  })

  it('answers 304 with no body when a method set reply.code(304) and returned nothing (the ETag / If-None-Match shape)', async () => {
    @Route('/docs') class Docs {
      @Get('/:id') async get(@Params('id') id: string, @Reply() reply: Reply): Promise<{ id: string } | undefined> {
        reply.header('etag', '"v1"')
        if (reply.request.headers['if-none-match'] === '"v1"') { reply.code(304); return undefined }
        return { id }
      }
    }
    app = await boot(Docs)
    const fresh = await app.inject({ url: '/docs/1' })
    expect([fresh.statusCode, fresh.json()]).to.deep.equal([200, { id: '1' }])
    const cached = await app.inject({ url: '/docs/1', headers: { 'if-none-match': '"v1"' } })
    expect([cached.statusCode, cached.body, cached.headers.etag]).to.deep.equal([304, '', '"v1"'])
  })

  it('answers the coded 500 ENC_ERR_REPLY_NOTHING_SENT at once when a sync method returns nothing and sent nothing', async () => {
    @Route() class Forgetful {
      @Get('/nothing') nothing(): void {}
      @Get('/nothing/:id') nothingWithParams(@Params('id') _id: string): void {}
    }
    const logger = recordingLogger()
    app = await boot(Forgetful, logger)
    for (const url of ['/nothing', '/nothing/1']) {
      const response = await app.inject({ url })
      expect(response.statusCode, url).to.equal(500)
    }
    const codes = logger.entries.filter((e) => e.level === 'error').map((e) => (e.obj.err as { code?: string } | undefined)?.code)
    expect(codes).to.deep.equal(['ENC_ERR_REPLY_NOTHING_SENT', 'ENC_ERR_REPLY_NOTHING_SENT'])
  })

  it('a void @Post method (NestJS answers 201, empty) is a 500 without @HttpCode(204), and 204 with it (docs/migrating-from-nestjs.md, "Coming from NestJS")', async () => {
    @Route('/jobs') class Jobs {
      @Post('/touch') touch(): void {}
      @HttpCode(204) @Post('/ping') ping(): void {}
    }
    app = await boot(Jobs)
    expect((await app.inject({ method: 'POST', url: '/jobs/touch' })).statusCode).to.equal(500)
    const ping = await app.inject({ method: 'POST', url: '/jobs/ping' })
    expect([ping.statusCode, ping.body]).to.deep.equal([204, ''])
  })

  it('keeps what a sync method sent itself with reply.send()', async () => {
    @Route() class Sender {
      @Get('/sent') sent(@Reply() reply: Reply): void { reply.code(201).send({ ok: true }) }
    }
    app = await boot(Sender)
    const response = await app.inject({ url: '/sent' })
    expect(response.statusCode).to.equal(201)
    expect(response.json()).to.deep.equal({ ok: true })
  })
})
