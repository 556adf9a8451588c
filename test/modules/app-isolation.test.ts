import 'reflect-metadata'
import { expect } from 'chai'
import { DecorateRequest, Get, Module, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'
import type { Request, Scope } from '../../src/runtime'
import { bootError } from './helpers'

declare module '../../src/runtime' {
  interface RequestDecorations { tenantA: string; tenantB: string }
}

describe('modules: apps in one process never see each other\'s declarations (issue 11)', () => {
  const apps: Scope[] = []
  after(async () => { for (const app of apps) await app.close() })

  it('two apps booted side by side serve only their own routes and request decorators', async () => {
    @Route('/a') class ControllerA { @Get('/') a(request: Request) { return { app: 'a', tenant: request.tenantA ?? null, other: request.tenantB ?? null } } }
    @DecorateRequest('tenantA', 'alpha') @Module({ controllers: [ControllerA] }) class AppA {}
    @Route('/b') class ControllerB { @Get('/') b(request: Request) { return { app: 'b', tenant: request.tenantB ?? null, other: request.tenantA ?? null } } }
    @DecorateRequest('tenantB', 'beta') @Module({ controllers: [ControllerB] }) class AppB {}
    const a = await createApp(AppA)
    apps.push(a)
    const b = await createApp(AppB)
    apps.push(b)
    expect((await a.inject('/a')).json()).to.deep.equal({ app: 'a', tenant: 'alpha', other: null })
    expect((await b.inject('/b')).json()).to.deep.equal({ app: 'b', tenant: 'beta', other: null })
    expect((await a.inject('/b')).statusCode).to.equal(404)
    expect((await b.inject('/a')).statusCode).to.equal(404)
    expect([a.hasRequestDecorator('tenantB'), b.hasRequestDecorator('tenantA')]).to.deep.equal([false, false])
  })

  it('a stray route class of one app (no @Route, listed nowhere) does not fail another app\'s boot', async () => {
    // Declared and never listed: before issue 11 a process-wide registry made every later createApp fail on it.
    class Stray { @Get('/stray') s() { return {} } }
    @Route() class Fine { @Get('/fine') f() { return { fine: true } } }
    @Module({ controllers: [Fine] }) class Other {}
    const app = await createApp(Other)
    apps.push(app)
    expect((await app.inject('/fine')).json()).to.deep.equal({ fine: true })
    expect((await app.inject('/stray')).statusCode).to.equal(404)
    expect(Stray.name).to.equal('Stray')
  })

  it('one app refused at boot for its own stray class leaves the next app unaffected', async () => {
    class HalfDone { @Get('/half') h() { return {} } }
    @Module({ providers: [HalfDone] }) class Broken {}
    expect((await bootError(Broken)).code).to.equal('ENC_ERR_MODULE_UNLISTED_CONTROLLER')
    @Route() class Ok { @Get('/ok') ok() { return { ok: true } } }
    @Module({ controllers: [Ok] }) class Healthy {}
    const app = await createApp(Healthy)
    apps.push(app)
    expect((await app.inject('/ok')).json()).to.deep.equal({ ok: true })
  })
})
