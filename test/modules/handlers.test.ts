import 'reflect-metadata'
import { expect } from 'chai'
import request from 'supertest'
import { Body, Delete, Get, Headers, Params, Patch, Post, Put, Query, Reply, Req, Route, Module, Options, Head } from '../../src/decorators'
import { createApp } from '../../src/modules'
import type { Request, Scope } from '../../src/runtime'

async function boot(...controllers: Function[]): Promise<Scope> {
  @Module({ controllers: controllers as never }) class Root {}
  return createApp(Root)
}

describe('controllers: handlers built from decorated methods', () => {
  let app: Scope
  afterEach(async () => { await app?.close() })

  it('calls a handler as (request, reply) with this = the controller, and sends its return value', async () => {
    @Route('/plain') class Plain {
      readonly greeting = 'hello'
      @Get('/:name') greet(request: Request, reply: Reply) {
        reply.header('x-handler', 'plain')
        return { greeting: this.greeting, name: request.params.name }
      }
    }
    app = await boot(Plain)
    await request(app.server).get('/plain/ada').expect('x-handler', 'plain').expect(200, { greeting: 'hello', name: 'ada' })
  })

  it('supports async handlers and reply.send()', async () => {
    @Route() class Async {
      @Get('/async') async later() { return { later: true } }
      @Get('/sent') sent(_request: Request, reply: Reply) { reply.code(202).send({ sent: true }) }
    }
    app = await boot(Async)
    await request(app.server).get('/async').expect(200, { later: true })
    await request(app.server).get('/sent').expect(202, { sent: true })
  })

  it('fills decorated parameters from the request: whole parts and single properties', async () => {
    @Route('/params') class WithParams {
      @Post('/:id', { schema: { params: { id: { type: 'integer' } } } })
      all(@Params('id') id: number, @Body() body: unknown, @Query('q') q: string, @Headers('X-Trace') trace: string,
        @Req() req: Request, @Reply() reply: Reply) {
        reply.code(201)
        return { id, body, q, trace, url: req.url }
      }
      @Get('/one') one(@Query() query: unknown) { return { query } }
      @Get('/two') two(@Query('a') a: string, @Headers() headers: Record<string, string>) { return { a, host: typeof headers.host } }
    }
    app = await boot(WithParams)
    await request(app.server).post('/params/7?q=search').set('x-trace', 't1').send({ x: 1 })
      .expect(201, { id: 7, body: { x: 1 }, q: 'search', trace: 't1', url: '/params/7?q=search' })
    await request(app.server).get('/params/one?z=1').expect(200, { query: { z: '1' } })
    await request(app.server).get('/params/two?a=b').expect(200, { a: 'b', host: 'string' })
  })

  it('gives undefined for a property of a missing part', async () => {
    // A POST sent without a body (a GET's @Body() is refused at boot: test/dx/body-on-get.test.ts).
    @Route() class NoBody { @Post('/nobody') get(@Body('name') name: unknown) { return { missing: name === undefined } } }
    app = await boot(NoBody)
    await request(app.server).post('/nobody').expect(200, { missing: true })
  })

  it('gives undefined for a named body key the body lacks, even one named like an Object.prototype member', async () => {
    @Route() class Named {
      @Post('/named') named(@Body('toString') toString: unknown, @Body('constructor') ctor: unknown, @Body('__proto__') proto: unknown, @Body('name') name: unknown) {
        return { toString: typeof toString, ctor: typeof ctor, proto: typeof proto, name }
      }
    }
    app = await boot(Named)
    await request(app.server).post('/named').send({ name: 'ada' }).expect(200, { toString: 'undefined', ctor: 'undefined', proto: 'undefined', name: 'ada' })
    // The body's own value is still read.
    await request(app.server).post('/named').send({ toString: 'x', name: 'b' }).expect(200, { toString: 'string', ctor: 'undefined', proto: 'undefined', name: 'b' })
  })

  it('joins the controller prefix and the method path; an empty or / path is the prefix itself', async () => {
    @Route('/users/') class Users {
      @Get() list() { return { r: 'list' } }
      @Post('/') create() { return { r: 'create' } }
      @Get('/:id') find() { return { r: 'find' } }
    }
    @Route() class NoPrefix { @Get('/') home() { return { r: 'home' } } }
    app = await boot(Users, NoPrefix)
    await request(app.server).get('/users').expect(200, { r: 'list' })
    await request(app.server).post('/users').expect(200, { r: 'create' })
    await request(app.server).get('/users/3').expect(200, { r: 'find' })
    await request(app.server).get('/').expect(200, { r: 'home' })
  })

  it('registers every method decorator, several methods on one route, several routes on one method', async () => {
    @Route('/m') class Methods {
      @Put('/put') put() { return { m: 'put' } }
      @Patch('/patch') patch() { return { m: 'patch' } }
      @Delete('/delete') del() { return { m: 'delete' } }
      @Options('/options') options() { return { m: 'options' } }
      @Head('/head') head(_r: Request, reply: Reply) { reply.header('x-head', '1').send() }
      @Route({ method: ['GET', 'POST'], path: '/both' }) both(request: Request) { return { m: request.method } }
      @Get('/a') @Get('/b') twice(request: Request) { return { url: request.url } }
    }
    app = await boot(Methods)
    await request(app.server).put('/m/put').expect(200, { m: 'put' })
    await request(app.server).patch('/m/patch').expect(200, { m: 'patch' })
    await request(app.server).delete('/m/delete').expect(200, { m: 'delete' })
    await request(app.server).options('/m/options').expect(200, { m: 'options' })
    await request(app.server).head('/m/head').expect('x-head', '1').expect(200)
    await request(app.server).get('/m/both').expect(200, { m: 'GET' })
    await request(app.server).post('/m/both').expect(200, { m: 'POST' })
    await request(app.server).get('/m/a').expect(200, { url: '/m/a' })
    await request(app.server).get('/m/b').expect(200, { url: '/m/b' })
  })

  it('passes route options through: schema, attachValidation, route hooks, config', async () => {
    @Route() class Options_ {
      @Post('/opts', {
        schema: { body: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } }, response: { 200: { type: 'object', properties: { n: { type: 'integer' } } } } },
        preHandler: (request: Request) => { (request.body as { n: number }).n += 1 },
      })
      opts(@Body() body: { n: number }) { return { n: body.n, hidden: 'dropped by the response schema' } }

      @Post('/attached', { schema: { body: { type: 'object', required: ['n'] } }, attachValidation: true })
      attached(@Req() request: Request) { return { failed: request.validationError !== null && request.validationError !== undefined } }
    }
    app = await boot(Options_)
    await request(app.server).post('/opts').send({ n: '1' }).expect(200, { n: 2 })
    await request(app.server).post('/opts').send({}).expect(400)
    await request(app.server).post('/attached').send({}).expect(200, { failed: true })
  })

  it('serves inherited route methods, with the subclass\'s overrides and re-declarations', async () => {
    abstract class CrudController {
      abstract readonly name: string
      @Get('/') list() { return { list: this.name } }
      @Get('/:id') find() { return { find: 'base' } }
    }
    @Route('/cats') class Cats extends CrudController {
      readonly name = 'cats'
      override find() { return { find: 'cats' } }
    }
    @Route('/dogs') class Dogs extends CrudController {
      readonly name = 'dogs'
      @Get('/one/:id') override find() { return { find: 'dogs' } }
    }
    app = await boot(Cats, Dogs)
    await request(app.server).get('/cats').expect(200, { list: 'cats' })
    await request(app.server).get('/cats/1').expect(200, { find: 'cats' })
    await request(app.server).get('/dogs').expect(200, { list: 'dogs' })
    await request(app.server).get('/dogs/one/1').expect(200, { find: 'dogs' })
    await request(app.server).get('/dogs/1').expect(404)
  })

  it('constructs each listed controller once, at boot', async () => {
    let constructed = 0
    @Route() class Once {
      constructor() { constructed++ }
      @Get('/once') get() { return { constructed } }
    }
    app = await boot(Once)
    expect(constructed).to.equal(1)
    await request(app.server).get('/once').expect(200, { constructed: 1 })
    await request(app.server).get('/once').expect(200, { constructed: 1 })
  })
})
