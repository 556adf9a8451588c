// register(factory) where register(factory(options)) was meant: the factory runs as the plugin,
// returns the real plugin function, and Enclave (which finishes a plugin without done when it
// returns) used to boot without any of its routes: every request a 404. Now boot fails with
// ENC_ERR_PLUGIN_RETURNED_FUNCTION naming the plugin and the call to write.
import { expect } from 'chai'
import { createServer, type Scope } from '../../src'

describe('dx: a plugin factory registered without being called fails boot (ENC_ERR_PLUGIN_RETURNED_FUNCTION)', () => {
  it('register(notesRoutes) for register(notesRoutes({ prefix })): names the factory and the fix', async () => {
    const notesRoutes = (options: { max: number }) => async function notes(scope: Scope) { scope.get('/notes', async () => ({ max: options.max })) }
    const app = createServer()
    app.register(notesRoutes as never)
    const error = await app.ready().then(() => null, (e: unknown) => e as Error & { code?: string })
    await app.close()
    expect(error?.code).to.equal('ENC_ERR_PLUGIN_RETURNED_FUNCTION')
    expect(error?.message).to.include('notesRoutes returned a function (notes)').and.include('register(notesRoutes(options))')
  })

  it('an async plugin that resolves to a function (register(async () => notes)) is the same slip: refused, naming it', async () => {
    async function notes(scope: Scope) { scope.get('/notes', async () => []) }
    const app = createServer()
    app.register((async function loadNotes() { return notes }) as never)
    const error = await app.ready().then(() => null, (e: unknown) => e as Error & { code?: string })
    await app.close()
    expect(error?.code).to.equal('ENC_ERR_PLUGIN_RETURNED_FUNCTION')
    expect(error?.message).to.include('loadNotes returned a function (notes)')
  })

  it('the called factory, an async plugin and a sync plugin returning nothing (or the scope) boot as before', async () => {
    const notesRoutes = (options: { max: number }) => async function notes(scope: Scope) { scope.get('/notes', async () => ({ max: options.max })) }
    const app = createServer()
    app.register(notesRoutes({ max: 3 }))
    app.register((scope: Scope) => { scope.get('/sync', async () => 'sync') })
    app.register(((scope: Scope) => scope.get('/chained', async () => 'chained')) as never)
    app.register((async (scope: Scope) => scope.get('/async-chained', async () => 'async')) as never)
    try {
      expect((await app.inject('/notes')).json()).to.deep.equal({ max: 3 })
      expect((await app.inject('/sync')).body).to.equal('sync')
      expect((await app.inject('/chained')).body).to.equal('chained')
      expect((await app.inject('/async-chained')).body).to.equal('async')
    } finally { await app.close() }
  })
})
