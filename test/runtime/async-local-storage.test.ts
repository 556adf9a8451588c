// A hook that enters an AsyncLocalStorage store for the rest of the request
// (`storage.run(store, done)`, as Fastify 3's als.test.js and request-context plugins do) must see
// it kept through the body read over HTTP, whose last chunk arrives in the socket's own context.
import { AsyncLocalStorage } from 'node:async_hooks'
import { expect } from 'chai'
import { server } from './helpers'

describe('AsyncLocalStorage across the request lifecycle', () => {
  it('a store entered in onRequest with storage.run(store, done) is seen by the body parser, later hooks and the handler of a POST over HTTP', async () => {
    const storage = new AsyncLocalStorage<{ id: number }>()
    const app = server()
    let counter = 0
    const seen: Array<string | number | undefined> = []
    app.addHook('onRequest', (_request, _reply, done) => { storage.run({ id: counter++ }, done) })
    app.addContentTypeParser('text/x-id', { parseAs: 'string' }, (_request, body: string) => { seen.push(`parser ${storage.getStore()?.id}`); return body })
    app.addHook('preValidation', (_request, _reply, done) => { seen.push(`preValidation ${storage.getStore()?.id}`); done() })
    app.post('/', async () => ({ id: storage.getStore()?.id ?? null }))
    const url = await app.listen(0)
    try {
      const ids: unknown[] = []
      for (const [type, body] of [['application/json', '{"hello":"world"}'], ['text/x-id', 'x']]) {
        const response = await fetch(url, { method: 'POST', headers: { 'content-type': type! }, body })
        ids.push(await response.json())
      }
      expect(ids).to.deep.equal([{ id: 0 }, { id: 1 }])
      expect(seen).to.deep.equal(['preValidation 0', 'parser 1', 'preValidation 1'])
    } finally {
      await app.close()
    }
  })
})
