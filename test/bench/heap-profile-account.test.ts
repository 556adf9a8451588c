import { expect } from 'chai'
import { accountAllocations, allocationOwner, type SamplingNode } from '../../bench/harness/heap-profile-account'

const node = (functionName: string, url: string, selfSize: number, children: SamplingNode[] = [], lineNumber = 0): SamplingNode =>
  ({ callFrame: { functionName, url, lineNumber, columnNumber: 0 }, selfSize, children })

describe('bench heap profile account', () => {
  it('names the owner of an allocation from its URL: Enclave as built, the bench server, Node, dependencies, natives', () => {
    expect(allocationOwner('file:///w/dist/src/runtime/serve/pipeline.js')).to.equal('enclave')
    expect(allocationOwner('file:///w/dist/bench/servers/raw.js')).to.equal('app')
    expect(allocationOwner('file:///w/node_modules/find-my-way/index.js')).to.equal('deps')
    expect(allocationOwner('node:_http_server')).to.equal('node')
    expect(allocationOwner('')).to.equal('native')
  })

  it('sums self sizes per owner, counts what is allocated below an Enclave frame, and keys those sites with two callers', () => {
    const head = node('(root)', '', 0, [
      node('parserOnIncoming', 'node:_http_server', 100, [
        node('handleRequest', 'file:///w/dist/src/runtime/serve/pipeline.js', 400, [
          node('end', 'node:_http_outgoing', 50, [], 9),
        ], 29),
      ]),
      node('handle', 'file:///w/dist/bench/servers/raw.js', 30),
    ])
    const account = accountAllocations(head)
    expect(account.total).to.equal(580)
    expect(account.byOwner).to.deep.equal({ enclave: 400, node: 150, deps: 0, app: 30, native: 0 })
    expect(account.underEnclave).to.equal(450)
    expect(account.sites.get('end node:_http_outgoing:10:1 < handleRequest src/runtime/serve/pipeline.js:30:1 < parserOnIncoming node:_http_server:1:1')).to.equal(50)
    expect(account.sites.get('handleRequest src/runtime/serve/pipeline.js:30:1 < parserOnIncoming node:_http_server:1:1 < (root) :1:1')).to.equal(400)
    expect(account.sites.size).to.equal(2)
  })
})
