// The runtime API's request scope (docs/request-scope.md, "Request-scoped providers"): a handler wrapped in
// withRequestScope() resolves request-scoped providers with resolveProvider(request, Token),
// per request, shared within it, released when it settled, as a decorator route's are.
import 'reflect-metadata'
import { expect } from 'chai'
import { inject, injectable } from 'tsyringe'
import {
  HttpError, Module, REQUEST, RequestScoped, Transient, createApp, resolveProvider, withRequestScope,
  type Request, type RequestEnd, type Scope,
} from '../../src'

let serial = 0

describe('request scope in the runtime API: withRequestScope() and resolveProvider(request, Token)', () => {
  const log: string[] = []
  @RequestScoped() class Tenant { readonly id = ++serial; constructor(@inject(REQUEST) readonly request: Request) {} get name() { return String(this.request.headers['x-tenant']) } }
  @injectable() class Notes { constructor(readonly tenant: Tenant) {} }
  @injectable() class Clock { readonly booted = ++serial }
  const tx = { provide: 'tx', scope: 'request' as const, useFactory: () => { log.push('begin'); return { open: true } }, dispose: (_v: unknown, end: RequestEnd) => { log.push(`${end.failed ? 'rollback' : 'commit'} ${end.error instanceof Error ? end.error.message : ''}`.trim()) } }

  const routes = async (scope: Scope) => {
    scope.get('/tenant', withRequestScope(async (request: Request) => {
      const tenant = await resolveProvider(request, Tenant)
      const notes = await resolveProvider(request, Notes)
      return { id: tenant.id, same: notes.tenant === tenant, name: tenant.name }
    }))
    scope.get('/clock', async (request: Request) => ({ booted: (await resolveProvider(request, Clock)).booted }))
    scope.post('/write', withRequestScope(async (request: Request) => {
      await resolveProvider(request, 'tx')
      log.push('handler')
      if (request.headers['x-fail'] === 'yes') throw new HttpError(409, 'conflict')
      return { ok: true }
    }))
    scope.get('/unwrapped', async (request: Request) => {
      try { return { id: (await resolveProvider(request, Tenant)).id } } catch (error) { return { code: (error as { code?: string }).code, message: (error as Error).message } }
    })
  }
  @Module({ providers: [Tenant, Notes, Clock, tx], plugins: [routes] }) class Root {}

  it('builds a request-scoped provider per request, shared within it (what injects it gets the same one)', async () => {
    const app = await createApp(Root)
    const first = (await app.inject({ url: '/tenant', headers: { 'x-tenant': 'acme' } })).json<{ id: number; same: boolean; name: string }>()
    const second = (await app.inject({ url: '/tenant', headers: { 'x-tenant': 'globex' } })).json<{ id: number; same: boolean; name: string }>()
    expect(first).to.include({ same: true, name: 'acme' })
    expect(second).to.include({ same: true, name: 'globex' })
    expect(second.id).to.not.equal(first.id)
    await app.close()
  })

  it('gives a singleton as it is, in any handler (no wrapper needed)', async () => {
    const app = await createApp(Root)
    const booted = resolveProvider(app, Clock).booted
    expect((await app.inject({ url: '/clock' })).json()).to.deep.equal({ booted })
    await app.close()
  })

  it('releases what the handler resolved once it settled, with end.failed when it threw', async () => {
    const app = await createApp(Root)
    log.length = 0
    expect((await app.inject({ method: 'POST', url: '/write' })).statusCode).to.equal(200)
    expect(log.splice(0)).to.deep.equal(['begin', 'handler', 'commit'])
    expect((await app.inject({ method: 'POST', url: '/write', headers: { 'x-fail': 'yes' } })).statusCode).to.equal(409)
    expect(log.splice(0)).to.deep.equal(['begin', 'handler', 'rollback conflict'])
    await app.close()
  })

  it('refuses a request-scoped provider in a handler without withRequestScope(), coded, naming the wrapper', async () => {
    const app = await createApp(Root)
    const seen = (await app.inject({ url: '/unwrapped' })).json<{ code: string; message: string }>()
    expect(seen.code).to.equal('ENC_ERR_MODULE_REQUEST_SCOPE')
    expect(seen.message).to.contain('resolveProvider(request, Tenant)').and.contain('withRequestScope(')
    await app.close()
  })
})

describe('request scope in the runtime API types (compiled by tsc)', () => {
  it('types resolveProvider(request, Token) as a promise of the token\'s type', () => {
    const check = async (request: Request, app: Scope): Promise<void> => {
      class Tenant { name = 'x' }
      const tenant: Tenant = await resolveProvider(request, Tenant)
      // @ts-expect-error in a handler it is a promise: await it
      const notAwaited: Tenant = resolveProvider(request, Tenant)
      const fromApp: Tenant = resolveProvider(app, Tenant)
      void [tenant, notAwaited, fromApp]
    }
    void check
  })
})

describe('request scope in the runtime API: a factory that never settles', () => {
  it('is given up at handlerTimeout (503) in resolveProvider(request, ...), and what the request built is released', async () => {
    const log: string[] = []
    const routes = async (scope: Scope) => {
      scope.get('/stuck', { handlerTimeout: 50 } as never, withRequestScope(async (request: Request) => {
        await resolveProvider(request, 'first')
        await resolveProvider(request, 'stuck')
        log.push('handler')
        return { ok: true }
      }))
    }
    @Module({
      providers: [
        { provide: 'first', scope: 'request', useFactory: () => 'first', dispose: (_v: string, end: RequestEnd) => { log.push(`dispose first failed=${end.failed}`) } },
        { provide: 'stuck', scope: 'request', useFactory: () => new Promise<string>(() => undefined) },
      ],
      plugins: [routes],
    })
    class Root {}
    const app = await createApp(Root)
    expect((await app.inject({ url: '/stuck' })).statusCode).to.equal(503)
    await new Promise((resolve) => setTimeout(resolve, 5))
    expect(log).to.deep.equal(['dispose first failed=true'])
    await app.close()
  })

  it('releases each transient resolveProvider(request, T) builds with that request: 1,000 requests leave none behind, close() releases none of them again', async () => {
    const live = new Set<object>()
    let built = 0
    let disposed = 0
    @Transient() class Scratch {
      constructor() { built++; live.add(this) }
      dispose(end: RequestEnd) { disposed++; live.delete(this); if (end.failed) throw new Error('unexpected failed end') }
    }
    const plugin = async (scope: Scope) => {
      scope.get('/scratch', withRequestScope(async (request: Request) => {
        const a = await resolveProvider(request, Scratch)
        const b = await resolveProvider(request, 'alias')
        return { fresh: a !== b }
      }))
      scope.get('/unwrapped', async (request: Request) => {
        try { await resolveProvider(request, Scratch); return { ok: true } } catch (error) { return { code: (error as { code?: string }).code } }
      })
    }
    @Module({ providers: [Scratch, { provide: 'alias', useExisting: Scratch }], plugins: [plugin] }) class TransientRoot {}
    const app = await createApp(TransientRoot)
    for (let batch = 0; batch < 10; batch++) {
      const answers = await Promise.all(Array.from({ length: 100 }, () => app.inject({ url: '/scratch' })))
      for (const answer of answers) expect(answer.json()).to.deep.equal({ fresh: true })
    }
    expect(built).to.equal(2_000)
    expect(live.size).to.equal(0)
    expect(disposed).to.equal(2_000)
    // Without withRequestScope() nothing would release it: refused, as a request-scoped token is.
    expect((await app.inject({ url: '/unwrapped' })).json()).to.deep.equal({ code: 'ENC_ERR_MODULE_REQUEST_SCOPE' })
    await app.close()
    expect(disposed).to.equal(2_000)
  })
})
