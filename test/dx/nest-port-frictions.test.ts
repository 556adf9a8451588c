import 'reflect-metadata'
import { expect } from 'chai'
import { injectable } from 'tsyringe'
import { Get, Module, Route } from '../../src/decorators'
import { createApp } from '../../src/modules'
import { createServer } from '../../src/runtime'

describe('NestJS habits met porting a shop (nest9)', () => {
  it('app.get(Service) (NestJS reads a provider) is refused with ENC_ERR_ROUTE_INVALID naming resolveProvider, not a TypeError', async () => {
    @injectable() class Logging { lines: string[] = [] }
    @Route('/') class C { @Get('/') g() { return {} } }
    @Module({ providers: [Logging], controllers: [C] }) class AppModule {}
    const app = await createApp(AppModule)
    try {
      const error = (() => { try { (app.get as unknown as (t: unknown) => void)(Logging); return null } catch (e) { return e as Error & { code: string } } })()
      expect(error?.code).to.equal('ENC_ERR_ROUTE_INVALID')
      expect(error?.message).to.contain('get(Logging) declares a route').and.contain('resolveProvider(app, Logging)')
    } finally { await app.close() }
  })

  it('a route shortcut without handler nor options says it has no handler function', () => {
    const app = createServer()
    const error = (() => { try { (app.get as unknown as (p: string) => void)('/x'); return null } catch (e) { return e as Error & { code: string } } })()
    expect(error?.code).to.equal('ENC_ERR_ROUTE_INVALID')
    expect(error?.message).to.contain('GET /x has no handler function')
  })
})
