// Node's 'clientError' event for a socket that is already destroyed (the client reset it, or
// another listener closed it): nothing can be written and nothing is left to close, so the
// built-in answer leaves it alone, as Fastify 3.27.4's default clientError handler does.
import { expect } from 'chai'
import { build } from './helpers'

describe('client errors on a destroyed socket', () => {
  it('a clientError on an already destroyed socket writes nothing and does not close it again', async () => {
    const app = await build(() => undefined)
    const calls: string[] = []
    const socket = {
      destroyed: true,
      writable: false,
      write: () => { calls.push('write') },
      end: () => { calls.push('end') },
      destroy: () => { calls.push('destroy') },
    }
    app.server.emit('clientError', Object.assign(new Error('parse error'), { code: 'HPE_INVALID_METHOD' }), socket)
    await new Promise((resolve) => setImmediate(resolve))
    expect(calls).to.deep.equal([])
    await app.close()
  })
})
