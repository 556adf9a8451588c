import { expect } from 'chai'
import { accountProfile, ownerOf, type CpuProfile } from '../../bench/harness/cpu-profile-account'

const frame = (functionName: string, url = '', lineNumber = 0) => ({ functionName, url, lineNumber })

describe('bench cpu profile account', () => {
  it('names the owner of a sample from its function and URL: Enclave as built, the bench server, Node, dependencies, natives and V8', () => {
    expect(ownerOf('handleRequest', 'file:///w/dist/src/runtime/serve/pipeline.js')).to.equal('enclave')
    expect(ownerOf('send', 'file:///w/dist/bench/servers/raw.js')).to.equal('app')
    expect(ownerOf('find', 'file:///w/node_modules/find-my-way/index.js')).to.equal('deps')
    expect(ownerOf('parserOnIncoming', 'node:_http_server')).to.equal('node')
    expect(ownerOf('writev', '')).to.equal('native')
    expect(ownerOf('(garbage collector)', '')).to.equal('gc')
    expect(ownerOf('(program)', '')).to.equal('program')
    expect(ownerOf('(idle)', '')).to.equal('idle')
  })

  it('sums self time per owner over the samples inside the window only, and lists Enclave functions largest first', () => {
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('(idle)') },
        { id: 2, callFrame: frame('find', 'file:///w/dist/src/runtime/serve/static-routes.js', 96) },
        { id: 3, callFrame: frame('writev') },
        { id: 4, callFrame: frame('write', 'file:///w/dist/src/runtime/serve/send.js', 221) },
      ],
      startTime: 1_000,
      // Sample times 1010, 1020, 1050, 1060, 1100, 1200: the first only opens the count.
      samples: [2, 2, 3, 4, 1, 2],
      timeDeltas: [10, 10, 30, 10, 40, 100],
    }
    const account = accountProfile(profile, 1_015, 1_150)
    expect(account.byOwner.enclave).to.equal(10 + 10)
    expect(account.byOwner.native).to.equal(30)
    expect(account.byOwner.idle).to.equal(40)
    expect(account.byOwner.gc).to.equal(0)
    expect(account.enclaveFunctions).to.deep.equal([['find src/runtime/serve/static-routes.js:97', 10], ['write src/runtime/serve/send.js:222', 10]])
  })
})
