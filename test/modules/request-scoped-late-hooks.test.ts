// Request-scoped hook classes at every stage (docs/request-scope.md, "Request-scoped providers"): a hook class that
// injects a request-scoped provider runs at preParsing and after the handler too (preSerialization,
// onSend, onResponse, onError), sharing the request's instances; the release then waits for the end
// of the request and runs exactly once however the request ends.
import 'reflect-metadata'
import { expect } from 'chai'
import { request as httpRequest } from 'node:http'
import { Readable } from 'node:stream'
import { injectable } from 'tsyringe'
import { poll } from '../support/until'
import {
  Get, HttpError, Module, NotFoundHandler, OnError, OnResponse, OnSend, OnTimeout, Post, PreHandler, PreParsing, PreSerialization, RequestScoped, Route,
  createApp, type Reply, type Request, type RequestEnd,
} from '../../src'

const tick = (ms = 0): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
let serial = 0

interface Seen { parse?: number; serialize?: number; errorHook?: number; response?: number }
const seen = (request: Request): Seen => ((request as unknown as { seen?: Seen }).seen ??= {})

/** Waits (bounded) until `check` holds: the end-of-request release may run after inject() resolved. */
const eventually = (check: () => boolean): Promise<boolean> => poll(check, { ms: 2_000, every: 5 })

describe('request-scoped hook classes after the handler and at preParsing (docs/request-scope.md, "Request-scoped providers")', () => {
  it('shares one Tenant between a preParsing hook, the handler, preSerialization and onSend hooks; released once, after them', async () => {
    const log: string[] = []
    @RequestScoped() class Tenant {
      readonly id = ++serial
      dispose(end: RequestEnd) { log.push(`dispose ${this.id} failed=${end.failed}`) }
    }
    @injectable() class ParseHook {
      constructor(readonly tenant: Tenant) {}
      async handle(request: Request, _reply: Reply, payload: unknown) { seen(request).parse = this.tenant.id; return payload }
    }
    @injectable() class Wrap {
      constructor(readonly tenant: Tenant) {}
      handle(request: Request, _reply: Reply, payload: unknown) { seen(request).serialize = this.tenant.id; return { data: payload } }
    }
    @injectable() class Stamp {
      constructor(readonly tenant: Tenant) {}
      handle(_request: Request, reply: Reply, payload: unknown) { log.push(`onSend ${this.tenant.id}`); reply.header('x-tenant', String(this.tenant.id)); return payload }
    }
    @Route() @PreParsing(ParseHook) @PreSerialization(Wrap) @OnSend(Stamp) class C {
      constructor(readonly tenant: Tenant) {}
      @Get('/') get(request: Request) { log.push(`handler ${this.tenant.id}`); return { parse: seen(request).parse, handler: this.tenant.id } }
    }
    @Module({ providers: [Tenant, ParseHook, Wrap, Stamp], controllers: [C] }) class Root {}
    const app = await createApp(Root)
    const first = await app.inject({ url: '/' })
    const second = await app.inject({ url: '/' })
    await eventually(() => log.filter((line) => line.startsWith('dispose')).length === 2)
    const a = first.json<{ data: { parse: number; handler: number } }>().data
    const b = second.json<{ data: { parse: number; handler: number } }>().data
    expect(a.parse).to.equal(a.handler)
    expect(first.headers['x-tenant']).to.equal(String(a.handler))
    expect(b.handler).to.not.equal(a.handler)
    expect(second.headers['x-tenant']).to.equal(String(b.handler))
    expect(log).to.deep.equal([`handler ${a.handler}`, `onSend ${a.handler}`, `dispose ${a.handler} failed=false`, `handler ${b.handler}`, `onSend ${b.handler}`, `dispose ${b.handler} failed=false`])
    await app.close()
  })

  it('runs request-scoped onError and onResponse hook classes on the same Tenant as the handler; the release comes after both', async () => {
    const log: string[] = []
    @RequestScoped() class Tenant {
      readonly id = ++serial
      dispose(end: RequestEnd) { log.push(`dispose failed=${end.failed} ${(end.error as Error | undefined)?.message ?? ''}`) }
    }
    @injectable() class ErrorAudit {
      constructor(readonly tenant: Tenant) {}
      handle(_request: Request, _reply: Reply, error: Error) { log.push(`onError ${this.tenant.id} ${error.message}`) }
    }
    @injectable() class Timing {
      constructor(readonly tenant: Tenant) {}
      async handle() { await tick(); log.push(`onResponse ${this.tenant.id}`) }
    }
    @Route() @OnError(ErrorAudit) @OnResponse(Timing) class C {
      constructor(readonly tenant: Tenant) {}
      @Get('/') get() { log.push(`handler ${this.tenant.id}`); throw new Error('boom') }
    }
    @Module({ providers: [Tenant, ErrorAudit, Timing], controllers: [C] }) class Root {}
    const app = await createApp(Root)
    expect((await app.inject({ url: '/' })).statusCode).to.equal(500)
    await eventually(() => log.some((line) => line.startsWith('dispose')))
    const id = Number(log[0].split(' ')[1])
    expect(log).to.deep.equal([`handler ${id}`, `onError ${id} boom`, `onResponse ${id}`, 'dispose failed=true boom'])
    await app.close()
  })

  it('a late hook class that throws leaks nothing: the release still runs once', async () => {
    const log: string[] = []
    @RequestScoped() class Tenant { dispose(end: RequestEnd) { log.push(`dispose failed=${end.failed}`) } }
    @injectable() class Broken { constructor(readonly tenant: Tenant) {} handle() { throw new Error('onSend broke') } }
    @injectable() class BrokenAfter { constructor(readonly tenant: Tenant) {} handle() { throw new Error('onResponse broke') } }
    @Route() @OnSend(Broken) @OnResponse(BrokenAfter) class C { @Get('/') get() { return { ok: true } } }
    @Module({ providers: [Tenant, Broken, BrokenAfter], controllers: [C] }) class Root {}
    const app = await createApp(Root, { logger: false })
    expect((await app.inject({ url: '/' })).statusCode).to.equal(500)
    await eventually(() => log.length > 0)
    await tick(20)
    expect(log).to.deep.equal(['dispose failed=false'])
    await app.close()
  })
})

describe('request-scoped hook classes written with done (docs/request-scope.md, "Request-scoped providers")', () => {
  it('calls a done-style handle at preParsing and onSend with the stage arguments and done, on the request\'s Tenant', async () => {
    const log: string[] = []
    @RequestScoped() class Tenant { readonly id = ++serial; dispose() { log.push('dispose') } }
    @injectable() class ParseHook {
      constructor(readonly tenant: Tenant) {}
      handle(request: Request, _reply: Reply, payload: NodeJS.ReadableStream, done: (error: Error | null, payload?: NodeJS.ReadableStream) => void) { seen(request).parse = this.tenant.id; setTimeout(() => done(null, payload), 1) }
    }
    @injectable() class Stamp {
      constructor(readonly tenant: Tenant) {}
      handle(_request: Request, reply: Reply, payload: unknown, done: (error: Error | null, payload?: unknown) => void) {
        reply.header('x-tenant', String(this.tenant.id))
        setTimeout(() => done(null, String(payload).replace('}', ',"stamped":true}')), 1)
      }
    }
    @injectable() class Refuse {
      constructor(readonly tenant: Tenant) {}
      handle(_request: Request, _reply: Reply, _payload: NodeJS.ReadableStream, done: (error: Error | null) => void) { done(new HttpError(418, 'no tea')) }
    }
    @Route() class C {
      constructor(readonly tenant: Tenant) {}
      @Get('/') @PreParsing(ParseHook) @OnSend(Stamp) get(request: Request) { return { parse: seen(request).parse, handler: this.tenant.id } }
      @Get('/refuse') @PreParsing(Refuse) refuse() { return { reached: true } }
    }
    @Module({ providers: [Tenant, ParseHook, Stamp, Refuse], controllers: [C] }) class Root {}
    const app = await createApp(Root)
    const response = await app.inject({ url: '/' })
    const body = response.json<{ parse: number; handler: number; stamped: boolean }>()
    expect(body.parse).to.equal(body.handler)
    expect(body.stamped).to.equal(true)
    expect(response.headers['x-tenant']).to.equal(String(body.handler))
    const refused = await app.inject({ url: '/refuse' })
    expect(refused.statusCode).to.equal(418)
    await eventually(() => log.length === 2)
    expect(log).to.deep.equal(['dispose', 'dispose'])
    await app.close()
  })
})

describe('a request-scoped hook class is called in the style its singleton would be', () => {
  it('a sync preParsing handle with two declared parameters (the payload read through a rest parameter) gets the payload and replaces it, as a singleton\'s does', async () => {
    @RequestScoped() class Tenant { readonly id = ++serial }
    const upper = (payload: NodeJS.ReadableStream): Readable => Readable.from((async function* () { for await (const chunk of payload) yield String(chunk).toUpperCase() })())
    // Two declared parameters, not async: the payload form (the legacy forms are async (request, reply) and sync (request, reply, done)).
    @injectable() class Shout {
      handle(_request: Request, _reply: Reply, ...[payload]: [NodeJS.ReadableStream]) { return Promise.resolve(upper(payload)) }
    }
    @injectable() class ShoutScoped {
      constructor(readonly tenant: Tenant) {}
      handle(_request: Request, _reply: Reply, ...[payload]: [NodeJS.ReadableStream]) { return Promise.resolve(upper(payload)) }
    }
    @Route() class C {
      @Post('/singleton') @PreParsing(Shout) singleton(request: Request) { return { body: request.body } }
      @Post('/scoped') @PreParsing(ShoutScoped) scoped(request: Request) { return { body: request.body } }
    }
    @Module({ providers: [Tenant, Shout, ShoutScoped], controllers: [C] }) class Root {}
    const app = await createApp(Root, { logger: false })
    for (const url of ['/singleton', '/scoped']) {
      const res = await app.inject({ method: 'POST', url, headers: { 'content-type': 'text/plain' }, payload: 'quiet words' })
      expect([url, res.json()]).to.deep.equal([url, { body: 'QUIET WORDS' }])
    }
    await app.close()
  })
})

describe('the end-of-request release with a late request-scoped hook runs exactly once in each end', () => {
  async function appWithEnds(log: string[]) {
    @RequestScoped() class Tenant {
      readonly id = ++serial
      dispose(end: RequestEnd) { log.push(`dispose failed=${end.failed}`) }
    }
    @injectable() class ParseHook { constructor(readonly tenant: Tenant) {} async handle(request: Request, _reply: Reply, payload: unknown) { seen(request).parse = this.tenant.id; return payload } }
    @injectable() class Stamp { constructor(readonly tenant: Tenant) {} handle(_r: Request, reply: Reply, payload: unknown) { reply.header('x-tenant', String(this.tenant.id)); return payload } }
    @Route() @PreParsing(ParseHook) @OnSend(Stamp) class C {
      constructor(readonly tenant: Tenant) {}
      @Get('/ok') ok() { return { ok: this.tenant.id } }
      @Post('/body', { schema: { body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } }) body() { return { ok: true } }
      @Get('/throws') throws() { throw new HttpError(409, 'taken') }
      @Get('/hijack') hijack(_request: Request, reply: Reply) {
        reply.hijack()
        setTimeout(() => { reply.raw.writeHead(200, { 'content-type': 'text/plain' }); reply.raw.end(`hijacked ${this.tenant.id}`) }, 10)
      }
      @Get('/slow', { handlerTimeout: 50 } as never) async slow() { await tick(150); return { late: true } }
      @Get('/gone') async gone(request: Request) {
        log.push('gone: handler started')
        await new Promise<void>((resolve) => { if (request.signal.aborted) resolve(); else request.signal.addEventListener('abort', () => resolve(), { once: true }) })
        await tick(10)
        log.push('gone: handler settled')
        return { ok: true }
      }
    }
    @Module({ providers: [Tenant, ParseHook, Stamp], controllers: [C] }) class Root {}
    return createApp(Root, { logger: false })
  }
  const releases = (log: string[]): string[] => log.filter((line) => line.startsWith('dispose'))

  it('200, 400 (validation), a thrown error, reply.hijack(), handlerTimeout 503', async () => {
    const log: string[] = []
    const app = await appWithEnds(log)
    const cases: Array<[string, () => Promise<{ statusCode: number; body: string }>, number, string]> = [
      ['200', () => app.inject({ url: '/ok' }), 200, 'dispose failed=false'],
      ['400', () => app.inject({ method: 'POST', url: '/body', payload: { other: 1 } }), 400, 'dispose failed=true'],
      ['thrown', () => app.inject({ url: '/throws' }), 409, 'dispose failed=true'],
      ['hijack', () => app.inject({ url: '/hijack' }), 200, 'dispose failed=false'],
      ['503', () => app.inject({ url: '/slow' }), 503, 'dispose failed=false'],
    ]
    for (const [name, send, status, release] of cases) {
      log.length = 0
      const response = await send()
      expect(response.statusCode, name).to.equal(status)
      // The slow handler settles 100 ms after its 503: the release waits for it.
      await eventually(() => releases(log).length > 0)
      await tick(name === '503' ? 150 : 20)
      expect(releases(log), name).to.deep.equal([release])
      if (name === 'hijack') expect(response.body).to.match(/^hijacked \d+$/)
    }
    await app.close()
  })

  it('a client that goes away while the handler runs: released once, when the handler settled', async () => {
    const log: string[] = []
    const app = await appWithEnds(log)
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = new URL(address)
    const client = httpRequest({ host: '127.0.0.1', port, path: '/gone' })
    client.on('error', () => undefined)
    client.end()
    await eventually(() => log.includes('gone: handler started'))
    client.destroy()
    await eventually(() => releases(log).length > 0)
    await tick(30)
    expect(log).to.deep.equal(['gone: handler started', 'gone: handler settled', 'dispose failed=false'])
    await app.close()
  })
})

describe('reply.callNotFound() on a route whose request-scoped instances are released at the end (NOTE21 leftover)', () => {
  async function appWithNotFound(log: string[]) {
    @RequestScoped() class Tenant {
      readonly id = ++serial
      dispose(end: RequestEnd) { log.push(`dispose failed=${end.failed}`) }
    }
    @injectable() class Stamp { constructor(readonly tenant: Tenant) {} handle(_r: Request, reply: Reply, payload: unknown) { reply.header('x-tenant', String(this.tenant.id)); return payload } }
    @injectable() class Audit { constructor(readonly tenant: Tenant) {} async handle() { log.push(`audit ${this.tenant.id}`) } }
    @injectable() class TenantGuard { constructor(readonly tenant: Tenant) {} handle() { return true } }
    // A later hook that hands the request over to the not-found handler before the handler runs.
    const handOver = async (_request: Request, reply: Reply) => { reply.callNotFound(); return reply }
    @Route() class C {
      constructor(readonly tenant: Tenant) {}
      @Get('/late') @OnSend(Stamp) @OnResponse(Audit) missing(_request: Request, reply: Reply) { reply.callNotFound() }
      @Get('/late-async') @OnSend(Stamp) async missingLater(_request: Request, reply: Reply) { await tick(5); reply.callNotFound(); return reply }
      @Get('/guarded') @PreHandler(TenantGuard, handOver) guarded() { return { never: true } }
      @Get('/ok') @OnSend(Stamp) ok() { return { ok: this.tenant.id } }
    }
    @Module({ providers: [Tenant, Stamp, Audit, TenantGuard], controllers: [C] }) class Root {
      @NotFoundHandler() notFound(_request: Request, reply: Reply) { return reply.code(404).send({ missing: true }) }
    }
    return createApp(Root, { logger: false })
  }
  const releases = (log: string[]): string[] => log.filter((line) => line.startsWith('dispose'))

  it('releases exactly once after the not-found answer: from the handler (sync and async) and from a hook after a request-scoped guard', async () => {
    const log: string[] = []
    const app = await appWithNotFound(log)
    const cases: Array<[string, string]> = [
      ['/late', 'dispose failed=false'],
      ['/late-async', 'dispose failed=false'],
      // The handler never ran: the release says so, as for a guard's denial.
      ['/guarded', 'dispose failed=true'],
    ]
    for (const [url, release] of cases) {
      log.length = 0
      const response = await app.inject({ url })
      expect(response.statusCode, url).to.equal(404)
      expect(response.json(), url).to.deep.equal({ missing: true })
      await eventually(() => releases(log).length > 0)
      await tick(30)
      expect(releases(log), url).to.deep.equal([release])
      // Fastify 3's context switch: the calling route's onResponse hooks (Audit) do not run.
      expect(log.filter((line) => line.startsWith('audit')), url).to.deep.equal([])
    }
    // The route's own end still releases once where callNotFound() is not called.
    log.length = 0
    expect((await app.inject({ url: '/ok' })).statusCode).to.equal(200)
    await eventually(() => releases(log).length > 0)
    await tick(20)
    expect(releases(log)).to.deep.equal(['dispose failed=false'])
    await app.close()
  })

  it('100 requests through callNotFound(): 100 Tenants built, 100 released', async () => {
    const log: string[] = []
    const app = await appWithNotFound(log)
    const before = serial
    for (let i = 0; i < 100; i++) expect((await app.inject({ url: i % 2 === 0 ? '/late' : '/guarded' })).statusCode).to.equal(404)
    await eventually(() => releases(log).length >= 100)
    await tick(20)
    expect(serial - before).to.equal(100)
    expect(releases(log)).to.have.length(100)
    await app.close()
  })
})

describe('reply.callNotFound() hands the request-scoped release over through the runtime, not a per-request wrapper (perf23)', () => {
  it("leaves the reply's callNotFound the class's own method on a request-scoped route, and a call after the answer was sent releases once, at the route's own end", async () => {
    const log: string[] = []
    const replies: Reply[] = []
    @RequestScoped() class Tenant {
      readonly id = ++serial
      dispose(end: RequestEnd) { log.push(`dispose ${this.id} failed=${end.failed}`) }
    }
    @Route() class C {
      constructor(readonly tenant: Tenant) {}
      @Get('/kept') kept(_request: Request, reply: Reply) { replies.push(reply); return { tenant: this.tenant.id } }
      @Get('/late-call') async lateCall(_request: Request, reply: Reply) {
        replies.push(reply)
        await reply.code(200).send({ tenant: this.tenant.id })
        // Already sent: the runtime ignores the call (a warning), so nothing is handed over.
        reply.callNotFound()
        return reply
      }
    }
    @Module({ providers: [Tenant], controllers: [C] }) class Root {}
    const app = await createApp(Root, { logger: false })
    expect((await app.inject({ url: '/kept' })).statusCode).to.equal(200)
    // No own property shadowing the prototype's method: the hand-over is the runtime's (onHandOver).
    expect(Object.prototype.hasOwnProperty.call(replies[0], 'callNotFound')).to.equal(false)
    await eventually(() => log.length > 0)
    log.length = 0
    const response = await app.inject({ url: '/late-call' })
    expect(response.statusCode).to.equal(200)
    expect(Object.prototype.hasOwnProperty.call(replies[1], 'callNotFound')).to.equal(false)
    await eventually(() => log.length > 0)
    await tick(20)
    expect(log).to.have.length(1)
    expect(log[0]).to.match(/^dispose \d+ failed=false$/)
    await app.close()
  })
})

describe('@OnTimeout with a request-scoped hook class (connectionTimeout; docs/request-scope.md, "Request-scoped providers")', () => {
  it('runs on the request\'s Tenant when the socket times out, and the release runs once, after the handler settled', async () => {
    const log: string[] = []
    let letGo: () => void = () => undefined
    const handlerHeld = new Promise<void>((resolve) => { letGo = resolve })
    @RequestScoped() class Tenant {
      readonly id = ++serial
      dispose(end: RequestEnd) { log.push(`dispose ${this.id} failed=${end.failed}`) }
    }
    @injectable() class TimedOut { constructor(readonly tenant: Tenant) {} async handle() { log.push(`timeout ${this.tenant.id}`) } }
    @Route() @OnTimeout(TimedOut) class C {
      constructor(readonly tenant: Tenant) {}
      @Get('/slow') async slow() { log.push(`handler ${this.tenant.id}`); await handlerHeld; return { ok: true } }
    }
    @Module({ providers: [Tenant, TimedOut], controllers: [C] }) class Root {}
    const app = await createApp(Root, { logger: false, connectionTimeout: 50, handlerTimeout: 0 })
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = new URL(address)
    const outcome = await new Promise<string>((resolve) => {
      const client = httpRequest({ host: '127.0.0.1', port, path: '/slow', agent: false }, (res) => { res.resume(); resolve(String(res.statusCode)) })
      client.on('error', (error) => resolve(error.message))
      client.end()
    })
    expect(outcome).to.equal('socket hang up')
    await eventually(() => log.some((line) => line.startsWith('timeout')))
    // The handler still holds the request: nothing is released under it.
    expect(log.filter((line) => line.startsWith('dispose'))).to.deep.equal([])
    letGo()
    await eventually(() => log.some((line) => line.startsWith('dispose')))
    await tick(20)
    const id = Number(log[0].split(' ')[1])
    expect(log).to.deep.equal([`handler ${id}`, `timeout ${id}`, `dispose ${id} failed=false`])
    await app.close()
  })
})
