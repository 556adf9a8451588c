import 'reflect-metadata'
import { expect } from 'chai'
import { injectable } from 'tsyringe'
import { Get, Module, OnError, OnRequest, OnResponse, OnSend, PreHandler, PreParsing, PreSerialization, Post, Route, routeMetadata } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { HttpError } from '../../src/runtime'
import type { Reply, Request } from '../../src/runtime'
import { bootError } from '../modules/helpers'

describe('interceptor stages as route hooks: @PreParsing, @PreSerialization, @OnSend, @OnResponse, @OnError (NestJS interceptors)', () => {
  it('@PreSerialization on a route wraps its returned value ({ data }) before serialization; other routes are untouched', async () => {
    const wrap = async (_request: Request, _reply: Reply, payload: unknown) => ({ data: payload })
    @Route('/') class C {
      @PreSerialization(wrap) @Get('/wrapped') wrapped() { return { id: 1 } }
      @Get('/plain') plain() { return { id: 2 } }
    }
    @Module({ controllers: [C] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      expect((await app.inject({ url: '/wrapped' })).json()).to.deep.equal({ data: { id: 1 } })
      expect((await app.inject({ url: '/plain' })).json()).to.deep.equal({ id: 2 })
    } finally { await app.close() }
  })

  it('a cache interceptor as hook classes: @PreHandler answers a hit, @OnSend stores the serialized 200 payload, one injected store', async () => {
    const Ttl = routeMetadata<number>('cacheTtl')
    @injectable() class Store { readonly entries = new Map<string, string>() }
    @injectable() class CacheLookup {
      constructor(private readonly store: Store) {}
      handle(request: Request, reply: Reply) {
        const hit = this.store.entries.get(request.url)
        return hit === undefined ? true : reply.header('x-cache', 'hit').type('application/json').send(hit)
      }
    }
    @injectable() class CacheStore {
      constructor(private readonly store: Store) {}
      async handle(request: Request, reply: Reply, payload: unknown) {
        if (reply.statusCode === 200 && typeof payload === 'string' && Ttl.of(request) !== undefined) this.store.entries.set(request.url, payload)
        return payload
      }
    }
    let calls = 0
    @PreHandler(CacheLookup) @OnSend(CacheStore)
    @Route('/cats') class CatsController { @Ttl(5) @Get('/') list() { calls++; return [{ name: 'tom', calls }] } }
    @Module({ providers: [Store, CacheLookup, CacheStore], controllers: [CatsController] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      const first = await app.inject({ url: '/cats' })
      expect(first.headers['x-cache']).to.equal(undefined)
      const second = await app.inject({ url: '/cats' })
      expect(second.headers['x-cache']).to.equal('hit')
      expect(second.json()).to.deep.equal([{ name: 'tom', calls: 1 }])
      expect(calls).to.equal(1)
    } finally { await app.close() }
  })

  it('@OnResponse runs after the answer went out, for a logging interceptor; @OnError observes an error that reaches the built-in reply', async () => {
    const log: string[] = []
    @injectable() class Timing { handle(request: Request, reply: Reply) { log.push(`${request.method} ${request.url} ${reply.statusCode}`) } }
    @OnResponse(Timing)
    @Route('/') class C {
      @OnError(async (_request: Request, _reply: Reply, error: Error) => { log.push(`error: ${error.message}`) })
      @Get('/fail') fail() { throw new HttpError(409, 'taken') }
      @Get('/ok') ok() { return {} }
    }
    @Module({ providers: [Timing], controllers: [C] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      expect((await app.inject({ url: '/ok' })).statusCode).to.equal(200)
      expect((await app.inject({ url: '/fail' })).statusCode).to.equal(409)
      expect(log).to.deep.equal(['GET /ok 200', 'error: taken', 'GET /fail 409'])
    } finally { await app.close() }
  })

  it('@PreParsing sees the raw body stream before it is read', async () => {
    const seen: string[] = []
    @Route('/') class C {
      @PreParsing(async (request: Request, _reply: Reply, payload: NodeJS.ReadableStream) => { seen.push(String(request.headers['content-type'])); return payload })
      @Post('/') create() { return { ok: true } }
    }
    @Module({ controllers: [C] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      expect((await app.inject({ method: 'POST', url: '/', payload: { a: 1 } })).json()).to.deep.equal({ ok: true })
      expect(seen).to.deep.equal(['application/json'])
    } finally { await app.close() }
  })

  it('run in the same order as guards: module, controller, method, then the route options\' own', async () => {
    const add = (label: string) => async (_request: Request, _reply: Reply, payload: unknown) => [...(payload as string[]), label]
    @PreSerialization(add('controller'))
    @Route('/') class C { @PreSerialization(add('method')) @Get('/', { preSerialization: add('option') }) g() { return ['handler'] } }
    @PreSerialization(add('module')) @Module({ controllers: [C] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      expect((await app.inject({ url: '/' })).json()).to.deep.equal(['handler', 'module', 'controller', 'method', 'option'])
    } finally { await app.close() }
  })

  it('a hook class returning false at a stage that is not a guard denies nothing: false means what the stage\'s hook result means', async () => {
    @injectable() class Observer { handle() { return false } }
    @Route('/') class C { @OnResponse(Observer) @OnRequest(() => undefined) @Get('/') g() { return { ok: true } } }
    @Module({ providers: [Observer], controllers: [C] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      expect((await app.inject({ url: '/' })).json()).to.deep.equal({ ok: true })
    } finally { await app.close() }
  })

  it('refuses at boot an interceptor stage hook on a controller method that declares no route', async () => {
    @Route('/') class C { @Get('/') ok() { return {} } @OnSend(async (_q: Request, _r: Reply, p: unknown) => p) helper() {} }
    @Module({ controllers: [C] }) class AppModule {}
    const error = await bootError(AppModule)
    expect(error.code).to.equal('ENC_ERR_MODULE_ROUTE_HOOK_MISPLACED')
    expect(error.message).to.contain('C.helper').and.contain('declares no route')
  })
})
