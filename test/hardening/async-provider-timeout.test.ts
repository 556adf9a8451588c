// An async factory provider whose promise never settles (a connection to an unreachable host)
// must not hang createApp() for ever: like a plugin that never calls done(), it is given
// pluginTimeout, then boot fails with a coded error (brief "hostile": never a hang).
import 'reflect-metadata'
import { expect } from 'chai'
import { Module } from '../../src/decorators'
import { createApp } from '../../src/modules'

async function bootFailure(root: Function, pluginTimeout: number): Promise<Error & { code?: string }> {
  try {
    const app = await createApp(root, { pluginTimeout })
    await app.close()
  } catch (error) {
    return error as Error & { code?: string }
  }
  throw new Error('createApp() was expected to reject')
}

describe('hardening: an async factory provider that never settles', () => {
  it('fails boot with ENC_ERR_MODULE_ASYNC_PROVIDER_TIMEOUT naming the token and the limit', async () => {
    @Module({ providers: [{ provide: 'db', useFactory: () => new Promise<never>(() => undefined) }] }) class Root {}
    const error = await bootFailure(Root, 20)
    expect(error.code).to.equal('ENC_ERR_MODULE_ASYNC_PROVIDER_TIMEOUT')
    expect(error.message).to.contain("'db'").and.contain('20 ms').and.contain('pluginTimeout')
  })

  it('applies to a factory another factory injects (awaited first)', async () => {
    @Module({
      providers: [
        { provide: 'repo', useFactory: (pool: unknown) => ({ pool }), inject: ['pool'] },
        { provide: 'pool', useFactory: () => new Promise<never>(() => undefined) },
      ],
    }) class Root {}
    expect((await bootFailure(Root, 20)).code).to.equal('ENC_ERR_MODULE_ASYNC_PROVIDER_TIMEOUT')
  })

  it('a factory that settles within the limit is not affected', async () => {
    @Module({ providers: [{ provide: 'db', useFactory: async () => { await new Promise((resolve) => setImmediate(resolve)); return { ok: true } } }] }) class Root {}
    const app = await createApp(Root, { pluginTimeout: 5_000 })
    await app.close()
  })
})
