// The order of the close hooks, against Fastify itself: onClose is avvio's close queue, last in
// first out (Fastify 3.27.4 with avvio 7, and Fastify 5 with avvio 9): within a scope the newest
// hook first, later and deeper scopes before earlier ones. preClose (Fastify 4+) runs parents
// first, in the order added. The same plugin tree is run on Enclave and on Fastify.
import { expect } from 'chai'
import { server } from '../support/servers'

/** What both Enclave's root scope and a Fastify instance offer for this tree. */
interface Instance {
  addHook(name: string, fn: () => Promise<void>): unknown
  register(plugin: (instance: Instance) => Promise<void>): unknown
  ready(): PromiseLike<unknown>
  close(): PromiseLike<unknown>
}

/** Root hooks `first`, `second`; a child with two hooks and a grandchild; a later sibling. */
function declareTree(root: Instance, order: string[], withPreClose: boolean): void {
  const hook = (name: string) => async (): Promise<void> => { order.push(name) }
  root.addHook('onClose', hook('first'))
  root.addHook('onClose', hook('second'))
  if (withPreClose) {
    root.addHook('preClose', hook('pre root 1'))
    root.addHook('preClose', hook('pre root 2'))
  }
  root.register(async (child) => {
    child.addHook('onClose', hook('child 1'))
    child.addHook('onClose', hook('child 2'))
    if (withPreClose) child.addHook('preClose', hook('pre child'))
    child.register(async (grandchild) => { grandchild.addHook('onClose', hook('grandchild')) })
  })
  root.register(async (sibling) => {
    sibling.addHook('onClose', hook('sibling'))
    if (withPreClose) sibling.addHook('preClose', hook('pre sibling'))
  })
}

async function closeOrder(app: Instance, withPreClose: boolean): Promise<string[]> {
  const order: string[] = []
  declareTree(app, order, withPreClose)
  await app.ready()
  await app.close()
  return order
}

function fastify(version: 'fastify3' | 'fastify5'): Instance {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require(version) as (options: object) => Instance)({ logger: false })
}

describe('plugin API: the order of onClose and preClose hooks is Fastify\'s', () => {
  it('onClose runs newest first within a scope, later and deeper scopes first, as Fastify 3.27.4 (avvio) runs them', async () => {
    const enclave = await closeOrder(server() as unknown as Instance, false)
    expect(enclave).to.deep.equal(['sibling', 'grandchild', 'child 2', 'child 1', 'second', 'first'])
    expect(enclave).to.deep.equal(await closeOrder(fastify('fastify3'), false))
  })

  it('preClose runs parents first in the order added, then onClose newest first, as Fastify 5 runs them', async () => {
    const enclave = await closeOrder(server() as unknown as Instance, true)
    expect(enclave).to.deep.equal([
      'pre root 1', 'pre root 2', 'pre child', 'pre sibling',
      'sibling', 'grandchild', 'child 2', 'child 1', 'second', 'first',
    ])
    expect(enclave).to.deep.equal(await closeOrder(fastify('fastify5'), true))
  })
})
