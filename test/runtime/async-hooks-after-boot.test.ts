import { expect } from 'chai'
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'

// Issue 16 (per-request CPU): while any AsyncLocalStorage is enabled, Node runs its async hooks on
// every socket write, nextTick and promise of the process. The storage that lets an onReady hook
// call ready() is disabled once the hooks settle. In a child process: other tests enable storages.
describe('async hooks after boot (issue 16, per-request CPU)', () => {
  it('a server whose onReady hooks called ready() leaves no async context tracking on once booted', () => {
    const entry = join(__dirname, '..', '..', 'src', 'runtime')
    const script = `
      const { executionAsyncId } = require('node:async_hooks')
      const { createServer } = require(${JSON.stringify(entry)})
      const app = createServer({ logger: false })
      app.get('/', async () => 'hi')
      let inside = null
      app.addHook('onReady', async function () {
        await this.ready()
        inside = (await this.inject('/')).body
      })
      app.ready().then(() => Promise.resolve()).then(async () => {
        // A promise callback runs under async id 0 when no hook tracks promises.
        const tracked = executionAsyncId()
        const answered = (await app.inject('/')).body
        console.log(JSON.stringify({ inside, tracked, answered }))
        await app.close()
      })`
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 30_000 }))
    expect(out).to.deep.equal({ inside: 'hi', tracked: 0, answered: 'hi' })
  })
})
